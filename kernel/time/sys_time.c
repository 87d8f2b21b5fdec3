/*
 * The time system calls: clock_gettime, clock_getres, clock_nanosleep,
 * gettimeofday, time and times, in Linux i386's 32-bit time structures.
 *
 * Every clock counts from the TSC (clock_ns(), kernel/time/timer.c). The wall
 * clock, CLOCK_REALTIME, is that plus the time the CMOS clock gave at boot
 * (clock_realtime_ns(), set by drivers/char/rtc.c). smpix never suspends, so
 * BOOTTIME equals MONOTONIC, and the TSC is never adjusted, so RAW does too;
 * the COARSE clocks are the same clocks. The *_time64 variants that newer
 * glibc tries first answer -ENOSYS (kernel/syscall/table.c), and glibc falls
 * back to these. times() and getrusage() are in kernel/time/rusage.c.
 */
#include "kernel/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/time/rusage.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/unistd.h"

#define NSEC_PER_SEC  1000000000ULL
#define NSEC_PER_USEC 1000ULL
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID  3
#define TIMER_ABSTIME            1

struct timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

struct timeval32 {
	int32_t tv_sec;
	int32_t tv_usec;
};

/* The wall clock as an unsigned count (smpix's clock never runs before 1970). */
static uint64_t realtime_ns(void)
{
	int64_t ns = clock_realtime_ns();

	return ns < 0 ? 0 : (uint64_t)ns;
}

static struct timespec32 ns_to_timespec(uint64_t ns)
{
	struct timespec32 ts;

	ts.tv_sec = (int32_t)(ns / NSEC_PER_SEC);       /* __udivdi3 from kernel/lib/div64.c */
	ts.tv_nsec = (int32_t)(ns % NSEC_PER_SEC);
	return ts;
}

/* The time on clock in ns, or -EINVAL for a clock smpix does not have. */
static int clock_read(int clock, uint64_t *ns)
{
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
		*ns = realtime_ns();
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		*ns = clock_ns();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = cputime_clock_ns(clock == CLOCK_THREAD_CPUTIME_ID);
		return 0;
	default:
		return -EINVAL;
	}
}

long sys_clock_gettime(int clock, void *uts)
{
	struct timespec32 ts;
	uint64_t ns;
	int r = clock_read(clock, &ns);

	if (r < 0)
		return r;
	ts = ns_to_timespec(ns);
	return copy_to_user(uts, &ts, sizeof(ts));
}

/* Every clock reads the TSC: 1 ns resolution (the coarse ones tick with the timer). */
long sys_clock_getres(int clock, void *uts)
{
	struct timespec32 ts = { 0, 1 };
	uint64_t ns;
	int r = clock_read(clock, &ns);

	if (r < 0)
		return r;
	if (clock == CLOCK_REALTIME_COARSE || clock == CLOCK_MONOTONIC_COARSE)
		ts.tv_nsec = (int32_t)(NSEC_PER_SEC / HZ);
	return uts ? copy_to_user(uts, &ts, sizeof(ts)) : 0;
}

static long sleep_interrupted(uint64_t deadline, uint32_t urem);

long sys_clock_nanosleep(int clock, int flags, const void *ureq, void *urem)
{
	struct timespec32 ts;
	uint64_t now, want, deadline;
	int r;

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME)
		return -EINVAL;
	if (copy_from_user(&ts, ureq, sizeof(ts)) < 0)
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (int32_t)NSEC_PER_SEC)
		return -EINVAL;
	want = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	clock_read(clock, &now);
	if (flags & TIMER_ABSTIME)
		want = want > now ? want - now : 0;
	deadline = clock_ns() + want;
	r = sched_sleep_ns(want);
	if (r == -EINTR && (flags & TIMER_ABSTIME))
		return -ERESTARTNOHAND;         /* the same absolute time again, unless a handler ran */
	if (r == -EINTR)
		return sleep_interrupted(deadline, (uint32_t)urem);
	return r;
}

/*
 * A relative sleep cut short by a signal: the time left goes to *urem, and
 * the sleep is to go on until deadline if no handler runs (a stop and
 * SIGCONT, as Linux: a stopped `sleep 30` still sleeps 30 s in all).
 */
static long sleep_interrupted(uint64_t deadline, uint32_t urem)
{
	struct timespec32 ts;
	uint64_t now = clock_ns();

	if (urem) {
		ts = ns_to_timespec(deadline > now ? deadline - now : 0);
		if (copy_to_user((void *)urem, &ts, sizeof(ts)) < 0)
			return -EFAULT;
	}
	current->sig.restart.armed = true;
	current->sig.restart.deadline = deadline;
	current->sig.restart.urem = urem;
	return -ERESTART_RESTARTBLOCK;
}

/* restart_syscall(): the rest of the interrupted sleep; -EINTR if there is none (Linux's do_no_restart_syscall). */
long sys_restart_syscall(void)
{
	struct task *t = current;
	uint64_t deadline = t->sig.restart.deadline, now = clock_ns();
	int r;

	if (!t->sig.restart.armed)
		return -EINTR;
	t->sig.restart.armed = false;
	r = sched_sleep_ns(deadline > now ? deadline - now : 0);
	if (r == -EINTR)
		return sleep_interrupted(deadline, t->sig.restart.urem);
	return r;
}

long sys_gettimeofday(void *utv, void *utz)
{
	uint64_t ns = realtime_ns();
	struct timeval32 tv = { (int32_t)(ns / NSEC_PER_SEC), (int32_t)(ns % NSEC_PER_SEC / NSEC_PER_USEC) };
	static const int32_t utc[2] = { 0, 0 };         /* struct timezone: UTC, no DST */

	if (utv && copy_to_user(utv, &tv, sizeof(tv)) < 0)
		return -EFAULT;
	if (utz && copy_to_user(utz, utc, sizeof(utc)) < 0)
		return -EFAULT;
	return 0;
}

long sys_time(void *utloc)
{
	int32_t now = (int32_t)(realtime_ns() / NSEC_PER_SEC);

	if (utloc && put_user_u32(utloc, (uint32_t)now) < 0)
		return -EFAULT;
	return now;
}
