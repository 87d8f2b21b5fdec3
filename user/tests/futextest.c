/*
 * /bin/futextest: futex(2), futex_time64(2), set_robust_list(2) and
 * get_robust_list(2) through raw system calls, with Linux i386's numbers,
 * flags and errno answers (kernel/futex/). The same binary runs on smpix
 * (tools/test/cases/46_futex.py boots it as init) and on the Linux reference,
 * which proves that what it expects is what Linux does.
 *
 * A process alone shows most of it: the errnos, the order in which they are
 * found, timeouts, -EAGAIN, WAKE_OP's arithmetic on the word, CMP_REQUEUE's
 * compare, restarts after a signal. A parent and its child share a futex
 * over a MAP_SHARED page (keyed by the page's frame, kernel/futex/key.c).
 * Threads of our own (raw clone(CLONE_THREAD), no C library) show the rest:
 * a wake that finds its waiter, requeue, WAKE_OP's comparison deciding who
 * wakes, CLONE_CHILD_CLEARTID's wake (how pthread_join() waits), and the
 * robust list's FUTEX_OWNER_DIED at a thread's death. Where clone refuses
 * CLONE_THREAD (smpix before threads) those are a SKIP.
 */
#define GT_ISOLATED     /* each test in a child of its own (gtest.h) */
#include "gtest.h"

#include "kernel/uapi/futex.h"
#include "kernel/uapi/mman.h"

#ifndef __NR_futex
#define __NR_futex 240
#endif
#ifndef __NR_set_robust_list
#define __NR_set_robust_list 311
#endif
#ifndef __NR_get_robust_list
#define __NR_get_robust_list 312
#endif
#ifndef __NR_futex_time64
#define __NR_futex_time64 422
#endif
#define __NR_mprotect_ 125
#define __NR_mmap2_ 192
#define __NR_munmap_ 91
#define __NR_clock_gettime_ 265
#define __NR_setitimer_ 104
#define __NR_rt_sigaction_ 174
#define CLOCK_REALTIME_ 0
#define CLOCK_MONOTONIC_ 1
#define ITIMER_REAL 0
#define PAGE 4096
#define NSEC 1000000000

struct ts32 {
	int32_t sec, nsec;
};
struct ts64 {
	int64_t sec, nsec;
};
struct itimerval32 {
	int32_t interval_sec, interval_usec, value_sec, value_usec;
};

static long futex(volatile void *uaddr, int op, uint32_t val, const void *timeout, volatile void *uaddr2,
		  uint32_t val3)
{
	return gt_syscall6(__NR_futex, (long)uaddr, op, (long)val, (long)timeout, (long)uaddr2, (long)val3);
}

/* REQUEUE, CMP_REQUEUE and WAKE_OP take a count, not a timeout, in the fourth argument. */
static long futex2(volatile void *uaddr, int op, uint32_t val, uint32_t val2, volatile void *uaddr2,
		   uint32_t val3)
{
	return gt_syscall6(__NR_futex, (long)uaddr, op, (long)val, (long)val2, (long)uaddr2, (long)val3);
}

static int64_t now_ns(int clock)
{
	struct ts32 t;

	SYS2(__NR_clock_gettime_, clock, &t);
	return (int64_t)t.sec * NSEC + t.nsec;
}

static struct ts32 ts_at(int64_t ns)
{
	struct ts32 t = { (int32_t)(ns / NSEC), (int32_t)(ns % NSEC) };

	return t;
}

static char *map_page(int prot, int flags)
{
	long r = gt_syscall6(__NR_mmap2_, 0, PAGE, prot, flags, -1, 0);

	return r < 0 && r > -4096 ? NULL : (char *)r;
}

#define PRIV(op) ((op) | FUTEX_PRIVATE_FLAG)
static volatile uint32_t word, word2;

/* ---- addresses ---------------------------------------------------------------------- */

