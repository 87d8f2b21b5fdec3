/*
 * /bin/mmaptest: mmap2, old mmap, munmap, mprotect and mremap as Linux defines
 * them (kernel/mm/mmap.c): good and bad arguments with their errno values,
 * pages on demand and zeroed, private mappings across fork, SIGSEGV after
 * munmap and after mprotect, file-backed private mappings (shared with the
 * file until written, SIGBUS past its end), and no page lost.
 *
 * Built twice: for smpix (tools/test/cases/46_mmap.py boots it as init) and with
 * the host's `gcc -m32 -static -DLINUX_HOST` to run on Linux, which must pass
 * it too. What smpix does not support (shared file mappings) is checked on smpix only.
 */
#include "gtest.h"

#include "kernel/uapi/mman.h"

#ifndef __NR_mmap
#define __NR_mmap 90
#define __NR_munmap 91
#define __NR_mprotect 125
#define __NR_mremap 163
#define __NR_mmap2 192
#endif
#define __NR_unlink_ 10
#define __NR_mkdir_ 39
#define __NR_ftruncate_ 93
#define PAGE 4096

static long map(void *addr, size_t len, int prot, int flags, int fd, long pgoff)
{
	return gt_syscall6(__NR_mmap2, (long)addr, (long)len, prot, flags, fd, pgoff);
}

