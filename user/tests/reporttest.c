/*
 * /bin/reporttest: a kernel report about a system call never crashes the
 * kernel, whatever the caller left in its registers (issue 19).
 *
 * Booted with bkl=syscalls (every system call takes the BKL) at several
 * CPUs: one process holds the BKL through long ioctls on CPU 0 while
 * another, on CPU 1, makes system calls with %ebp = 0xfffff000 (in user
 * mode %ebp is an ordinary register, and a program may leave anything in
 * it). Each of those calls spins for the BKL long enough to print the BKL
 * lockup report, whose backtrace walks the caller's kernel stack. The walk
 * must stop at the system call's trap frame, not follow %ebp out of the
 * kernel stack (it used to fault there, and the panic's own backtrace
 * faulted again). tools/test/cases/30_sched_bkl.py checks the report.
 */
#include "gtest.h"

#include "kernel/uapi/bench.h"

#ifndef __NR_sched_setaffinity
#define __NR_sched_setaffinity 241
#endif
#ifndef __NR_sched_getaffinity
#define __NR_sched_getaffinity 242
#endif

#define JUNK_EBP 0xfffff000u
#define JUNK_CALLS 20
#define HOLDS 60                        /* long ioctls by the holder, each one BKL hold */

static char saved_report_ms[16];


/* getpid() with a frame pointer that points nowhere a kernel may read. */
static long getpid_with_junk_ebp(void)
{
	long r;

	__asm__ volatile("pushl %%ebp\n\t"
			 "movl %2, %%ebp\n\t"
			 "int $0x80\n\t"
			 "popl %%ebp"
			 : "=a"(r)
			 : "a"(__NR_getpid), "i"(JUNK_EBP)
			 : "memory");
	return r;
}

/* One long ioctl (bkl=syscalls: one BKL hold); how long it took in ms, or -1. */
static int long_hold(int fd)
{
	struct bench_work w = { BENCH_MAX_SPINS, 0 };
	int64_t t0 = gt_now_ms();

	if (gt_ioctl(fd, BENCH_UPDATE, &w) != 0)
		return -1;
	return (int)(gt_now_ms() - t0);
}

/* CPU 0: hold the BKL through one long ioctl after another. */
static void hold_the_bkl(int fd)
{
	gt_pin_to_cpu(0);
	for (int i = 0; i < HOLDS; i++)
		if (long_hold(fd) < 0)
			gt_exit(1);
	gt_exit(0);
}

/* Busy in user mode, without a system call (each would take the BKL). */
static void spin_blocks(unsigned n)
{
	for (volatile unsigned i = 0; i < n * 10000u; i++)
		;
}

/* How many spin_blocks() make one ms, roughly. */
static unsigned blocks_per_ms(void)
{
	int64_t t0 = gt_now_ms();
	unsigned n = 0;

	while (gt_now_ms() - t0 < 50)
		spin_blocks(1), n++;
	return n / 50 ? n / 50 : 1;
}

/*
 * CPU 1: system calls with the junk %ebp. Back to back they would slip in
 * between two of the holder's ioctls; spaced out by a varying pause in user
 * mode, they come at any point of a hold, and wait for the rest of it.
 */
static void call_with_junk_ebp(int hold_ms)
{
	unsigned per_ms;
	long pid;

	gt_pin_to_cpu(1);
	per_ms = blocks_per_ms();
	pid = SYS0(__NR_getpid);
	printf("reporttest: pid %ld makes system calls with %%ebp = %08x\n", pid, JUNK_EBP);
	for (int i = 0; i < JUNK_CALLS; i++) {
		spin_blocks(per_ms * (unsigned)hold_ms * (unsigned)(1 + i * 7 % 10) / 10);
		if (getpid_with_junk_ebp() != pid)
			gt_exit(1);
	}
	gt_exit(0);
}

static void t_lockup_report_of_junk_ebp_call_ends_cleanly(void)
{
	int holder, caller, hold_ms, fd = gt_open("/dev/bench_own", O_RDWR);
	char report_ms[16];

	CHECK(gt_count_cpus() >= 2 && fd >= 0);
	/*
	 * A caller that finds the BKL taken waits for what is left of one hold:
	 * call that a lockup when it is over 3/5 of a hold, so that many of the
	 * calls are reported. (Not much lower: the threshold is every
	 * spinlock's too.)
	 */
	CHECK((hold_ms = long_hold(fd)) > 0);
	snprintf(report_ms, sizeof(report_ms), "%d", hold_ms * 3 / 5 > 5 ? hold_ms * 3 / 5 : 5);
	printf("reporttest: one hold takes %d ms; a wait of %s ms is reported\n", hold_ms, report_ms);
	CHECK(gt_read_file("/proc/sys/kernel/bkl_spin_report_ms", saved_report_ms, sizeof(saved_report_ms)) > 0);
	CHECK(gt_write_file("/proc/sys/kernel/bkl_spin_report_ms", report_ms) > 0);
	if ((holder = gt_fork()) == 0)
		hold_the_bkl(fd);
	if ((caller = gt_fork()) == 0)
		call_with_junk_ebp(hold_ms);
	CHECK(holder > 0 && caller > 0);
	CHECK(gt_wait(caller) == 0);    /* every call returned, with the right answer */
	CHECK(gt_wait(holder) == 0);
	CHECK(gt_write_file("/proc/sys/kernel/bkl_spin_report_ms", saved_report_ms) > 0);
	gt_close(fd);
}

int main(int argc, char **argv)
{
	gt_start("reporttest");
	gt_run("lockup-report-of-junk-ebp-call-ends-cleanly", t_lockup_report_of_junk_ebp_call_ends_cleanly);
	gt_finish();
}
