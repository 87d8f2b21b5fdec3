/*
 * ITIMER_REAL: each process may have one real-time timer, set by alarm() or
 * setitimer(), that sends it SIGALRM when it expires and, with an interval,
 * again every interval after that. Armed timers sit on one list; CPU 0's tick
 * (HZ times a second) walks it, so a timer fires up to one tick late, never
 * early. A fork does not inherit the timer; execve keeps it (as POSIX says).
 * ITIMER_VIRTUAL and ITIMER_PROF (CPU-time timers) are not implemented: -EINVAL.
 */
#include "kernel/time/itimer.h"

#include "kernel/list.h"
#include "kernel/mm/uaccess.h"
#include "kernel/signal/signal.h"
#include "kernel/locking/spinlock.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"

#define ITIMER_REAL    0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF    2
#define NSEC_PER_USEC  1000ULL
#define NSEC_PER_SEC   1000000000ULL

/* Protects armed and every task's alarm_at_ns, alarm_interval_ns and alarm_link. Interrupts off. */
static spinlock_t itimer_lock = SPINLOCK_INIT("itimer");
static struct list_head armed = LIST_HEAD_INIT(armed);

/* struct itimerval with i386's 32-bit timevals. */
struct timeval32 {
	int32_t tv_sec;
	int32_t tv_usec;
};

struct itimerval32 {
	struct timeval32 it_interval;
	struct timeval32 it_value;
};

void itimer_tick(void)
{
	struct list_head *pos, *tmp;
	uint64_t now = clock_ns();

	spin_lock(&itimer_lock);
	list_for_each_safe(pos, tmp, &armed) {
		struct task *t = list_entry(pos, struct task, alarm_link);

		if (t->alarm_at_ns > now)
			continue;
		signal_send(t, SIGALRM);
		if (t->alarm_interval_ns) {
			/* The next expiry keeps the period: due times stay on the grid, not drifting late. */
			while (t->alarm_at_ns <= now)
				t->alarm_at_ns += t->alarm_interval_ns;
		} else {
			t->alarm_at_ns = 0;
			list_del(&t->alarm_link);
		}
	}
	spin_unlock(&itimer_lock);
}

void itimer_exit(struct task *t)
{
	uint32_t flags;

	spin_lock_irqsave(&itimer_lock, flags);
	t->alarm_at_ns = 0;
	t->alarm_interval_ns = 0;
	list_del(&t->alarm_link);
	spin_unlock_irqrestore(&itimer_lock, flags);
}

static struct timeval32 ns_to_timeval(uint64_t ns)
{
	struct timeval32 tv;

	tv.tv_sec = (int32_t)(ns / NSEC_PER_SEC);
	tv.tv_usec = (int32_t)(ns % NSEC_PER_SEC / NSEC_PER_USEC);
	return tv;
}

/* Arm (value_ns > 0) or disarm the caller's timer; the old value and interval come back. */
static void itimer_set(uint64_t value_ns, uint64_t interval_ns, uint64_t *old_value, uint64_t *old_interval)
{
	struct task *t = current;
	uint64_t now = clock_ns();
	uint32_t flags;

	spin_lock_irqsave(&itimer_lock, flags);
	*old_value = t->alarm_at_ns > now ? t->alarm_at_ns - now : (t->alarm_at_ns ? 1 : 0);
	*old_interval = t->alarm_interval_ns;
	list_del(&t->alarm_link);
	t->alarm_at_ns = value_ns ? now + value_ns : 0;
	t->alarm_interval_ns = value_ns ? interval_ns : 0;
	if (value_ns)
		list_add_tail(&t->alarm_link, &armed);
	spin_unlock_irqrestore(&itimer_lock, flags);
}

static void itimer_get(uint64_t *value, uint64_t *interval)
{
	struct task *t = current;
	uint64_t now = clock_ns();
	uint32_t flags;

	spin_lock_irqsave(&itimer_lock, flags);
	*value = t->alarm_at_ns > now ? t->alarm_at_ns - now : (t->alarm_at_ns ? 1 : 0);
	*interval = t->alarm_interval_ns;
	spin_unlock_irqrestore(&itimer_lock, flags);
}

static bool timeval_ok(const struct timeval32 *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < 1000000;
}

static uint64_t timeval_ns(const struct timeval32 *tv)
{
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC + (uint64_t)tv->tv_usec * NSEC_PER_USEC;
}

long sys_setitimer(int which, const void *unew, void *uold)
{
	struct itimerval32 nv = { { 0, 0 }, { 0, 0 } }, ov;
	uint64_t old_value, old_interval;

	if (which == ITIMER_VIRTUAL || which == ITIMER_PROF)
		return -EINVAL;         /* CPU-time timers: not implemented (see the top of this file) */
	if (which != ITIMER_REAL)
		return -EINVAL;
	/* Linux takes a NULL new value as "disarm". */
	if (unew && copy_from_user(&nv, unew, sizeof(nv)) < 0)
		return -EFAULT;
	if (!timeval_ok(&nv.it_value) || !timeval_ok(&nv.it_interval))
		return -EINVAL;
	itimer_set(timeval_ns(&nv.it_value), timeval_ns(&nv.it_interval), &old_value, &old_interval);
	if (uold) {
		ov.it_value = ns_to_timeval(old_value);
		ov.it_interval = ns_to_timeval(old_interval);
		if (copy_to_user(uold, &ov, sizeof(ov)) < 0)
			return -EFAULT;
	}
	return 0;
}

long sys_getitimer(int which, void *uval)
{
	struct itimerval32 v;
	uint64_t value, interval;

	if (which != ITIMER_REAL)
		return -EINVAL;
	itimer_get(&value, &interval);
	v.it_value = ns_to_timeval(value);
	v.it_interval = ns_to_timeval(interval);
	return copy_to_user(uval, &v, sizeof(v));
}

/* alarm(s): SIGALRM in s seconds (0: cancel); the seconds left on the old one, rounded as Linux does. */
long sys_alarm(unsigned seconds)
{
	uint64_t old_value, old_interval;
	struct timeval32 tv;
	long left;

	itimer_set((uint64_t)seconds * NSEC_PER_SEC, 0, &old_value, &old_interval);
	tv = ns_to_timeval(old_value);
	left = tv.tv_sec;
	if ((!left && tv.tv_usec) || tv.tv_usec >= 500000)
		left++;
	return left;
}