static char *anon(size_t len, int prot)
{
	long r = map(0, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return r < 0 && r > -4096 ? NULL : (char *)r;
}

static bool is_err(long r, long e)
{
	return r == e;
}

/* Run fn(arg) in a child: how it ended (the wait status), or -1000. */
static int in_child(void (*fn)(volatile char *), volatile char *arg)
{
	int pid = gt_fork();

	if (pid == 0) {
		fn(arg);
		gt_exit(0);
	}
	return pid < 0 ? -1000 : gt_wait(pid);
}

static bool died_of_segv(int status)
{
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

static bool died_of_sigbus(int status)
{
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
}

static void do_read(volatile char *p) { gt_exit(*p == 0x7f ? 3 : 0); }
static void do_write(volatile char *p) { *p = 1; }

/* ---- the pages ------------------------------------------------------------------------ */

static void t_anon_zeroed_on_demand(void)
{
	size_t len = 64 * PAGE;
	char *p = anon(len, PROT_READ | PROT_WRITE);

	CHECK(p != NULL);
	CHECK((uintptr_t)p % PAGE == 0);
	for (size_t i = 0; i < len; i += 512)
		CHECK(p[i] == 0);
	for (size_t i = 0; i < len; i += PAGE)
		p[i] = (char)(i / PAGE + 1);
	for (size_t i = 0; i < len; i += PAGE)
		CHECK(p[i] == (char)(i / PAGE + 1));
	CHECK(SYS2(__NR_munmap, p, len) == 0);
}

static void t_placement(void)
{
	char *a = anon(4 * PAGE, PROT_READ | PROT_WRITE);
	char *b = anon(4 * PAGE, PROT_READ | PROT_WRITE);
	char *want = (char *)0x30000000, *c;

	CHECK(a && b && a != b);
	CHECK(b + 4 * PAGE <= a || a + 4 * PAGE <= b);  /* no overlap */
	CHECK(b < a);                                   /* top-down, as Linux places them */
	c = (char *)map(want, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(c == want);                               /* a free hint is taken */
	CHECK(SYS2(__NR_munmap, a, 4 * PAGE) == 0);
	CHECK(SYS2(__NR_munmap, b, 4 * PAGE) == 0);
	CHECK(SYS2(__NR_munmap, c, PAGE) == 0);
}

static void t_fixed_replaces(void)
{
	char *p = anon(3 * PAGE, PROT_READ | PROT_WRITE);
	long r;

	CHECK(p != NULL);
	memset(p, 'a', 3 * PAGE);
	r = map(p + PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	CHECK(r == (long)(p + PAGE));
	CHECK(p[0] == 'a' && p[PAGE - 1] == 'a');
	CHECK(p[PAGE] == 0 && p[2 * PAGE - 1] == 0);
	CHECK(p[2 * PAGE] == 'a');
	CHECK(SYS2(__NR_munmap, p, 3 * PAGE) == 0);
}

static void t_mmap_bad_args(void)
{
	int pfd[2];
	int anonf = MAP_PRIVATE | MAP_ANONYMOUS;

	CHECK(is_err(map(0, 0, PROT_READ, anonf, -1, 0), -EINVAL));
	CHECK(is_err(map(0, PAGE, PROT_READ, MAP_PRIVATE, -1, 0), -EBADF));
	CHECK(is_err(map(0, PAGE, PROT_READ, MAP_PRIVATE, 999, 0), -EBADF));
	CHECK(is_err(map((void *)0x30000123, PAGE, PROT_READ, anonf | MAP_FIXED, -1, 0), -EINVAL));
	CHECK(is_err(map(0, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0), -EINVAL));  /* neither private nor shared */
	CHECK(is_err(map(0, 0xF0000000u, PROT_READ, anonf, -1, 0), -ENOMEM));   /* no room */
	CHECK(SYS1(__NR_pipe, pfd) == 0);
	CHECK(is_err(map(0, PAGE, PROT_READ, MAP_PRIVATE, pfd[0], 0), -ENODEV)); /* a pipe has no pages */
	gt_close(pfd[0]);
	gt_close(pfd[1]);
}

static void t_old_mmap(void)
{
	uint32_t args[6] = { 0, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, (uint32_t)-1, 0 };
	long r = SYS1(__NR_mmap, args);
	char *p = (char *)r;

	CHECK(r > 0 || r < -4096);
	CHECK(p[0] == 0 && p[2 * PAGE - 1] == 0);
	p[PAGE] = 5;
	CHECK(SYS2(__NR_munmap, p, 2 * PAGE) == 0);
	args[5] = 100;                                  /* the offset is in bytes: it must be page-aligned */
	CHECK(SYS1(__NR_mmap, args) == -EINVAL);
	CHECK(SYS1(__NR_mmap, BAD_UNMAP) == -EFAULT);
	CHECK(SYS1(__NR_mmap, BAD_KERNEL) == -EFAULT);
}

/* ---- files ------------------------------------------------------------------------------ */

static const char *path = "/tmp/mmaptest.dat";

static char pattern(size_t i) { return (char)('A' + i % 23); }

static void t_file_private_read_only(void)
{
	static char data[PAGE + 1000];
	int fd, wfd;
	char *p, *q;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = pattern(i);
	SYS2(__NR_mkdir_, "/tmp", 0777);                /* booted as init, smpix has no /tmp yet */
	fd = (int)SYS3(__NR_open, path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	CHECK(gt_write(fd, data, sizeof(data)) == (long)sizeof(data));
	p = (char *)map(0, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK((long)p > 0 || (long)p < -4096);
	CHECK(memcmp(p, data, sizeof(data)) == 0);
	CHECK(p[sizeof(data)] == 0 && p[2 * PAGE - 1] == 0);    /* past the end of the file: zeros */
	CHECK(died_of_segv(in_child(do_write, p)));             /* PROT_READ: a write is SIGSEGV */
	q = (char *)map(0, PAGE, PROT_READ, MAP_PRIVATE, fd, 1); /* pgoff 1: the second page */
	CHECK((long)q > 0 || (long)q < -4096);
	CHECK(q[0] == pattern(PAGE) && q[999] == pattern(PAGE + 999) && q[1000] == 0);
	CHECK(SYS2(__NR_munmap, p, 2 * PAGE) == 0);
	CHECK(SYS2(__NR_munmap, q, PAGE) == 0);
	gt_close(fd);
	wfd = (int)SYS2(__NR_open, path, O_WRONLY);
	CHECK(wfd >= 0);
	CHECK(is_err(map(0, PAGE, PROT_READ, MAP_PRIVATE, wfd, 0), -EACCES));     /* not open for reading */
	if (!ON_LINUX) {
		fd = (int)SYS2(__NR_open, path, O_RDONLY);
		CHECK(is_err(map(0, PAGE, PROT_READ, MAP_SHARED, fd, 0), -ENODEV));
		gt_close(fd);
	}
	gt_close(wfd);
	CHECK(SYS1(__NR_unlink_, path) == 0);
}

/* Write one byte at off of fd (lseek + write, as the reference runs both). */
static bool put_byte(int fd, long off, char c)
{
	return SYS3(__NR_lseek, fd, off, 0) == off && gt_write(fd, &c, 1) == 1;
}

static char get_byte(int fd, long off)
{
	char c = 0;

	return SYS3(__NR_lseek, fd, off, 0) == off && gt_read(fd, &c, 1) == 1 ? c : 0;
}

static void child_checks_page1(volatile char *p) { gt_exit(p[PAGE + 5] == 'Z' ? 0 : 5); }

/*
 * A private, writable mapping of a file: pages not yet written show later
 * writes to the file (its pages are the file's until copied, on Linux too),
 * its own writes stay private, zeros past the end of the file within the last
 * page, SIGBUS past that page.
 */
static void t_file_private_cow(void)
{
	static char data[2 * PAGE + 100];
	char *p;
	int fd;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = pattern(i);
	SYS2(__NR_mkdir_, "/tmp", 0777);
	fd = (int)SYS3(__NR_open, path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	CHECK(gt_write(fd, data, sizeof(data)) == (long)sizeof(data));
	p = (char *)map(0, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK((long)p > 0 || (long)p < -4096);
	CHECK(p[1] == pattern(1) && p[PAGE + 5] == pattern(PAGE + 5));      /* both pages touched: read */
	p[2] = 'q';                                     /* page 0 is ours now */
	CHECK(put_byte(fd, 0, 'Y') && put_byte(fd, PAGE + 5, 'Z'));
	CHECK(p[PAGE + 5] == 'Z');                      /* page 1 not written: the file's write shows */
	CHECK(in_child(child_checks_page1, p) == 0);    /* in a child too */
	CHECK(p[0] == pattern(0) && p[2] == 'q');       /* page 0 copied: neither sees the other */
	CHECK(get_byte(fd, 0) == 'Y' && get_byte(fd, 2) == pattern(2));
	p[PAGE + 6] = 'w';
	CHECK(put_byte(fd, PAGE + 7, 'V'));
	CHECK(p[PAGE + 7] == pattern(PAGE + 7) && get_byte(fd, PAGE + 6) == pattern(PAGE + 6));
	CHECK(p[2 * PAGE + 99] == pattern(2 * PAGE + 99) && p[2 * PAGE + 100] == 0 && p[3 * PAGE - 1] == 0);
	CHECK(died_of_sigbus(in_child(do_read, p + 3 * PAGE)));    /* wholly past the end of the file */
	CHECK(died_of_sigbus(in_child(do_write, p + 3 * PAGE)));
	if (!ON_LINUX) {
		/* smpix keeps a page mapped when the file shrinks (Linux unmaps it): it must stay intact. */
		CHECK(SYS2(__NR_ftruncate_, fd, 0) == 0 && SYS1(__NR_unlink_, path) == 0);
		CHECK(p[PAGE + 5] == 'Z' && p[2 * PAGE] == pattern(2 * PAGE));
	} else {
		CHECK(SYS1(__NR_unlink_, path) == 0);
	}
	CHECK(SYS2(__NR_munmap, p, 4 * PAGE) == 0);
	gt_close(fd);
}

/* ---- fork, munmap, mprotect ------------------------------------------------------------ */

static void child_writes(volatile char *p)
{
	gt_exit(p[0] == 'p' ? (p[0] = 'c', p[PAGE] = 'c', 0) : 4);
}

static void child_writes_one(volatile char *p)
{
	gt_exit(p[0] == 'p' ? (p[0] = 'c', 0) : 4);
}

static void t_fork_private(void)
{
	char *p = anon(2 * PAGE, PROT_READ | PROT_WRITE);
	int st;

	CHECK(p != NULL);
	p[0] = 'p';                     /* touched before the fork; p[PAGE] is not */
	st = in_child(child_writes, p);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);  /* the child saw the parent's page */
	CHECK(p[0] == 'p');                             /* and its writes stayed its own */
	CHECK(p[PAGE] == 0);
	CHECK(SYS2(__NR_munmap, p, 2 * PAGE) == 0);
}

/* ---- shared anonymous memory ------------------------------------------------------------ */

static void child_writes_shared(volatile char *p)
{
	if (p[0] != 's' || p[PAGE] != 0)
		gt_exit(1);
	p[0] = 'c';
	p[PAGE] = 'C';
}

/*
 * MAP_SHARED | MAP_ANONYMOUS: the child's writes are the parent's, both
 * pages (one touched before the fork, one not), and stay so after the
 * parent write-protects and unprotects its view (no copy-on-write).
 */
static void t_fork_shared(void)
{
	char *p = (char *)map(0, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int st;

	CHECK((long)p > 0 || (long)p < -4096);
	p[0] = 's';
	st = in_child(child_writes_shared, p);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(p[0] == 'c' && p[PAGE] == 'C');
	CHECK(SYS3(__NR_mprotect, p, 2 * PAGE, PROT_READ) == 0);
	CHECK(SYS3(__NR_mprotect, p, 2 * PAGE, PROT_READ | PROT_WRITE) == 0);
	p[0] = 's';
	p[PAGE] = 0;
	st = in_child(child_writes_shared, p);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(p[0] == 'c' && p[PAGE] == 'C');
	CHECK(SYS2(__NR_munmap, p, 2 * PAGE) == 0);
}

static void t_munmap_splits(void)
{
	char *p = anon(3 * PAGE, PROT_READ | PROT_WRITE);

	CHECK(p != NULL);
	memset(p, 'm', 3 * PAGE);
	CHECK(SYS2(__NR_munmap, p + PAGE, PAGE) == 0);
	CHECK(died_of_segv(in_child(do_read, p + PAGE)));
	CHECK(died_of_segv(in_child(do_write, p + PAGE + 100)));
	CHECK(p[0] == 'm' && p[2 * PAGE] == 'm');
	CHECK(SYS2(__NR_munmap, p + PAGE, PAGE) == 0);  /* already unmapped: fine */
	CHECK(SYS2(__NR_munmap, p, 3 * PAGE) == 0);
	CHECK(died_of_segv(in_child(do_read, p)));
	CHECK(SYS2(__NR_munmap, p + 1, PAGE) == -EINVAL);
	CHECK(SYS2(__NR_munmap, p, 0) == -EINVAL);
	CHECK(SYS2(__NR_munmap, 0xFFFFF000u, 2 * PAGE) == -EINVAL);
}

static void t_mprotect(void)
{
	char *p = anon(4 * PAGE, PROT_READ | PROT_WRITE);
	int st;

	CHECK(p != NULL);
	p[0] = 'x';
	CHECK(SYS3(__NR_mprotect, p, PAGE, PROT_READ) == 0);
	CHECK(died_of_segv(in_child(do_write, p)));
	st = in_child(do_read, p);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(p[0] == 'x');
	CHECK(died_of_segv(in_child(do_write, p + 10)));
	p[PAGE] = 'w';                                  /* the next page kept PROT_WRITE */
	CHECK(SYS3(__NR_mprotect, p, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC) == 0);
	p[0] = 'y';
	CHECK(p[0] == 'y');
	CHECK(SYS3(__NR_mprotect, p + 2 * PAGE, 2 * PAGE, PROT_NONE) == 0);
	CHECK(died_of_segv(in_child(do_read, p + 2 * PAGE)));       /* never touched */
	CHECK(died_of_segv(in_child(do_read, p + 3 * PAGE)));
	CHECK(SYS3(__NR_mprotect, p + 2 * PAGE, 2 * PAGE, PROT_READ) == 0);
	CHECK(p[2 * PAGE] == 0);
	CHECK(SYS3(__NR_mprotect, p + 1, PAGE, PROT_READ) == -EINVAL);
	CHECK(SYS3(__NR_mprotect, p, PAGE, 0x40) == -EINVAL);
	CHECK(SYS3(__NR_mprotect, p, 0, PROT_READ) == 0);
	CHECK(SYS2(__NR_munmap, p + PAGE, PAGE) == 0);
	CHECK(SYS3(__NR_mprotect, p, 3 * PAGE, PROT_READ) == -ENOMEM);  /* a hole in the range */
	CHECK(SYS3(__NR_mprotect, BAD_UNMAP, PAGE, PROT_READ) == -ENOMEM);
	CHECK(SYS2(__NR_munmap, p, 4 * PAGE) == 0);
}

/* Write-protect a page shared with a child since fork, then make it writable again: still private. */
static void t_mprotect_after_fork(void)
{
	char *p = anon(PAGE, PROT_READ | PROT_WRITE);
	int st;

	CHECK(p != NULL);
	p[0] = 'p';
	st = in_child(child_writes_one, p);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(SYS3(__NR_mprotect, p, PAGE, PROT_READ) == 0);
	CHECK(SYS3(__NR_mprotect, p, PAGE, PROT_READ | PROT_WRITE) == 0);
	st = in_child(child_writes_one, p);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(p[0] == 'p');
	p[0] = 'q';
	CHECK(p[0] == 'q');
	CHECK(SYS2(__NR_munmap, p, PAGE) == 0);
}

/* ---- mremap ---------------------------------------------------------------------------- */

static void t_mremap(void)
{
	char *p = anon(2 * PAGE, PROT_READ | PROT_WRITE), *q, *blocker;
	long r;

	CHECK(p != NULL);
	memset(p, 'r', 2 * PAGE);
	/* Shrink: same address, the tail is gone. */
	CHECK(SYS4(__NR_mremap, p, 2 * PAGE, PAGE, 0) == (long)p);
	CHECK(died_of_segv(in_child(do_read, p + PAGE)));
	/* Block the growth in place, then grow: not without MREMAP_MAYMOVE; with it, the data moves along. */
	blocker = (char *)map(p + PAGE, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	CHECK(blocker == p + PAGE);
	CHECK(SYS4(__NR_mremap, p, PAGE, 8 * PAGE, 0) == -ENOMEM);
	r = SYS4(__NR_mremap, p, PAGE, 8 * PAGE, MREMAP_MAYMOVE);
	CHECK(r > 0 || r < -4096);
	q = (char *)r;
	CHECK(q != p);
	CHECK(q[0] == 'r' && q[PAGE - 1] == 'r');
	CHECK(q[PAGE] == 0 && q[8 * PAGE - 1] == 0);
	q[8 * PAGE - 1] = 'e';
	CHECK(died_of_segv(in_child(do_read, p)));      /* the old place is gone */
	CHECK(SYS2(__NR_munmap, blocker, PAGE) == 0);
	/* Bad input. */
	CHECK(SYS4(__NR_mremap, q, PAGE, 2 * PAGE, 0x80) == -EINVAL);
	CHECK(SYS4(__NR_mremap, q, PAGE, 2 * PAGE, MREMAP_FIXED) == -EINVAL);
	CHECK(SYS4(__NR_mremap, q + 1, PAGE, 2 * PAGE, 0) == -EINVAL);
	CHECK(SYS4(__NR_mremap, q, PAGE, 0, 0) == -EINVAL);
	CHECK(SYS4(__NR_mremap, BAD_UNMAP, PAGE, 2 * PAGE, MREMAP_MAYMOVE) == -EFAULT);
	CHECK(SYS2(__NR_munmap, q, 8 * PAGE) == 0);
}

/* ---- nothing lost (smpix only: /dev/kcounts) --------------------------------------------- */

static long pages_held(void)
{
	static char text[512];
	int fd = (int)SYS2(__NR_open, "/dev/kcounts", O_RDONLY);
	long n;

	if (fd < 0)
		return -1;
	n = gt_read(fd, text, sizeof(text) - 1);
	gt_close(fd);
	if (n <= 0)
		return -1;
	text[n] = 0;
	/* free + the kernel heap's + ramfs's: the same when no page is lost, however the heap caches. */
	return gt_count_of(text, "free_pages") + gt_count_of(text, "heap_pages") + gt_count_of(text, "file_pages");
}

/*
 * Everything above once more, in a child: when it has exited, every page it
 * mapped, every page table, and the file's pages are back. (Measured around a
 * whole process because page tables stay until the address space goes, as in Linux.)
 */
static void t_no_pages_lost(void)
{
	long before = pages_held(), after;
	int pid, st;

	CHECK(before > 0);
	pid = gt_fork();
	if (pid == 0) {
		gt_failure = 0;
		t_anon_zeroed_on_demand();
		t_fixed_replaces();
		t_old_mmap();
		t_file_private_read_only();
		t_file_private_cow();
		t_fork_private();
		t_fork_shared();
		t_munmap_splits();
		t_mprotect();
		t_mprotect_after_fork();
		t_mremap();
		gt_exit(gt_failure ? 1 : 0);
	}
	st = gt_wait(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	after = pages_held();
	if (after != before)
		printf("mmaptest: %ld pages before, %ld after\n", before, after);
	CHECK(after == before);
}

int main(void)
{
	gt_start("mmaptest");
	gt_run("anon_zeroed_on_demand", t_anon_zeroed_on_demand);
	gt_run("placement", t_placement);
	gt_run("fixed_replaces", t_fixed_replaces);
	gt_run("mmap_bad_args", t_mmap_bad_args);
	gt_run("old_mmap", t_old_mmap);
	gt_run("file_private_read_only", t_file_private_read_only);
	gt_run("file_private_cow", t_file_private_cow);
	gt_run("fork_private", t_fork_private);
	gt_run("fork_shared", t_fork_shared);
	gt_run("munmap_splits", t_munmap_splits);
	gt_run("mprotect", t_mprotect);
	gt_run("mprotect_after_fork", t_mprotect_after_fork);
	gt_run("mremap", t_mremap);
	if (!ON_LINUX)
		gt_run("no_pages_lost", t_no_pages_lost);
	gt_finish();
}
