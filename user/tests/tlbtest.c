/*
 * /bin/tlbtest: one address space on several CPUs (issue 31, docs/mm.md
 * section 8). A thread reads (or writes) a page in a loop on one CPU while
 * another thread on another CPU unmaps it, makes it PROT_NONE or read-only,
 * or drops it with madvise(MADV_DONTNEED). When the call returns, the reader
 * must fault (or see the fresh zeroed page) within moments, and it must
 * never see what the freed frame holds next: a kernel that does not shoot
 * down the other CPU's TLB fails here, since that CPU goes on using its
 * cached translation of a frame the allocator has handed on. Then the page
 * faults of several threads on one big mapping at once, and madvise's
 * errors.
 *
 * Built twice: for smpix (tools/test/cases/46_tlb.py boots it as init at 2
 * and 4 CPUs, and under bkl=syscalls) and with the host's `gcc -m32 -static
 * -DLINUX_HOST` for the Linux reference, which must pass it too. Each test
 * runs in a child of its own (GT_ISOLATED). The threads are raw clone()
 * threads (as in threadtest.c): no C library function may run in them.
 */
#define GT_ISOLATED
#include "gtest.h"

#include "kernel/uapi/mman.h"
#include "kernel/uapi/sched.h"

#ifndef __NR_mmap2
#define __NR_mmap2 192
#endif
#define __NR_munmap_ 91
#define __NR_mprotect_ 125
#define __NR_madvise_ 219
#define __NR_exit_ 1
#define PAGE 4096
#define STACK_SIZE 16384
#define NTHREADS 4
#define ROUNDS 10
#define OLD 0x11111111u
#define REUSED 0x22222222u
#define NEW 0x33333333u
#define REUSE_PAGES 256         /* touched right after a munmap: the freed frame is likely among them */
#define BIG_PAGES 1024          /* 4 MiB for the parallel faults */
#define SETSIZE 8
#define THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
		      CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)
#ifndef MADV_DONTNEED
#define MADV_NORMAL 0
#define MADV_RANDOM 1
#define MADV_SEQUENTIAL 2
#define MADV_WILLNEED 3
#define MADV_DONTNEED 4
#define MADV_FREE 8
#endif
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000u
#endif

/* clone(flags, stack, ptid, tls, ctid), then fn(arg) and exit(fn's value) in the thread (threadtest.c). */
long tlb_clone(unsigned long flags, void *stack_top, volatile int *ptid, void *tls,
	       volatile int *ctid, int (*fn)(void *), void *arg);
__asm__(".text\n.globl tlb_clone\n"
	"tlb_clone: pushl %ebp\n pushl %ebx\n pushl %esi\n pushl %edi\n"
	" movl 24(%esp), %ecx\n subl $8, %ecx\n"
	" movl 44(%esp), %eax\n movl %eax, 4(%ecx)\n"
	" movl 40(%esp), %eax\n movl %eax, 0(%ecx)\n"
	" movl 20(%esp), %ebx\n movl 28(%esp), %edx\n movl 32(%esp), %esi\n movl 36(%esp), %edi\n"
	" movl $120, %eax\n int $0x80\n"
	" testl %eax, %eax\n jnz 1f\n"
	" xorl %ebp, %ebp\n popl %eax\n call *%eax\n"
	" movl %eax, %ebx\n movl $1, %eax\n int $0x80\n hlt\n"
	"1: popl %edi\n popl %esi\n popl %ebx\n popl %ebp\n ret\n");

void tlb_restore_rt(void);
__asm__(".text\ntlb_restore_rt: movl $173, %eax\n int $0x80\n");

static uint32_t *map_anon(void *at, size_t len)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED : 0);
	long r = gt_syscall6(__NR_mmap2, (long)at, (long)len, PROT_READ | PROT_WRITE, flags, -1, 0);

	return r < 0 && r > -4096 ? NULL : (uint32_t *)r;
}

static char stacks[NTHREADS][STACK_SIZE] __attribute__((aligned(16)));
static volatile int tids[NTHREADS];

/* What the page's reader (or writer) saw: shared by every thread of the test's process. */
static struct {
	volatile uint32_t *page;
	volatile uint32_t reads;        /* accesses that succeeded */
	volatile uint32_t bad;          /* a value it should never have seen (0: none) */
	volatile int faulted;           /* its SIGSEGV came */
	volatile int cpu;               /* where it runs */
	volatile uint32_t zeroes;       /* for madvise: reads of 0 after the drop */
	volatile uint32_t news;         /* reads of NEW, the contents of the page mapped again */
	volatile int keep_going;        /* the SIGSEGV handler returns (the load faults again) unless stop */
	volatile int stop;
	uint32_t *reuse;                /* mapped before the page, touched after it is freed */
} w;