static void t_bad_addresses(void)
{
	struct ts32 t = { 0, 0 };

	/* Not 4-aligned: -EINVAL, private or shared, before the memory is looked at. */
	CHECK(futex((char *)&word + 1, PRIV(FUTEX_WAIT), 0, 0, 0, 0) == -EINVAL);
	CHECK(futex((char *)&word + 2, FUTEX_WAKE, 1, 0, 0, 0) == -EINVAL);
	CHECK(futex((char *)BAD_UNMAP + 1, FUTEX_WAKE, 1, 0, 0, 0) == -EINVAL);
	/* The kernel's half: -EFAULT. */
	CHECK(futex(BAD_KERNEL, PRIV(FUTEX_WAIT), 0, 0, 0, 0) == -EFAULT);
	/* (An i386 program on a 64-bit kernel owns that address too: a private wake there finds nobody.) */
	CHECK(futex(BAD_KERNEL, PRIV(FUTEX_WAKE), 1, 0, 0, 0) == (gt_on_64bit_kernel() ? 0 : -EFAULT));
	/*
	 * Unmapped: a wait reads the word (-EFAULT); a private wake does not look
	 * at memory at all (0 woken), a shared one must find the page (-EFAULT).
	 */
	CHECK(futex(BAD_UNMAP, PRIV(FUTEX_WAIT), 0, 0, 0, 0) == -EFAULT);
	CHECK(futex(BAD_UNMAP, FUTEX_WAIT, 0, 0, 0, 0) == -EFAULT);
	CHECK(futex(BAD_UNMAP, PRIV(FUTEX_WAKE), 1, 0, 0, 0) == 0);
	CHECK(futex(BAD_NULL, PRIV(FUTEX_WAKE), 1, 0, 0, 0) == 0);
	CHECK(futex(BAD_UNMAP, FUTEX_WAKE, 1, 0, 0, 0) == -EFAULT);
	/* The timeout is read first: a bad one is -EFAULT even for a bad futex address. */
	CHECK(futex((char *)&word + 1, PRIV(FUTEX_WAIT), 0, BAD_UNMAP, 0, 0) == -EFAULT);
	CHECK(futex(&word, PRIV(FUTEX_WAIT), 0, BAD_KERNEL, 0, 0) == -EFAULT);
	/* ...but only by the waits: for the others that argument is a count. */
	CHECK(futex(&word, PRIV(FUTEX_WAKE), 1, BAD_UNMAP, 0, 0) == 0);
	CHECK(futex(BAD_UNMAP, PRIV(FUTEX_WAIT), 0, &t, 0, 0) == -EFAULT);
}

static void t_bad_ops(void)
{
	struct ts32 t = { 0, 0 };

	CHECK(futex(&word, FUTEX_FD, 0, 0, 0, 0) == -ENOSYS);           /* gone since 2.6.26 */
	CHECK(futex(&word, 14, 0, 0, 0, 0) == -ENOSYS);
	CHECK(futex(&word, 127, 0, 0, 0, 0) == -ENOSYS);
	CHECK(futex(&word, 0x200 | FUTEX_WAKE, 1, 0, 0, 0) == -ENOSYS); /* an unknown flag is part of cmd */
	/* CLOCK_REALTIME is for WAIT_BITSET (FUTEX_WAIT lost it again in Linux 5.13). */
	CHECK(futex(&word, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, 0, 0, 0) == -ENOSYS);
	CHECK(futex(&word, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, &t, 0, 0) == -ENOSYS);
	CHECK(futex(&word, FUTEX_WAKE_BITSET | FUTEX_CLOCK_REALTIME, 1, 0, 0, 1) == -ENOSYS);
	CHECK(futex(&word, FUTEX_REQUEUE | FUTEX_CLOCK_REALTIME, 1, 0, &word2, 0) == -ENOSYS);
	/* ...but a bad timeout is still found before the bad flag. */
	CHECK(futex(&word, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, BAD_UNMAP, 0, 0) == -EFAULT);
	/* An empty bitset matches nobody: -EINVAL for both sides. */
	CHECK(futex(&word, PRIV(FUTEX_WAIT_BITSET), 0, 0, 0, 0) == -EINVAL);
	CHECK(futex(&word, PRIV(FUTEX_WAKE_BITSET), 1, 0, 0, 0) == -EINVAL);
	CHECK(futex(&word, PRIV(FUTEX_WAKE_BITSET), 1, 0, 0, 0x10) == 0);
}

