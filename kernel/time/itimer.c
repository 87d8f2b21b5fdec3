/*
 * Interval timers, one set per process (its thread group), as Linux 2.6.12+:
 *  - ITIMER_REAL (alarm(), setitimer): wall-clock time; SIGALRM. Armed
 *    timers sit on one list; CPU 0's tick (HZ times a second) walks it, so a
 *    timer fires up to one tick late, never early.
 *  - ITIMER_VIRTUAL: the process's user time; SIGVTALRM.
 *  - ITIMER_PROF: its user and system time; SIGPROF.
 * The CPU-time timers count the time of every thread of the process, so
 * with two busy threads on two CPUs they run down twice as fast as the wall
 * clock: each tick of each CPU charges the thread it interrupted with the
 * CPU time that thread has run since its last tick (exact, as
 * CLOCK_PROCESS_CPUTIME_ID counts it), and a tick that finds it in user
 * mode makes that time virtual time too (as the ticks split user and
 * system time, kernel/time/cputime.c). Every signal goes to the process:
 * any thread that does not block it takes it.
 * A fork does not inherit the timers (the child has a new, zeroed group);
 * execve keeps them (as POSIX says); they are disarmed when the process
 * ends. With an interval, a timer reloads and stays on its grid.
 */
#include "kernel/time/itimer.h"

#include "kernel/lib/string.h"
#include "kernel/list.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/thread.h"
#include "kernel/signal/signal.h"
#include "kernel/locking/spinlock.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"

#define ITIMER_REAL    0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF    2
#define NSEC_PER_USEC  1000ULL
#define NSEC_PER_SEC   1000000000ULL

/*
 * Protects every group's struct itimers, the armed list, and (for the real
 * timer's signal) which task is a group's leader. Interrupts off: the
 * ticks take it.
 */
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

/* ---- the ticks ------------------------------------------------------------------ */

void itimer_tick(void)
{
	struct list_head *pos, *tmp;
	uint64_t now = clock_ns();

	spin_lock(&itimer_lock);
	list_for_each_safe(pos, tmp, &armed) {
		struct thread_group *g = list_entry(pos, struct thread_group, itimers.real_link);
		struct itimers *it = &g->itimers;

		if (it->real_at_ns > now)
			continue;
		/* The leader may be a zombie whose threads live on: the signal goes to one of them. */
		signal_send(g->leader, SIGALRM);
		if (it->real_interval_ns) {
			/* The next expiry keeps the period: due times stay on the grid, not drifting late. */
			while (it->real_at_ns <= now)
				it->real_at_ns += it->real_interval_ns;
		} else {
			it->real_at_ns = 0;
			list_del(&it->real_link);
		}
	}
	spin_unlock(&itimer_lock);
}

/* Take charge_ns off a CPU-time timer; true if it ran out (then it is reloaded or off). */
static bool cpu_timer_charge(struct itimer_cpu *ct, uint64_t charge_ns)
{
	uint64_t overrun;

	if (!ct->left_ns)
		return false;
	if (ct->left_ns > charge_ns) {
		ct->left_ns -= charge_ns;
		return false;
	}
	overrun = charge_ns - ct->left_ns;
	ct->left_ns = ct->interval_ns ? ct->interval_ns - overrun % ct->interval_ns : 0;
	return true;
}

static bool cpu_timers_armed(const struct itimers *it)
{
	return it->cpu[0].left_ns || it->cpu[1].left_ns;
}

/*
 * The CPU time t has run since its last tick under these timers: exact (its
 * runtime_ns, as CLOCK_PROCESS_CPUTIME_ID counts), so a tick the host
 * machine delayed loses nothing. A thread's first tick after the timers
 * were set only starts its count. itimer_lock held.
 */
static uint64_t cpu_time_since_last_tick(struct task *t, struct itimers *it)
{
	struct task_cputime now;
	uint64_t delta;

	cputime_of_task(t, &now);
	delta = t->itimer_gen == it->gen ? now.runtime_ns - t->itimer_seen_ns : 0;
	t->itimer_gen = it->gen;
	t->itimer_seen_ns = now.runtime_ns;
	return delta;
}

void itimer_cpu_tick(struct task *t, bool user)
{
	struct thread_group *g = t->group;
	bool vt = false, prof;
	uint64_t ran;

	/* The common case, looked at without the lock: no CPU-time timer. */
	if (!g || !READ_ONCE(g->itimers.cpu_armed))
		return;
	spin_lock(&itimer_lock);
	ran = cpu_time_since_last_tick(t, &g->itimers);
	/* As the ticks split time into user and system, a user tick makes the slice virtual time. */
	if (user)
		vt = cpu_timer_charge(&g->itimers.cpu[0], ran);
	prof = cpu_timer_charge(&g->itimers.cpu[1], ran);
	g->itimers.cpu_armed = cpu_timers_armed(&g->itimers);
	spin_unlock(&itimer_lock);
	/* t runs on this CPU: it cannot be freed under us. To the process, not to t alone. */
	if (vt)
		signal_send(t, SIGVTALRM);
	if (prof)
		signal_send(t, SIGPROF);
}

