/* Sleeping mutexes: a spinlock guards the owner field; waiters sleep on a wait queue. */
#include "kernel/locking/mutex.h"

#include "kernel/locking/atomic.h"
#include "kernel/panic.h"
#include "kernel/sched/task.h"

void mutex_init(struct mutex *m, const char *name)
{
	spin_lock_init(&m->lock, name);
	wait_queue_init(&m->waiters, name);
	m->owner = NULL;
	m->name = name;
}

bool mutex_trylock(struct mutex *m)
{
	uint32_t flags;
	bool got = false;

	spin_lock_irqsave(&m->lock, flags);
	if (!m->owner) {
		m->owner = current;
		got = true;
	}
	spin_unlock_irqrestore(&m->lock, flags);
	return got;
}

void mutex_lock(struct mutex *m)
{
	might_sleep();
	if (m->owner == current)
		panic("mutex %s: task %d takes it twice", m->name, current->pid);
	if (mutex_trylock(m))
		return;
	/* Said where a debugger can see it: who waits for whom (`smpix deadlock`). */
	current->blocked_on = m;
	/* Re-check after every wakeup: another task may have taken it first. */
	wait_event(m->waiters, mutex_trylock(m));
	current->blocked_on = NULL;
}

int mutex_lock_interruptible(struct mutex *m)
{
	int r;

	might_sleep();
	if (m->owner == current)
		panic("mutex %s: task %d takes it twice", m->name, current->pid);
	if (mutex_trylock(m))
		return 0;
	current->blocked_on = m;
	r = wait_event_interruptible(m->waiters, mutex_trylock(m));
	current->blocked_on = NULL;
	/*
	 * Leaving without the mutex: an unlock may have woken us, and only us
	 * (wake_up_one), just as the signal came. If the mutex is free, pass
	 * the wakeup on, or the next waiter sleeps by a free mutex for ever.
	 */
	if (r < 0 && !READ_ONCE(m->owner))
		wake_up_one(&m->waiters);
	return r;
}

void mutex_unlock(struct mutex *m)
{
	uint32_t flags;

	spin_lock_irqsave(&m->lock, flags);
	if (m->owner != current)
		panic("mutex %s: unlocked by task %d, which does not own it", m->name, current->pid);
	m->owner = NULL;
	spin_unlock_irqrestore(&m->lock, flags);
	/* One waiter, the oldest still asleep: only one can take the mutex (no thundering herd). */
	wake_up_one(&m->waiters);
}

bool mutex_is_mine(const struct mutex *m)
{
	return m->owner == current;
}