/* ---- FUTEX_WAIT's answers ---------------------------------------------------------------- */

static void t_wait_value_and_timeouts(void)
{
	struct ts32 t = { 0, 50 * 1000 * 1000 }, zero = { 0, 0 }, abs;
	struct ts64 t64 = { 0, 30 * 1000 * 1000 }, bad64 = { 0, NSEC };
	int64_t t0;

	word = 5;
	/* The word is not what the caller saw: -EAGAIN at once, timeout or not. */
	CHECK(futex(&word, PRIV(FUTEX_WAIT), 4, 0, 0, 0) == -EAGAIN);
	CHECK(futex(&word, FUTEX_WAIT, 6, &zero, 0, 0) == -EAGAIN);
	/* Relative: 50 ms. */
	t0 = gt_now_ms();
	CHECK(futex(&word, PRIV(FUTEX_WAIT), 5, &t, 0, 0) == -ETIMEDOUT);
	CHECK(gt_now_ms() - t0 >= 50 && gt_now_ms() - t0 < 3000);
	CHECK(futex(&word, FUTEX_WAIT, 5, &zero, 0, 0) == -ETIMEDOUT);
	/* A timespec out of range: -EINVAL. */
	t.nsec = NSEC;
	CHECK(futex(&word, PRIV(FUTEX_WAIT), 5, &t, 0, 0) == -EINVAL);
	t.nsec = -1;
	CHECK(futex(&word, PRIV(FUTEX_WAIT), 5, &t, 0, 0) == -EINVAL);
	t.sec = -1;
	t.nsec = 0;
	CHECK(futex(&word, PRIV(FUTEX_WAIT), 5, &t, 0, 0) == -EINVAL);
	/* WAIT_BITSET's timeout is absolute, on CLOCK_MONOTONIC ... */
	t0 = gt_now_ms();
	abs = ts_at(now_ns(CLOCK_MONOTONIC_) + 50 * 1000 * 1000);
	CHECK(futex(&word, PRIV(FUTEX_WAIT_BITSET), 5, &abs, 0, FUTEX_BITSET_MATCH_ANY) == -ETIMEDOUT);
	CHECK(gt_now_ms() - t0 >= 50 && gt_now_ms() - t0 < 3000);
	CHECK(futex(&word, PRIV(FUTEX_WAIT_BITSET), 5, &zero, 0, 1) == -ETIMEDOUT);     /* long past */
	/* ... or CLOCK_REALTIME with the flag. */
	t0 = gt_now_ms();
	abs = ts_at(now_ns(CLOCK_REALTIME_) + 50 * 1000 * 1000);
	CHECK(futex(&word, PRIV(FUTEX_WAIT_BITSET) | FUTEX_CLOCK_REALTIME, 5, &abs, 0, 1) == -ETIMEDOUT);
	CHECK(gt_now_ms() - t0 >= 50 && gt_now_ms() - t0 < 3000);
	CHECK(futex(&word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 5, &zero, 0, 1) == -ETIMEDOUT);
	/* futex_time64: the same with a 64-bit timespec. */
	t0 = gt_now_ms();
	CHECK(gt_syscall6(__NR_futex_time64, (long)&word, PRIV(FUTEX_WAIT), 5, (long)&t64, 0, 0) == -ETIMEDOUT);
	CHECK(gt_now_ms() - t0 >= 30 && gt_now_ms() - t0 < 3000);
	CHECK(gt_syscall6(__NR_futex_time64, (long)&word, PRIV(FUTEX_WAIT), 5, (long)&bad64, 0, 0) == -EINVAL);
	CHECK(gt_syscall6(__NR_futex_time64, (long)&word, PRIV(FUTEX_WAIT), 4, (long)&t64, 0, 0) == -EAGAIN);
	/* Nobody waits: a wake wakes nobody. */
	CHECK(futex(&word, PRIV(FUTEX_WAKE), 1, 0, 0, 0) == 0);
	CHECK(futex(&word, FUTEX_WAKE, 0x7fffffff, 0, 0, 0) == 0);
}