void itimer_group_exit(struct thread_group *g)
{
	uint32_t flags;

	spin_lock_irqsave(&itimer_lock, flags);
	if (g->itimers.real_at_ns)
		list_del(&g->itimers.real_link);
	memset(&g->itimers, 0, sizeof(g->itimers));
	spin_unlock_irqrestore(&itimer_lock, flags);
}

void itimer_set_leader(struct thread_group *g, struct task *t)
{
	uint32_t flags;

	spin_lock_irqsave(&itimer_lock, flags);
	g->leader = t;
	spin_unlock_irqrestore(&itimer_lock, flags);
}

/* ---- setting and reading ------------------------------------------------------------ */

static struct timeval32 ns_to_timeval(uint64_t ns)
{
	struct timeval32 tv;

	tv.tv_sec = (int32_t)(ns / NSEC_PER_SEC);
	tv.tv_usec = (int32_t)(ns % NSEC_PER_SEC / NSEC_PER_USEC);
	return tv;
}

/* What is left of the real timer: a due one not yet fired reads as 1 ns, not as off. */
static uint64_t real_left(const struct itimers *it, uint64_t now)
{
	if (!it->real_at_ns)
		return 0;
	return it->real_at_ns > now ? it->real_at_ns - now : 1;
}

/* Read timer which of the caller's process: value left and interval. itimer_lock held. */
static void itimer_read(const struct itimers *it, int which, uint64_t now, uint64_t *value, uint64_t *interval)
{
	if (which == ITIMER_REAL) {
		*value = real_left(it, now);
		*interval = it->real_interval_ns;
	} else {
		*value = it->cpu[which - 1].left_ns;
		*interval = it->cpu[which - 1].interval_ns;
	}
}

/*
 * Arm (value_ns > 0) or disarm timer which of the caller's process; the old
 * value and interval come back.
 */
static void itimer_set(int which, uint64_t value_ns, uint64_t interval_ns, uint64_t *old_value,
		       uint64_t *old_interval)
{
	struct itimers *it = &current->group->itimers;
	uint64_t now = clock_ns();
	uint32_t flags;

	if (!value_ns)
		interval_ns = 0;
	spin_lock_irqsave(&itimer_lock, flags);
	itimer_read(it, which, now, old_value, old_interval);
	if (which == ITIMER_REAL) {
		if (it->real_at_ns)
			list_del(&it->real_link);
		it->real_at_ns = value_ns ? now + value_ns : 0;
		it->real_interval_ns = interval_ns;
		if (value_ns)
			list_add_tail(&it->real_link, &armed);
	} else {
		/* A tick more, as Linux's set_cpu_itimer() gives: only ticks look at it (getitimer shows it). */
		it->cpu[which - 1].left_ns = value_ns ? value_ns + NSEC_PER_SEC / HZ : 0;
		it->cpu[which - 1].interval_ns = interval_ns;
		it->cpu_armed = cpu_timers_armed(it);
		/* Every thread's count starts again (the caller's now): time run before does not count. */
		it->gen++;
		cpu_time_since_last_tick(current, it);
	}
	spin_unlock_irqrestore(&itimer_lock, flags);
}

static void itimer_get(int which, uint64_t *value, uint64_t *interval)
{
	uint32_t flags;

	spin_lock_irqsave(&itimer_lock, flags);
	itimer_read(&current->group->itimers, which, clock_ns(), value, interval);
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

static bool which_ok(int which)
{
	return which == ITIMER_REAL || which == ITIMER_VIRTUAL || which == ITIMER_PROF;
}

long sys_setitimer(int which, const void *unew, void *uold)
{
	struct itimerval32 nv = { { 0, 0 }, { 0, 0 } }, ov;
	uint64_t old_value, old_interval;

	if (!which_ok(which))
		return -EINVAL;
	/* Linux takes a NULL new value as "disarm". */
	if (unew && copy_from_user(&nv, unew, sizeof(nv)) < 0)
		return -EFAULT;
	if (!timeval_ok(&nv.it_value) || !timeval_ok(&nv.it_interval))
		return -EINVAL;
	itimer_set(which, timeval_ns(&nv.it_value), timeval_ns(&nv.it_interval), &old_value, &old_interval);
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

	if (!which_ok(which))
		return -EINVAL;
	itimer_get(which, &value, &interval);
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

	itimer_set(ITIMER_REAL, (uint64_t)seconds * NSEC_PER_SEC, 0, &old_value, &old_interval);
	tv = ns_to_timeval(old_value);
	left = tv.tv_sec;
	if ((!left && tv.tv_usec) || tv.tv_usec >= 500000)
		left++;
	return left;
}