static int spawn(int i, int (*fn)(void *), void *arg)
{
	return (int)tlb_clone(THREAD_FLAGS, stacks[i] + STACK_SIZE, &tids[i], 0, &tids[i], fn, arg);
}

/*
 * Bounds for a thread that never ends, not timing tests. A reader that faults ends within
 * milliseconds, a thousand times less than FAULT_END_MS even on a loaded host; a stale TLB
 * keeps it reading for ever, and the lab 8 handout waits that out in two race tests (make
 * test grades the handout), so the bound is no longer than it must be (it was 10 s). Threads
 * that work before they end (parallel faults) get THREAD_END_MS.
 */
#define FAULT_END_MS 3000
#define THREAD_END_MS 10000

static bool joined_within(int i, int ms)
{
	int64_t end = gt_now_ms() + ms;

	while (tids[i] != 0 && gt_now_ms() < end)
		gt_msleep(1);
	return tids[i] == 0;
}

/* Wait up to ms for *v to reach at_least. */
static bool wait_until(volatile uint32_t *v, uint32_t at_least, int ms)
{
	int64_t end = gt_now_ms() + ms;

	while (*v < at_least && gt_now_ms() < end)
		gt_msleep(1);
	return *v >= at_least;
}

/* The reader's SIGSEGV: note it and end this thread (not the process), or let the load fault again. */
static void on_segv(int sig)
{
	(void)sig;
	w.faulted = 1;
	if (w.keep_going && !w.stop)
		return;
	SYS1(__NR_exit_, 0);
}

static void catch_segv(void)
{
	struct k_sigaction sa = { (uint32_t)on_segv, SA_SIGINFO | SA_RESTORER, (uint32_t)tlb_restore_rt, 0 };

	SYS4(__NR_rt_sigaction, SIGSEGV, &sa, 0, SETSIZE);
}

static int reader(void *arg)
{
	gt_pin_to_cpu(w.cpu);
	for (;;) {
		uint32_t v = *w.page;

		if (v != OLD && !w.bad)
			w.bad = v;
		w.reads++;
	}
	return 0;
}

static int writer(void *arg)
{
	gt_pin_to_cpu(w.cpu);
	for (;;) {
		*w.page = OLD + w.reads;
		w.reads++;
	}
	return 0;
}

/* Start fn on CPU 1 on a fresh page holding OLD; this thread stays on CPU 0. Wait until it runs. */
static bool start_on_other_cpu(int (*fn)(void *))
{
	gt_pin_to_cpu(0);
	catch_segv();
	/* First, so that it is not placed in the hole the page leaves (mmap fills gaps top-down). */
	w.reuse = map_anon(0, REUSE_PAGES * PAGE);
	w.page = map_anon(0, PAGE);
	if (!w.page || !w.reuse)
		return false;
	*w.page = OLD;
	w.reads = w.bad = w.news = 0;
	w.faulted = w.stop = 0;
	w.cpu = 1;
	if (spawn(0, fn, 0) < 0)
		return false;
	return wait_until(&w.reads, 1000, 5000);
}

/*
 * Fill fresh pages with REUSED: the frames just freed come back here, if the
 * allocator reuses them (smpix's does, last freed first). Then give them back.
 */
static void reuse_frames(void)
{
	for (int i = 0; i < REUSE_PAGES * PAGE / 4; i++)
		w.reuse[i] = REUSED;
}

static void drop_reuse(void)
{
	SYS2(__NR_munmap_, w.reuse, REUSE_PAGES * PAGE);
}

/* munmap on CPU 0 while a thread reads the page on CPU 1: it faults at once, never sees the frame reused. */
static void t_munmap_while_another_cpu_reads(void)
{
	SKIP_IF(gt_count_cpus() < 2, "one CPU");
	for (int round = 0; round < ROUNDS; round++) {
		CHECK(start_on_other_cpu(reader));
		CHECK(SYS2(__NR_munmap_, w.page, PAGE) == 0);
		reuse_frames();
		CHECK(joined_within(0, FAULT_END_MS));  /* its SIGSEGV ended it; a stale TLB would keep it reading */
		CHECK(w.faulted);
		CHECK(w.bad == 0);              /* it never read the frame's next contents */
		drop_reuse();
	}
}