/* ---- WAKE_OP: the word's arithmetic ----------------------------------------------------- */

static void t_wake_op_arithmetic(void)
{
	char *ro;

	word2 = 5;
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, &word2, FUTEX_OP(FUTEX_OP_ADD, 3, FUTEX_OP_CMP_EQ, 5)) == 0);
	CHECK(word2 == 8);
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, &word2, FUTEX_OP(FUTEX_OP_OR, 3, FUTEX_OP_CMP_NE, 0)) == 0);
	CHECK(word2 == 11);
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, &word2, FUTEX_OP(FUTEX_OP_ANDN, 2, FUTEX_OP_CMP_LT, 0)) == 0);
	CHECK(word2 == 9);
	/* OPARG_SHIFT: the operand is 1 << 4. */
	CHECK(futex2(&word, FUTEX_WAKE_OP, 1, 1, &word2,
		     FUTEX_OP(FUTEX_OP_XOR | FUTEX_OP_OPARG_SHIFT, 4, FUTEX_OP_CMP_GE, 0)) == 0);
	CHECK(word2 == 25);
	/* 12-bit operands are signed: SET -2; ADD -1. */
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, &word2, FUTEX_OP(FUTEX_OP_SET, -2, FUTEX_OP_CMP_GT, 0)) == 0);
	CHECK(word2 == 0xfffffffeu);
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, &word2, FUTEX_OP(FUTEX_OP_ADD, -1, FUTEX_OP_CMP_LE, 0)) == 0);
	CHECK(word2 == 0xfffffffdu);
	/* An unknown operation changes nothing; an unknown comparison is found after the change. */
	word2 = 1;
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, &word2, FUTEX_OP(5, 1, FUTEX_OP_CMP_EQ, 0)) == -ENOSYS);
	CHECK(word2 == 1);
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, &word2, FUTEX_OP(FUTEX_OP_ADD, 1, 6, 0)) == -ENOSYS);
	CHECK(word2 == 2);
	/* The second word must be writable, aligned and ours. */
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, (char *)&word2 + 1, 0) == -EINVAL);
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, BAD_KERNEL, 0) == -EFAULT);
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, BAD_UNMAP, 0) == -EFAULT);
	ro = map_page(PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS);
	CHECK(ro != NULL);
	CHECK(futex2(&word, PRIV(FUTEX_WAKE_OP), 1, 1, ro, FUTEX_OP(FUTEX_OP_SET, 1, 0, 0)) == -EFAULT);
	CHECK(*(volatile uint32_t *)ro == 0);
}

/* ---- REQUEUE and CMP_REQUEUE --------------------------------------------------------------- */

static void t_requeue_errors(void)
{
	word = 3;
	/* CMP_REQUEUE compares the first word with val3: -EAGAIN if it moved on. */
	CHECK(futex2(&word, PRIV(FUTEX_CMP_REQUEUE), 1, 1, &word2, 4) == -EAGAIN);
	CHECK(futex2(&word, PRIV(FUTEX_CMP_REQUEUE), 1, 1, &word2, 3) == 0);
	CHECK(futex2(&word, FUTEX_CMP_REQUEUE, 1, 0x7fffffff, &word2, 3) == 0);
	CHECK(futex2(&word, PRIV(FUTEX_REQUEUE), 1, 1, &word2, 12345) == 0);   /* REQUEUE ignores val3 */
	/* Negative counts: -EINVAL (Linux 4.12 on). */
	CHECK(futex2(&word, PRIV(FUTEX_REQUEUE), -1, 1, &word2, 0) == -EINVAL);
	CHECK(futex2(&word, PRIV(FUTEX_CMP_REQUEUE), 1, -1, &word2, 3) == -EINVAL);
	/* Either address bad. */
	CHECK(futex2(&word, PRIV(FUTEX_REQUEUE), 1, 1, (char *)&word2 + 2, 0) == -EINVAL);
	CHECK(futex2(&word, PRIV(FUTEX_REQUEUE), 1, 1, BAD_KERNEL, 0) == (gt_on_64bit_kernel() ? 0 : -EFAULT));
	CHECK(futex2(BAD_UNMAP, PRIV(FUTEX_CMP_REQUEUE), 1, 1, &word2, 0) == -EFAULT);
	CHECK(futex2(BAD_UNMAP, PRIV(FUTEX_REQUEUE), 1, 1, &word2, 0) == 0);
}

