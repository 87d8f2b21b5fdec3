/*
 * Reader-writer semaphores. Any number of readers, or one writer; whoever
 * cannot have it sleeps on one wait queue. smpix's use is Linux 2.6's
 * mmap_sem (kernel/mm/mm.h): page faults of many threads read the region
 * list at once, mmap and munmap change it alone.
 *
 * Fairness, the one thing to get right: a reader arriving while a writer
 * WAITS also waits. Otherwise a steady stream of overlapping readers (four
 * threads faulting in a loop) keeps `readers` above zero for ever and munmap
 * never runs. The price is the rule in rwsem.h: a reader must not take it
 * twice, since a writer that came in between waits for the first hold and
 * the second waits for the writer. The lock-order checker reports a second
 * hold as recursive locking, for that reason (readers and writers are one
 * class to it).
 */
#include "kernel/locking/rwsem.h"

#include "kernel/locking/atomic.h"
#include "kernel/locking/lockdep.h"
#include "kernel/panic.h"
#include "kernel/sched/task.h"

void rwsem_init_class(struct rw_semaphore *s, const char *name, struct lock_class *class)
{
	spin_lock_init(&s->lock, name);
	wait_queue_init(&s->waiters, name);
	s->readers = 0;
	s->writer = NULL;
	s->writers_waiting = 0;
	s->name = name;
	s->class = class;
}

/* Take it for reading if no writer holds it or waits for it. */
static bool read_trylock(struct rw_semaphore *s)
{
	uint32_t flags;
	bool got;

	spin_lock_irqsave(&s->lock, flags);
	got = !s->writer && s->writers_waiting == 0;
	if (got)
		s->readers++;
	spin_unlock_irqrestore(&s->lock, flags);
	return got;
}

/* Take it for writing if nobody holds it; a waiting writer (waiting) stops counting as one. */
static bool write_trylock(struct rw_semaphore *s, bool waiting)
{
	uint32_t flags;
	bool got;

	spin_lock_irqsave(&s->lock, flags);
	got = !s->writer && s->readers == 0;
	if (got) {
		s->writer = current;
		if (waiting)
			s->writers_waiting--;
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return got;
}

static void check_acquire(struct rw_semaphore *s, uintptr_t ip, unsigned flags)
{
	if (__builtin_expect(lockdep_on, 0))
		lockdep_acquire(s->class, 0, s, NULL, 0, ip, flags);
}

void down_read(struct rw_semaphore *s)
{
	might_sleep();
	if (s->writer == current)
		panic("rwsem %s: task %d reads what it holds for writing", s->name, current->pid);
	/* Checked before the wait, so that an inversion is reported before it hangs. */
	check_acquire(s, (uintptr_t)__builtin_return_address(0), 0);
	if (read_trylock(s))
		return;
	wait_event(s->waiters, read_trylock(s));
}

bool down_read_trylock(struct rw_semaphore *s)
{
	if (!read_trylock(s))
		return false;
	check_acquire(s, (uintptr_t)__builtin_return_address(0), LOCKDEP_TRYLOCK);
	return true;
}

void up_read(struct rw_semaphore *s)
{
	uint32_t flags;
	bool last;

	if (__builtin_expect(lockdep_on, 0))
		lockdep_release(s);
	spin_lock_irqsave(&s->lock, flags);
	if (s->readers <= 0)
		panic("rwsem %s: up_read without a reader", s->name);
	last = --s->readers == 0;
	spin_unlock_irqrestore(&s->lock, flags);
	/* The last reader out lets a waiting writer in. */
	if (last)
		wake_up(&s->waiters);
}

void down_write(struct rw_semaphore *s)
{
	uint32_t flags;

	might_sleep();
	if (s->writer == current)
		panic("rwsem %s: task %d takes it twice", s->name, current->pid);
	check_acquire(s, (uintptr_t)__builtin_return_address(0), 0);
	if (write_trylock(s, false))
		return;
	/* From now on new readers wait behind us (read_trylock): we cannot be starved. */
	spin_lock_irqsave(&s->lock, flags);
	s->writers_waiting++;
	spin_unlock_irqrestore(&s->lock, flags);
	wait_event(s->waiters, write_trylock(s, true));
}

bool down_write_trylock(struct rw_semaphore *s)
{
	if (!write_trylock(s, false))
		return false;
	check_acquire(s, (uintptr_t)__builtin_return_address(0), LOCKDEP_TRYLOCK);
	return true;
}

void up_write(struct rw_semaphore *s)
{
	uint32_t flags;

	if (__builtin_expect(lockdep_on, 0))
		lockdep_release(s);
	spin_lock_irqsave(&s->lock, flags);
	if (s->writer != current)
		panic("rwsem %s: up_write by task %d, which does not hold it", s->name, current->pid);
	s->writer = NULL;
	spin_unlock_irqrestore(&s->lock, flags);
	/* All of them: every waiting reader may go at once (or the next writer, if one waits). */
	wake_up(&s->waiters);
}

bool rwsem_is_write_locked_by_me(const struct rw_semaphore *s)
{
	return READ_ONCE(s->writer) == current;
}

bool rwsem_is_locked(const struct rw_semaphore *s)
{
	return READ_ONCE(s->writer) || READ_ONCE(s->readers) > 0;
}