static int new_watcher(void *arg)
{
	gt_pin_to_cpu(w.cpu);
	for (;;) {
		uint32_t v = *w.page;

		if (v == NEW)
			w.news++;
		else if ((v == OLD && w.news) || (v != OLD && v != 0 && !w.bad))
			w.bad = v;      /* the old frame after the new page, or neither page's contents */
		w.reads++;
	}
	return 0;
}

/*
 * munmap, then a new page at the very address with other contents: the
 * reader sees the new page within moments (after faulting meanwhile), and
 * never the old frame again. Without a shootdown it reads the old frame for ever.
 */
static void t_munmap_and_map_again_at_the_same_address(void)
{
	SKIP_IF(gt_count_cpus() < 2, "one CPU");
	for (int round = 0; round < ROUNDS; round++) {
		uint32_t *again;

		w.keep_going = 1;
		CHECK(start_on_other_cpu(new_watcher));
		CHECK(SYS2(__NR_munmap_, w.page, PAGE) == 0);
		reuse_frames();
		again = map_anon((void *)w.page, PAGE);
		CHECK(again == w.page);
		*again = NEW;
		CHECK(wait_until(&w.news, 100, 2000));
		CHECK(w.bad == 0);
		w.stop = 1;
		SYS2(__NR_munmap_, again, PAGE);
		CHECK(joined_within(0, FAULT_END_MS));
		drop_reuse();
	}
}

/* mprotect(PROT_NONE) on CPU 0 while a thread reads on CPU 1: the reader faults at once. */
static void t_mprotect_none_while_another_cpu_reads(void)
{
	SKIP_IF(gt_count_cpus() < 2, "one CPU");
	for (int round = 0; round < ROUNDS; round++) {
		CHECK(start_on_other_cpu(reader));
		CHECK(SYS3(__NR_mprotect_, w.page, PAGE, PROT_NONE) == 0);
		CHECK(joined_within(0, FAULT_END_MS));
		CHECK(w.faulted);
		CHECK(w.bad == 0);
		CHECK(SYS2(__NR_munmap_, w.page, PAGE) == 0);
		drop_reuse();
	}
}

/* mprotect(PROT_READ) while a thread writes on CPU 1: once it returns, no write lands any more. */
static void t_mprotect_readonly_while_another_cpu_writes(void)
{
	SKIP_IF(gt_count_cpus() < 2, "one CPU");
	for (int round = 0; round < ROUNDS; round++) {
		uint32_t v;

		CHECK(start_on_other_cpu(writer));
		CHECK(SYS3(__NR_mprotect_, w.page, PAGE, PROT_READ) == 0);
		v = *w.page;
		gt_msleep(20);
		CHECK(*w.page == v);            /* nothing written after mprotect returned */
		CHECK(joined_within(0, FAULT_END_MS));
		CHECK(w.faulted);
		CHECK(SYS2(__NR_munmap_, w.page, PAGE) == 0);
		drop_reuse();
	}
}

static int zero_watcher(void *arg)
{
	gt_pin_to_cpu(w.cpu);
	for (;;) {
		uint32_t v = *w.page;

		if (v == 0)
			w.zeroes++;
		else if (v != OLD && !w.bad)
			w.bad = v;
		w.reads++;
	}
	return 0;
}

/* madvise(MADV_DONTNEED) while a thread reads on CPU 1 (glibc does it to a dead thread's stack): it sees zeros at once. */
static void t_madvise_dontneed_while_another_cpu_reads(void)
{
	SKIP_IF(gt_count_cpus() < 2, "one CPU");
	for (int round = 0; round < ROUNDS; round++) {
		CHECK(start_on_other_cpu(zero_watcher));
		w.zeroes = 0;
		CHECK(SYS3(__NR_madvise_, w.page, PAGE, MADV_DONTNEED) == 0);
		reuse_frames();
		CHECK(wait_until(&w.zeroes, 100, 2000));
		CHECK(w.bad == 0);
		CHECK(SYS2(__NR_munmap_, w.page, PAGE) == 0);
		CHECK(joined_within(0, FAULT_END_MS));
		CHECK(w.faulted);
		drop_reuse();
	}
}

/* ---- page faults of several threads at once ----------------------------------------------- */

static volatile uint32_t *big;
static volatile int go, done_count;

