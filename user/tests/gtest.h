/*
 * What a guest test needs, the same on smpix and on Linux: raw i386 system
 * calls (int $0x80, results as -errno), output, and the PASS/FAIL bookkeeping.
 *
 * Built for smpix with the user library, or with -DLINUX_HOST by the host's
 * `gcc -m32 -static` (glibc) to run on Linux: where smpix claims Linux
 * behaviour, the same test must pass there too. Only raw calls are used, so
 * glibc's wrappers never hide what the kernel answered.
 */
/*
 * Every guest test uses this one header, in one of two ways:
 *  - in process (the default): each test is a function; CHECK returns from
 *    it on the first failure. Tests may leave state for the next one.
 *  - isolated (#define GT_ISOLATED before including): each test runs in a
 *    forked child, so a signal handler, a mask, a process group or a crash
 *    of one test cannot touch the next; CHECK ends the child.
 * Both print the same lines: "SUITE: TEST ok", "SUITE: TEST FAIL line N:
 * cond", "SUITE: TEST SKIP why", then "SUITE: summary P passed, F failed"
 * (", S skipped"), which tools/test/harness.py reads.
 */
#ifndef USER_TESTS_GTEST_H
#define USER_TESTS_GTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef LINUX_HOST
#include <stdio.h>
#include <string.h>
#define ON_LINUX 1
#else
#include "ulib.h"
#define ON_LINUX 0
#endif

#include "kernel/uapi/dirent.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/ioctls.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/signal.h"
#include "kernel/uapi/stat.h"
#include "kernel/uapi/unistd.h"
#include "kernel/uapi/wait.h"

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

/* Linux i386 numbers (syscall_32.tbl) the shared unistd.h may not list yet. */
#ifndef __NR_close
#define __NR_close 6
#endif
#ifndef __NR_lseek
#define __NR_lseek 19
#endif
#ifndef __NR_dup
#define __NR_dup 41
#endif
#ifndef __NR_pipe
#define __NR_pipe 42
#endif
#ifndef __NR_rt_sigaction
#define __NR_rt_sigaction 174
#endif
#ifndef __NR_fstat64
#define __NR_fstat64 197
#endif
#ifndef __NR_fcntl64
#define __NR_fcntl64 221
#endif
#ifndef __NR_pipe2
#define __NR_pipe2 331
#endif
#ifndef __NR_prlimit64
#define __NR_prlimit64 340
#endif
#ifndef __NR_open
#define __NR_open 5
#endif

#define BAD_NULL   ((void *)0)
#define BAD_KERNEL ((void *)0xC0000000)         /* smpix: the kernel's half */
#define BAD_UNMAP  ((void *)0x40000000)         /* never mapped, on smpix or on Linux */
#define NO_PID     5000000                      /* above Linux's largest pid_max (4194304): never a process */

static inline long gt_syscall(long nr, long a, long b, long c, long d)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
	return r;
}
#define SYS0(nr) gt_syscall((nr), 0, 0, 0, 0)
#define SYS1(nr, a) gt_syscall((nr), (long)(a), 0, 0, 0)
#define SYS2(nr, a, b) gt_syscall((nr), (long)(a), (long)(b), 0, 0)
#define SYS3(nr, a, b, c) gt_syscall((nr), (long)(a), (long)(b), (long)(c), 0)
#define SYS4(nr, a, b, c, d) gt_syscall((nr), (long)(a), (long)(b), (long)(c), (long)(d))

/* A six-argument call (mmap2, futex): the sixth goes in %ebp, which the compiler will not give us. */
static inline long gt_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	long args[6] = { a1, a2, a3, a4, a5, a6 };
	long *p = args;
	long r;

	__asm__ volatile("push %%ebp\n\t"
			 "push %%ebx\n\t"
			 "mov 20(%%edi), %%ebp\n\t"
			 "mov 0(%%edi), %%ebx\n\t"
			 "mov 4(%%edi), %%ecx\n\t"
			 "mov 8(%%edi), %%edx\n\t"
			 "mov 12(%%edi), %%esi\n\t"
			 "mov 16(%%edi), %%edi\n\t"
			 "int $0x80\n\t"
			 "pop %%ebx\n\t"
			 "pop %%ebp"
			 : "=a"(r), "+D"(p)
			 : "a"(nr)
			 : "ecx", "edx", "esi", "memory");
	return r;
}