/* ---- the robust list's registration ------------------------------------------------------ */

static void t_robust_list_calls(void)
{
	static struct robust_list_head_32 head;
	uint32_t h = 1, len = 1;

	head.next = (uint32_t)&head;
	CHECK(SYS2(__NR_set_robust_list, &head, 0) == -EINVAL);
	CHECK(SYS2(__NR_set_robust_list, &head, 24) == -EINVAL);
	CHECK(SYS2(__NR_set_robust_list, &head, 11) == -EINVAL);
	CHECK(SYS2(__NR_set_robust_list, &head, 12) == 0);
	CHECK(SYS3(__NR_get_robust_list, 0, &h, &len) == 0);
	CHECK(h == (uint32_t)&head && len == 12);
	/* The head is never read when set: any address will do. */
	CHECK(SYS2(__NR_set_robust_list, BAD_UNMAP, 12) == 0);
	CHECK(SYS3(__NR_get_robust_list, SYS0(__NR_getpid), &h, &len) == 0);
	CHECK(h == (uint32_t)BAD_UNMAP);
	CHECK(SYS3(__NR_get_robust_list, NO_PID, &h, &len) == -ESRCH);
	CHECK(SYS3(__NR_get_robust_list, 0, BAD_KERNEL, &len) == -EFAULT);
	CHECK(SYS3(__NR_get_robust_list, 0, &h, BAD_UNMAP) == -EFAULT);
}

/* ---- a signal during FUTEX_WAIT ---------------------------------------------------------- */

/* glibc's __restore_rt, in effect: the return address of an SA_RESTORER handler. */
void futex_restore_rt(void);
__asm__(".text\nfutex_restore_rt: movl $173, %eax\n int $0x80\n");

static volatile int hits;

static void on_alarm(int sig)
{
	(void)sig;
	hits++;
	word = 1;       /* a restarted FUTEX_WAIT finds the word changed */
}

static int handle_alarm(uint32_t flags)
{
	struct k_sigaction sa = { (uint32_t)on_alarm, flags | SA_RESTORER | SA_SIGINFO,
				  (uint32_t)futex_restore_rt, 0 };

	return (int)SYS4(__NR_rt_sigaction_, SIGALRM, &sa, 0, 8);
}

static int alarm_in_ms(int ms)
{
	struct itimerval32 it = { 0, 0, ms / 1000, (ms % 1000) * 1000 };

	return (int)SYS3(__NR_setitimer_, ITIMER_REAL, &it, 0);
}

static void t_signal_during_wait(void)
{
	struct ts32 five = { 5, 0 };
	int64_t t0;

	/* No SA_RESTART: -EINTR, with a timeout or without. */
	CHECK(handle_alarm(0) == 0);
	word = 0;
	CHECK(alarm_in_ms(50) == 0);
	CHECK(futex(&word, PRIV(FUTEX_WAIT), 0, 0, 0, 0) == -EINTR);
	CHECK(hits == 1);
	word = 0;
	t0 = gt_now_ms();
	CHECK(alarm_in_ms(50) == 0);
	CHECK(futex(&word, FUTEX_WAIT, 0, &five, 0, 0) == -EINTR);
	CHECK(hits == 2 && gt_now_ms() - t0 < 4000);
	/*
	 * SA_RESTART: a wait without a timeout starts again, and finds the word
	 * the handler changed (-EAGAIN); one with a timeout is not restarted
	 * after a handler (Linux's restart block): -EINTR.
	 */
	CHECK(handle_alarm(SA_RESTART) == 0);
	word = 0;
	CHECK(alarm_in_ms(50) == 0);
	CHECK(futex(&word, PRIV(FUTEX_WAIT), 0, 0, 0, 0) == -EAGAIN);
	CHECK(hits == 3);
	word = 0;
	CHECK(alarm_in_ms(50) == 0);
	CHECK(futex(&word, PRIV(FUTEX_WAIT_BITSET), 0, 0, 0, 1) == -EAGAIN);
	CHECK(hits == 4);
	word = 0;
	CHECK(alarm_in_ms(50) == 0);
	CHECK(futex(&word, PRIV(FUTEX_WAIT), 0, &five, 0, 0) == -EINTR);
	CHECK(hits == 5);
}

