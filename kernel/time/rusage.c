/*
 * times(), getrusage() and wait4's rusage: a process's CPU time, split into
 * user and system time by kernel/time/cputime.c, in Linux i386's structures.
 *
 * Whose time: a process is a thread group, so RUSAGE_SELF and times() add
 * up every thread, the ones that have exited too; RUSAGE_THREAD is the
 * caller alone. RUSAGE_CHILDREN is the children the group has waited for,
 * with the children they had waited for, as Linux counts them: a child
 * nobody waited for is in nobody's books. The fields smpix does not count
 * (page faults, block I/O, signals) are 0.
 */
#include "kernel/time/rusage.h"

#include "kernel/locking/spinlock.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/proc.h"
#include "kernel/process/thread.h"
#include "kernel/sched/task.h"
#include "kernel/syscall/handlers.h"
#include "kernel/time/cputime.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"

#define RUSAGE_SELF     0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD   1

#define NS_PER_TICK (1000000000ULL / USER_HZ)

static void set_timeval(int32_t *sec, int32_t *usec, uint64_t ns)
{
	*sec = (int32_t)(ns / 1000000000ULL);
	*usec = (int32_t)(ns % 1000000000ULL / 1000);
}

static void fill_rusage_split(struct rusage32 *ru, const struct cputime_split *split)
{
	const struct cputime_split s = *split;

	*ru = (struct rusage32){ 0 };
	set_timeval(&ru->utime_sec, &ru->utime_usec, s.user_ns);
	set_timeval(&ru->stime_sec, &ru->stime_usec, s.system_ns);
}

static void fill_rusage(struct rusage32 *ru, const struct task_cputime *t)
{
	struct cputime_split s;

	cputime_split(t, &s);
	fill_rusage_split(ru, &s);
}

void rusage_of_zombie(const struct task *c, struct rusage32 *ru)
{
	struct task_cputime all;

	assert_spin_held(&proc_lock);
	cputime_of_group(c, &all);
	cputime_add(&all, &c->group->children_time);
	fill_rusage(ru, &all);
}

uint64_t cputime_clock_ns(bool thread)
{
	struct task_cputime t;

	if (thread) {
		cputime_of_task(current, &t);
	} else {
		spin_lock(&proc_lock);
		cputime_of_group(current, &t);
		spin_unlock(&proc_lock);
	}
	return t.runtime_ns;
}

long sys_getrusage(int who, void *uru)
{
	struct task_cputime t;
	struct cputime_split s;
	struct rusage32 ru;

	switch (who) {
	case RUSAGE_THREAD:
		cputime_of_task(current, &t);
		cputime_split(&t, &s);
		break;
	case RUSAGE_SELF:
	case RUSAGE_CHILDREN:
		spin_lock(&proc_lock);
		if (who == RUSAGE_SELF) {
			cputime_of_group(current, &t);
			cputime_split_monotonic(&t, &current->group->shown_self, &s);
		} else {
			cputime_of_children(current, &t);
			cputime_split_monotonic(&t, &current->group->shown_children, &s);
		}
		spin_unlock(&proc_lock);
		break;
	default:
		return -EINVAL;
	}
	fill_rusage_split(&ru, &s);
	if (copy_to_user(uru, &ru, sizeof(ru)) < 0)
		return -EFAULT;
	return 0;
}

/* times(): the group's and its reaped children's user and system time, in clock ticks; returns ticks since boot. */
long sys_times(void *ubuf)
{
	struct task_cputime self, children;
	struct cputime_split s, c;

	spin_lock(&proc_lock);
	cputime_of_group(current, &self);
	cputime_of_children(current, &children);
	cputime_split_monotonic(&self, &current->group->shown_self, &s);
	cputime_split_monotonic(&children, &current->group->shown_children, &c);
	spin_unlock(&proc_lock);
	int32_t tms[4] = { (int32_t)(s.user_ns / NS_PER_TICK), (int32_t)(s.system_ns / NS_PER_TICK),
			   (int32_t)(c.user_ns / NS_PER_TICK), (int32_t)(c.system_ns / NS_PER_TICK) };

	if (ubuf && copy_to_user(ubuf, tms, sizeof(tms)) < 0)
		return -EFAULT;
	return (long)(clock_ns() / NS_PER_TICK);
}