/* The two string functions the user library lacks (glibc has them; these serve both). */
static inline char *gt_strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return n == 0 ? (char *)hay : NULL;
}

static inline char *gt_strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (; *s; s++)
		if (*s == (char)c)
			last = s;
	return (char *)last;
}

struct gt_timespec {
	int32_t tv_sec;
	int32_t tv_nsec;
};

static inline __attribute__((noreturn)) void gt_exit(int code)
{
#ifdef LINUX_HOST
	fflush(stdout);
#endif
	for (;;)
		SYS1(__NR_exit_group, code);
}

static inline void gt_msleep(int ms)
{
	struct gt_timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	SYS2(__NR_nanosleep, &ts, 0);
}

/* Monotonic milliseconds. */
static inline int64_t gt_now_ms(void)
{
	struct gt_timespec ts;

	SYS2(__NR_clock_gettime, 1, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int gt_fork(void) { return (int)SYS0(__NR_fork); }
static inline int gt_close(int fd) { return (int)SYS1(__NR_close, fd); }
static inline long gt_read(int fd, void *buf, size_t n) { return SYS3(__NR_read, fd, buf, n); }
static inline long gt_write(int fd, const void *buf, size_t n) { return SYS3(__NR_write, fd, buf, n); }

/* Wait for pid; its wait status, or -1000 if the wait itself failed. */
static inline int gt_wait(int pid)
{
	int status = 0;

	if (SYS4(__NR_wait4, pid, &status, 0, 0) != pid)
		return -1000;
	return status;
}

/* ---- small things many tests need ------------------------------------------------------ */

static inline long gt_ioctl(int fd, unsigned cmd, const void *arg) { return SYS3(__NR_ioctl, fd, cmd, arg); }
static inline int gt_open(const char *path, int flags) { return (int)SYS2(__NR_open, path, flags); }

/* A whole (small) file into buf, NUL-terminated: its length, or -errno. */
static inline long gt_read_file(const char *path, char *buf, size_t size)
{
	int fd = gt_open(path, O_RDONLY);
	long total = 0, r;

	if (fd < 0)
		return fd;
	while (total < (long)size - 1 && (r = gt_read(fd, buf + total, size - 1 - total)) > 0)
		total += r;
	gt_close(fd);
	buf[total] = 0;
	return total;
}

/*
 * Field k (0: the name) of the line of /proc/ide that starts with "name ":
 * drivers/block/ide.c's drive lines (hdc ide1 dma dma_requests pio_requests
 * sectors) and queue lines (ide1 requests merges sectors plugs unplug_thresh
 * unplug_timer unplug_wait). -1 if there is none.
 */
static inline long gt_ide_field(const char *name, int k)
{
	static char text[1024];
	long n = gt_read_file("/proc/ide", text, sizeof(text) - 1);
	size_t len = strlen(name);

	if (n <= 0)
		return -1;
	text[n] = 0;
	for (const char *p = text; *p; p++) {
		if ((p != text && p[-1] != '\n') || strncmp(p, name, len) != 0 || p[len] != ' ')
			continue;
		for (int field = 0; field < k; field++) {
			while (*p && *p != ' ' && *p != '\n')
				p++;
			if (*p != ' ')
				return -1;
			p++;
		}
		if (*p < '0' || *p > '9')
			return -1;
		for (n = 0; *p >= '0' && *p <= '9'; p++)        /* no atoi: this header builds for glibc too */
			n = n * 10 + (*p - '0');
		return n;
	}
	return -1;
}

/* s written to an existing file (a /proc/sys knob): write()'s answer, or -errno. */
static inline long gt_write_file(const char *path, const char *s)
{
	int fd = gt_open(path, O_WRONLY);
	long r;

	if (fd < 0)
		return fd;
	r = gt_write(fd, s, strlen(s));
	gt_close(fd);
	return r;
}

/* The CPUs this process may run on (1 if that cannot be told). */
static inline int gt_count_cpus(void)
{
	uint32_t mask = 0;
	int n = 0;

	if (SYS3(__NR_sched_getaffinity, 0, sizeof(mask), &mask) < 0)
		return 1;
	for (; mask; mask >>= 1)
		n += mask & 1;
	return n ? n : 1;
}

static inline void gt_pin_to_cpu(int cpu)
{
	uint32_t mask = 1u << cpu;

	SYS3(__NR_sched_setaffinity, 0, sizeof(mask), &mask);
}

/* ---- the kernel's object counts (smpix only: /dev/kcounts), for leak checks ---------- */

struct counts {
	long inodes, files, heap_objects, flocks;
};

/* The value after "name " in /dev/kcounts, or -1. */
static inline long gt_count_of(const char *text, const char *name)
{
	const char *p = text;
	size_t len = strlen(name);
	long v = 0;

	for (; *p; p++) {
		if ((p == text || p[-1] == '\n') && strncmp(p, name, len) == 0 && p[len] == ' ') {
			for (p += len + 1; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (*p - '0');
			return v;
		}
	}
	return -1;
}

static inline int gt_read_counts(struct counts *c)
{
	static char text[512];
	int fd = (int)SYS2(__NR_open, "/dev/kcounts", O_RDONLY);
	long n;

	if (fd < 0)
		return fd;
	n = gt_read(fd, text, sizeof(text) - 1);
	gt_close(fd);
	if (n <= 0)
		return -1;
	text[n] = 0;
	c->inodes = gt_count_of(text, "inodes");
	c->files = gt_count_of(text, "files");
	c->heap_objects = gt_count_of(text, "heap_objects");
	c->flocks = gt_count_of(text, "flocks");
	return 0;
}

/* ---- bookkeeping: "NAME: TEST ok", "NAME: TEST FAIL why" or "NAME: TEST SKIP why" -------- */

static int gt_passed, gt_failed, gt_skipped;
static const char *gt_suite = "test";
static const char *gt_test = "";
#ifndef GT_ISOLATED
static const char *gt_failure;          /* set by CHECK: why the test running now failed */
static char gt_why[128];
static bool gt_skipping;                /* set by SKIP_IF */
static char gt_skip_why[160];
#endif

#ifdef GT_ISOLATED
/* In the test's own child: report the first failed check and end the child. */
#define CHECK(cond)                                                                     \
	do {                                                                            \
		if (!(cond)) {                                                          \
			printf("%s: %s FAIL line %d: %s\n", gt_suite, gt_test, __LINE__, #cond); \
			gt_exit(1);                                                     \
		}                                                                       \
	} while (0)

#define GT_SKIP_STATUS 77       /* a child that skipped: counted neither way */
#define SKIP_IF(cond, ...)                                                              \
	do {                                                                            \
		if (cond) {                                                             \
			char why_[160];                                                 \
			snprintf(why_, sizeof(why_), __VA_ARGS__);                      \
			printf("%s: %s SKIP %s\n", gt_suite, gt_test, why_);            \
			gt_exit(GT_SKIP_STATUS);                                        \
		}                                                                       \
	} while (0)

/* Run fn in a child of its own; it passes if the child exits 0. */
static inline void gt_run(const char *name, void (*fn)(void))
{
	int pid, st = 0;

	gt_test = name;
	pid = gt_fork();
	if (pid == 0) {
		fn();
		gt_exit(0);
	}
	st = pid < 0 ? -1000 : gt_wait(pid);
	if (st == -1000) {
		printf("%s: %s FAIL cannot fork or wait\n", gt_suite, name);
		gt_failed++;
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		printf("%s: %s ok\n", gt_suite, name);
		gt_passed++;
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == GT_SKIP_STATUS) {
		gt_skipped++;           /* the child said why */
	} else {
		if (!WIFEXITED(st))
			printf("%s: %s FAIL killed by signal %d\n", gt_suite, name, WTERMSIG(st));
		gt_failed++;            /* else the child printed its FAIL line */
	}
}

/* Fork a child running fn (which should not return); its wait status, or -1000. */
static inline int gt_child_status(void (*fn)(void))
{
	int pid = gt_fork();

	if (pid == 0) {
		fn();
		gt_exit(0);
	}
	return pid < 0 ? -1000 : gt_wait(pid);
}
#else
#define CHECK(cond)                                                                     \
	do {                                                                            \
		if (!(cond)) {                                                          \
			snprintf(gt_why, sizeof(gt_why), "line %d: %s", __LINE__, #cond); \
			gt_failure = gt_why;                                            \
			return;                                                         \
		}                                                                       \
	} while (0)

/*
 * SKIP_IF(cond, "why", ...): the machine this runs on cannot show what the
 * test is about (no /proc mounted, no /dev/null, stdin not a terminal, a
 * /proc that belongs to another pid namespace): the test ends here and is
 * reported as "NAME: TEST SKIP why", neither passed nor failed. Only for the
 * host's environment, on Linux: smpix's own environment is known, and a
 * guest run that skips has a clean summary no longer (the harness insists).
 */
#define SKIP_IF(cond, ...)                                                              \
	do {                                                                            \
		if (cond) {                                                             \
			snprintf(gt_skip_why, sizeof(gt_skip_why), __VA_ARGS__);       \
			gt_skipping = true;                                             \
			return;                                                         \
		}                                                                       \
	} while (0)

static inline void gt_run(const char *name, void (*fn)(void))
{
	gt_test = name;
	gt_failure = 0;
	gt_skipping = false;
	fn();
	if (gt_failure) {
		printf("%s: %s FAIL %s\n", gt_suite, name, gt_failure);
		gt_failed++;
	} else if (gt_skipping) {
		printf("%s: %s SKIP %s\n", gt_suite, name, gt_skip_why);
		gt_skipped++;
	} else {
		printf("%s: %s ok\n", gt_suite, name);
		gt_passed++;
	}
}
#endif

/* Running on smpix (not Linux)? For the few checks where smpix differs on purpose. */
static inline bool gt_on_smpix(void)
{
	char u[6 * 65];

	return SYS1(__NR_uname, u) == 0 && strcmp(u, "smpix") == 0;
}

/* An i386 program on a 64-bit kernel (x86_64's compat layer): its user space reaches up to 4 GiB,
 * where i386 kernels (Linux's and smpix's) end it at 3 GiB. */
static inline bool gt_on_64bit_kernel(void)
{
	char u[6 * 65];

	return SYS1(__NR_uname, u) == 0 && strcmp(u + 4 * 65, "x86_64") == 0;
}

static inline void gt_start(const char *suite)
{
	gt_suite = suite;
#ifdef LINUX_HOST
	setvbuf(stdout, NULL, _IONBF, 0);       /* one write per line, and nothing to copy at fork */
#endif
}

/* "NAME: summary P passed, F failed", and ", S skipped" when some were. Exit status 1 on a failure. */
/* Print the summary line: the status the suite should exit with. */
static inline int gt_summary(void)
{
	if (gt_skipped)
		printf("%s: summary %d passed, %d failed, %d skipped\n", gt_suite, gt_passed, gt_failed,
		       gt_skipped);
	else
		printf("%s: summary %d passed, %d failed\n", gt_suite, gt_passed, gt_failed);
	return gt_failed ? 1 : 0;
}

static inline __attribute__((noreturn)) void gt_finish(void)
{
	gt_exit(gt_summary());
}

/* ---- what the host can show: for SKIP_IF ------------------------------------------------ */

/* Can path be opened for reading? (Linux: a chroot may lack /proc, /dev/null, ...) */
static inline bool gt_exists(const char *path)
{
	int fd = (int)SYS2(__NR_open, path, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return false;
	gt_close(fd);
	return true;
}

/* Is a procfs of our own pid namespace mounted on /proc? (/proc/self names us.) */
static inline bool gt_proc_is_ours(void)
{
	char link[24], want[24];
	long n = SYS3(__NR_readlink, "/proc/self", link, sizeof(link) - 1);

	if (n <= 0)
		return false;
	link[n] = 0;
	snprintf(want, sizeof(want), "%ld", SYS0(__NR_getpid));
	return strcmp(link, want) == 0;
}

#endif