/* ---- a shared futex between a parent and its child -------------------------------------- */

static void t_shared_across_fork(void)
{
	struct ts32 five = { 5, 0 };
	volatile uint32_t *w;
	char *page = map_page(PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS);
	int pid, st;

	CHECK(page != NULL);
	w = (volatile uint32_t *)page;
	*w = 0;
	pid = gt_fork();
	if (pid == 0) {
		/* The child: let the parent fall asleep, change the word, wake it. */
		gt_msleep(100);
		*w = 1;
		gt_exit((int)futex(w, FUTEX_WAKE, 1, 0, 0, 0));
	}
	CHECK(futex(w, FUTEX_WAIT, 0, &five, 0, 0) == 0);
	CHECK(*w == 1);
	st = gt_wait(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	/* A private futex is the process's own: the child's private wake finds nobody. */
	*w = 0;
	pid = gt_fork();
	if (pid == 0) {
		gt_msleep(100);
		gt_exit((int)futex(w, PRIV(FUTEX_WAKE), 1, 0, 0, 0));
	}
	five.sec = 0;
	five.nsec = 400 * 1000 * 1000;
	CHECK(futex(w, PRIV(FUTEX_WAIT), 0, &five, 0, 0) == -ETIMEDOUT);
	st = gt_wait(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* ---- with threads ------------------------------------------------------------------------ */

#define T_CLONE_VM             0x00000100
#define T_CLONE_FS             0x00000200
#define T_CLONE_FILES          0x00000400
#define T_CLONE_SIGHAND        0x00000800
#define T_CLONE_THREAD         0x00010000
#define T_CLONE_SYSVSEM        0x00040000
#define T_CLONE_PARENT_SETTID  0x00100000
#define T_CLONE_CHILD_CLEARTID 0x00200000
#define THREAD_FLAGS (T_CLONE_VM | T_CLONE_FS | T_CLONE_FILES | T_CLONE_SIGHAND | T_CLONE_THREAD | \
		      T_CLONE_SYSVSEM | T_CLONE_PARENT_SETTID | T_CLONE_CHILD_CLEARTID)
#define __NR_clone_ 120
#define __NR_gettid_ 224
#define STACK_SIZE 16384

struct thread {
	volatile int tid;               /* set by the kernel at clone, cleared (and woken) at exit */
	uint32_t stack[STACK_SIZE / 4];
};

/*
 * A thread running fn(arg), then exit(0) (one thread, not the group). fn and
 * arg go on the new stack first: the child returns from int $0x80 on it and
 * must not touch this function's frame, which belongs to the parent. The tid
 * is the clone's answer; -errno if the kernel refuses threads.
 */
static long thread_start(struct thread *t, void (*fn)(void *), void *arg)
{
	uint32_t *sp = &t->stack[STACK_SIZE / 4];
	long r;

	*--sp = (uint32_t)arg;
	*--sp = (uint32_t)fn;
	__asm__ volatile("int $0x80\n\t"
			 "testl %%eax, %%eax\n\t"
			 "jnz 1f\n\t"
			 "popl %%eax\n\t"             /* the child: fn, with arg on top of the stack */
			 "call *%%eax\n\t"
			 "movl $1, %%eax\n\t"         /* exit(0): this thread only */
			 "xorl %%ebx, %%ebx\n\t"
			 "int $0x80\n"
			 "1:"
			 : "=a"(r)
			 : "a"(__NR_clone_), "b"(THREAD_FLAGS), "c"(sp), "d"(&t->tid), "S"(0), "D"(&t->tid)
			 : "memory");
	return r;
}

/* pthread_join(): wait for the kernel to clear the tid, on the shared futex it wakes. */
static bool thread_join(struct thread *t)
{
	struct ts32 five = { 5, 0 };
	int64_t t0 = gt_now_ms();
	int tid;

	while ((tid = t->tid) != 0) {
		futex(&t->tid, FUTEX_WAIT, (uint32_t)tid, &five, 0, 0);
		if (gt_now_ms() - t0 > 10000)
			return false;
	}
	return true;
}

/* How many wait on the futex at w (holding v) right now: a requeue onto itself wakes nobody and counts. */
static long waiters(volatile uint32_t *w, uint32_t v)
{
	return futex2(w, PRIV(FUTEX_CMP_REQUEUE), 0, 0x7fffffff, w, v);
}

/* Until n wait at w: false after five seconds. */
static bool await_waiters(volatile uint32_t *w, uint32_t v, long n)
{
	for (int i = 0; i < 500; i++) {
		if (waiters(w, v) == n)
			return true;
		gt_msleep(10);
	}
	return false;
}

static struct thread threads[3];
static volatile long results[3];
static volatile uint32_t fa, fb;

/* A thread: one private FUTEX_WAIT on fa with a 5 s bound; its answer in results[i]. */
static void wait_on_fa(void *arg)
{
	struct ts32 five = { 5, 0 };
	int i = (int)(uintptr_t)arg;

	results[i] = futex(&fa, PRIV(FUTEX_WAIT), 0, &five, 0, 0);
}

static void wait_on_fb(void *arg)
{
	struct ts32 five = { 5, 0 };
	int i = (int)(uintptr_t)arg;

	results[i] = futex(&fb, PRIV(FUTEX_WAIT), fb, &five, 0, 0);
}

static long start_or_skip(int i, void (*fn)(void *))
{
	results[i] = 1;
	return thread_start(&threads[i], fn, (void *)(uintptr_t)i);
}

static void t_threads_wake_and_join(void)
{
	long r;

	fa = 0;
	r = start_or_skip(0, wait_on_fa);
	SKIP_IF(r < 0 && gt_on_smpix(), "clone(CLONE_THREAD) refused: %ld", r);
	CHECK(r > 0);
	CHECK(await_waiters(&fa, 0, 1));
	fa = 1;
	CHECK(futex(&fa, PRIV(FUTEX_WAKE), 1, 0, 0, 0) == 1);
	CHECK(thread_join(&threads[0]));
	CHECK(results[0] == 0);
	/* A shared wake does not find a private waiter: the same address, another futex. */
	fa = 0;
	CHECK(start_or_skip(0, wait_on_fa) > 0);
	CHECK(await_waiters(&fa, 0, 1));
	CHECK(futex(&fa, FUTEX_WAKE, 1, 0, 0, 0) == 0);
	CHECK(futex(&fa, PRIV(FUTEX_WAKE), 1, 0, 0, 0) == 1);
	CHECK(thread_join(&threads[0]));
	CHECK(results[0] == 0);
}

static void t_threads_requeue(void)
{
	long r;

	fa = 0;
	fb = 0;
	r = start_or_skip(0, wait_on_fa);
	SKIP_IF(r < 0 && gt_on_smpix(), "clone(CLONE_THREAD) refused: %ld", r);
	CHECK(r > 0);
	CHECK(start_or_skip(1, wait_on_fa) > 0);
	CHECK(start_or_skip(2, wait_on_fa) > 0);
	CHECK(await_waiters(&fa, 0, 3));
	CHECK(futex2(&fa, PRIV(FUTEX_CMP_REQUEUE), 1, 1, &fb, 1) == -EAGAIN);
	/* One woken, one moved to fb, one left on fa. */
	CHECK(futex2(&fa, PRIV(FUTEX_CMP_REQUEUE), 1, 1, &fb, 0) == 2);
	CHECK(waiters(&fa, 0) == 1 && waiters(&fb, 0) == 1);
	/* The one moved wakes by fb, though it waited on fa. */
	CHECK(futex(&fb, PRIV(FUTEX_WAKE), 5, 0, 0, 0) == 1);
	CHECK(futex(&fa, PRIV(FUTEX_WAKE), 5, 0, 0, 0) == 1);
	for (int i = 0; i < 3; i++) {
		CHECK(thread_join(&threads[i]));
		CHECK(results[i] == 0);
	}
}

static void t_threads_wake_op_compare(void)
{
	long r;

	fa = 0;
	fb = 7;
	r = start_or_skip(0, wait_on_fb);
	SKIP_IF(r < 0 && gt_on_smpix(), "clone(CLONE_THREAD) refused: %ld", r);
	CHECK(r > 0);
	CHECK(await_waiters(&fb, 7, 1));
	/* 7 > 7 is false: fb becomes 8, its waiter sleeps on. */
	CHECK(futex2(&fa, PRIV(FUTEX_WAKE_OP), 1, 1, &fb, FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_GT, 7)) == 0);
	CHECK(fb == 8 && waiters(&fb, 8) == 1);
	/* 8 == 8: fb becomes 0, and its waiter is woken. */
	CHECK(futex2(&fa, PRIV(FUTEX_WAKE_OP), 1, 1, &fb, FUTEX_OP(FUTEX_OP_SET, 0, FUTEX_OP_CMP_EQ, 8)) == 1);
	CHECK(thread_join(&threads[0]));
	CHECK(results[0] == 0 && fb == 0);
}

/* A lock of the robust list: the list link, then the futex word (futex_offset 4). */
struct robust_lock {
	uint32_t next;
	volatile uint32_t word;
};
static struct robust_list_head_32 rhead;
static struct robust_lock rlock;
static volatile int rlock_taken;

/* A thread that registers its robust list, takes the lock, and exits holding it. */
static void die_holding_lock(void *arg)
{
	(void)arg;
	rhead.next = (uint32_t)&rlock;
	rhead.futex_offset = 4;
	rhead.list_op_pending = 0;
	rlock.next = (uint32_t)&rhead;
	rlock.word = (uint32_t)SYS0(__NR_gettid_);
	SYS2(__NR_set_robust_list, &rhead, sizeof(rhead));
	rlock_taken = 1;
	/* Until the main thread marks the lock contended and sleeps on it. */
	while (!(rlock.word & FUTEX_WAITERS))
		gt_msleep(5);
	gt_msleep(50);
}

static void t_threads_robust_owner_died(void)
{
	struct ts32 five = { 5, 0 };
	uint32_t tid;
	long r;

	rlock_taken = 0;
	r = thread_start(&threads[0], die_holding_lock, 0);
	SKIP_IF(r < 0 && gt_on_smpix(), "clone(CLONE_THREAD) refused: %ld", r);
	CHECK(r > 0);
	while (!rlock_taken)
		gt_msleep(5);
	tid = rlock.word;
	CHECK(tid == (uint32_t)r);
	/* Contended: FUTEX_WAITERS set, and we sleep on it (shared, as glibc's robust mutexes). */
	CHECK(__sync_bool_compare_and_swap(&rlock.word, tid, tid | FUTEX_WAITERS));
	/* (-EAGAIN if it died before we slept: the word had changed already.) */
	r = futex(&rlock.word, FUTEX_WAIT, tid | FUTEX_WAITERS, &five, 0, 0);
	CHECK(r == 0 || r == -EAGAIN);
	CHECK(rlock.word == (FUTEX_OWNER_DIED | FUTEX_WAITERS));
	CHECK(thread_join(&threads[0]));
}

int main(void)
{
	gt_start("futextest");
	gt_run("bad_addresses", t_bad_addresses);
	gt_run("bad_ops", t_bad_ops);
	gt_run("wait_value_and_timeouts", t_wait_value_and_timeouts);
	gt_run("wake_op_arithmetic", t_wake_op_arithmetic);
	gt_run("requeue_errors", t_requeue_errors);
	gt_run("robust_list_calls", t_robust_list_calls);
	gt_run("signal_during_wait", t_signal_during_wait);
	gt_run("shared_across_fork", t_shared_across_fork);
	gt_run("threads_wake_and_join", t_threads_wake_and_join);
	gt_run("threads_requeue", t_threads_requeue);
	gt_run("threads_wake_op_compare", t_threads_wake_op_compare);
	gt_run("threads_robust_owner_died", t_threads_robust_owner_died);
	gt_finish();
}