/* Thread i touches every page of the big mapping (its own word in each), starting at its own stripe. */
static int toucher(void *arg)
{
	int i = (int)(long)arg, n = gt_count_cpus();

	gt_pin_to_cpu(i % n);
	while (!go)
		;
	for (int k = 0; k < BIG_PAGES; k++) {
		int p = (k + i * BIG_PAGES / NTHREADS) % BIG_PAGES;

		big[p * (PAGE / 4) + i] = (uint32_t)(p << 8 | i);
	}
	__atomic_add_fetch(&done_count, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void t_parallel_faults_on_one_mapping(void)
{
	big = map_anon(0, BIG_PAGES * PAGE);
	CHECK(big != NULL);
	go = done_count = 0;
	for (int i = 0; i < NTHREADS; i++)
		CHECK(spawn(i, toucher, (void *)(long)i) > 0);
	go = 1;
	for (int i = 0; i < NTHREADS; i++)
		CHECK(joined_within(i, THREAD_END_MS));
	CHECK(done_count == NTHREADS);
	for (int p = 0; p < BIG_PAGES; p++)
		for (int i = 0; i < NTHREADS; i++)
			CHECK(big[p * (PAGE / 4) + i] == (uint32_t)(p << 8 | i));
	CHECK(big[PAGE / 4 - 1] == 0);          /* untouched words of a fresh page: zero */
	CHECK(SYS2(__NR_munmap_, big, BIG_PAGES * PAGE) == 0);
}

/* ---- madvise's answers ------------------------------------------------------------------- */

static void t_madvise_errors(void)
{
	uint32_t *p = map_anon(0, 4 * PAGE);

	CHECK(p != NULL);
	CHECK(SYS3(__NR_madvise_, p, PAGE, 12345) == -EINVAL);         /* no such advice */
	CHECK(SYS3(__NR_madvise_, p, PAGE, -1) == -EINVAL);
	CHECK(SYS3(__NR_madvise_, (char *)p + 1, PAGE, MADV_DONTNEED) == -EINVAL);   /* unaligned */
	CHECK(SYS3(__NR_madvise_, p, 0, MADV_DONTNEED) == 0);          /* nothing to do */
	CHECK(SYS3(__NR_madvise_, p, (size_t)-1, MADV_DONTNEED) == -EINVAL);      /* wraps */
	CHECK(SYS3(__NR_madvise_, BAD_UNMAP, PAGE, MADV_DONTNEED) == -ENOMEM);   /* nothing mapped */
	CHECK(SYS3(__NR_madvise_, BAD_UNMAP, PAGE, MADV_NORMAL) == -ENOMEM);
	/* Partly mapped: the mapped part is done, the hole reported. */
	CHECK(SYS2(__NR_munmap_, (char *)p + 2 * PAGE, PAGE) == 0);
	p[0] = 7;
	CHECK(SYS3(__NR_madvise_, p, 4 * PAGE, MADV_DONTNEED) == -ENOMEM);
	CHECK(p[0] == 0);
	for (int a = MADV_NORMAL; a <= MADV_WILLNEED; a++)
		CHECK(SYS3(__NR_madvise_, p, PAGE, a) == 0);
	CHECK(SYS3(__NR_madvise_, p, PAGE, MADV_FREE) == 0);
	CHECK(SYS2(__NR_munmap_, p, 4 * PAGE) == 0);
}

static void t_madvise_dontneed_gives_zeroed_pages_willneed_keeps_them(void)
{
	uint32_t *p = map_anon(0, 2 * PAGE);

	CHECK(p != NULL);
	p[0] = 5;
	p[PAGE / 4] = 6;
	CHECK(SYS3(__NR_madvise_, p, PAGE, MADV_WILLNEED) == 0);
	CHECK(p[0] == 5);
	CHECK(SYS3(__NR_madvise_, p, 2 * PAGE, MADV_DONTNEED) == 0);
	CHECK(p[0] == 0 && p[PAGE / 4] == 0);
	p[0] = 8;                               /* and the page works as before */
	CHECK(p[0] == 8);
	CHECK(SYS2(__NR_munmap_, p, 2 * PAGE) == 0);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	gt_start("tlbtest");
	gt_run("munmap_while_another_cpu_reads", t_munmap_while_another_cpu_reads);
	gt_run("munmap_and_map_again_at_the_same_address", t_munmap_and_map_again_at_the_same_address);
	gt_run("mprotect_none_while_another_cpu_reads", t_mprotect_none_while_another_cpu_reads);
	gt_run("mprotect_readonly_while_another_cpu_writes", t_mprotect_readonly_while_another_cpu_writes);
	gt_run("madvise_dontneed_while_another_cpu_reads", t_madvise_dontneed_while_another_cpu_reads);
	gt_run("parallel_faults_on_one_mapping", t_parallel_faults_on_one_mapping);
	gt_run("madvise_errors", t_madvise_errors);
	gt_run("madvise_dontneed_gives_zeroed_pages_willneed_keeps_them",
	       t_madvise_dontneed_gives_zeroed_pages_willneed_keeps_them);
	gt_finish();
}
