/* Sleeping mutexes: a spinlock guards the owner field; waiters sleep on a wait queue. */
#include "kernel/locking/mutex.h"

#include "kernel/locking/atomic.h"
#include "kernel/locking/lockdep.h"
#include "kernel/panic.h"
#include "kernel/sched/task.h"
#include "kernel/x86/x86.h"

void mutex_init_class(struct mutex *m, const char *name, struct lock_class *class)
{
	spin_lock_init(&m->lock, name);
	wait_queue_init(&m->waiters, name);
	m->owner = NULL;
	m->name = name;
	m->class = class;
	m->last_cpu = -1;
	m->acquired_at = 0;
	m->acquired_ip = 0;
}

/* Take m if it is free; ip: the caller, for lock_stat. */
static bool trylock_at(struct mutex *m, uintptr_t ip)
{
	uint32_t flags;
	bool got = false;

	spin_lock_irqsave(&m->lock, flags);
	if (!m->owner) {
		m->owner = current;
		got = true;
		if (__builtin_expect(lock_stat_on, 0)) {
			lock_stat_acquired(m->class, m->last_cpu);
			m->last_cpu = cpu_id();
			m->acquired_at = rdtsc();
		}
		m->acquired_ip = ip;
	}
	spin_unlock_irqrestore(&m->lock, flags);
	return got;
}

bool mutex_trylock(struct mutex *m)
{
	uintptr_t ip = (uintptr_t)__builtin_return_address(0);

	if (!trylock_at(m, ip))
		return false;
	if (__builtin_expect(lockdep_on, 0))
		lockdep_acquire(m->class, 0, m, NULL, 0, ip, LOCKDEP_TRYLOCK);
	return true;
}

/* The slow path of both lock calls, for lock_stat: the wait began at start, from ip, while holder_ip held it. */
static void note_contention(struct mutex *m, uint64_t start, uintptr_t ip, uintptr_t holder_ip)
{
	struct lock_point waiter = { .ip = ip }, holder = { .ip = holder_ip };

	lock_stat_contended(m->class, -1, rdtsc() - start, &waiter, &holder);
}

/* mutex_lock() and mutex_lock_nested(): ip is their caller. */
static void lock_sub(struct mutex *m, int subclass, uintptr_t ip)
{
	uintptr_t holder_ip;
	uint64_t start;

	might_sleep();
	if (m->owner == current)
		panic("mutex %s: task %d takes it twice", m->name, current->pid);
	/* Checked before the wait, so that an inversion is reported before it hangs. */
	if (__builtin_expect(lockdep_on, 0))
		lockdep_acquire(m->class, subclass, m, NULL, 0, ip, 0);
	if (trylock_at(m, ip))
		return;
	holder_ip = READ_ONCE(m->acquired_ip);
	start = rdtsc();
	/* Said where a debugger can see it: who waits for whom (`smpix deadlock`). */
	current->blocked_on = m;
	/* Re-check after every wakeup: another task may have taken it first. */
	wait_event(m->waiters, trylock_at(m, ip));
	current->blocked_on = NULL;
	if (__builtin_expect(lock_stat_on, 0))
		note_contention(m, start, ip, holder_ip);
}

void mutex_lock(struct mutex *m)
{
	lock_sub(m, 0, (uintptr_t)__builtin_return_address(0));
}

void mutex_lock_nested(struct mutex *m, int subclass)
{
	lock_sub(m, subclass, (uintptr_t)__builtin_return_address(0));
}

int mutex_lock_interruptible(struct mutex *m)
{
	uintptr_t ip = (uintptr_t)__builtin_return_address(0), holder_ip;
	uint64_t start;
	int r;

	might_sleep();
	if (m->owner == current)
		panic("mutex %s: task %d takes it twice", m->name, current->pid);
	if (__builtin_expect(lockdep_on, 0))
		lockdep_acquire(m->class, 0, m, NULL, 0, ip, 0);
	if (trylock_at(m, ip))
		return 0;
	holder_ip = READ_ONCE(m->acquired_ip);
	start = rdtsc();
	current->blocked_on = m;
	r = wait_event_interruptible(m->waiters, trylock_at(m, ip));
	current->blocked_on = NULL;
	if (r == 0 && __builtin_expect(lock_stat_on, 0))
		note_contention(m, start, ip, holder_ip);
	/*
	 * Leaving without the mutex: an unlock may have woken us, and only us
	 * (wake_up_one), just as the signal came. If the mutex is free, pass
	 * the wakeup on, or the next waiter sleeps by a free mutex for ever.
	 */
	if (r < 0 && !READ_ONCE(m->owner))
		wake_up_one(&m->waiters);
	if (r < 0 && __builtin_expect(lockdep_on, 0))
		lockdep_release(m);     /* it gave up waiting: it holds nothing */
	return r;
}

void mutex_unlock(struct mutex *m)
{
	uint32_t flags;

	if (__builtin_expect(lockdep_on, 0))
		lockdep_release(m);
	spin_lock_irqsave(&m->lock, flags);
	if (m->owner != current)
		panic("mutex %s: unlocked by task %d, which does not own it", m->name, current->pid);
	if (m->acquired_at) {
		lock_stat_held(m->class, rdtsc() - m->acquired_at);
		m->acquired_at = 0;
	}
	m->owner = NULL;
	spin_unlock_irqrestore(&m->lock, flags);
	/* One waiter, the oldest still asleep: only one can take the mutex (no thundering herd). */
	wake_up_one(&m->waiters);
}

bool mutex_is_mine(const struct mutex *m)
{
	return m->owner == current;
}
