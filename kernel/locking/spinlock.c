/* Spinlocks: ticket locks with checks for recursion, lockups and bad unlocks, and their lock_stat. */
#include "kernel/locking/spinlock.h"

#include "kernel/locking/atomic.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/lockup_watch.h"
#include "kernel/cpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/trace/trace.h"
#include "kernel/x86/emulator.h"

/* About 2 seconds at 2 GHz until the TSC is calibrated (then timer.c sets it). */
uint64_t spin_report_cycles = 4000000000ULL;

void spin_lock_init_class(spinlock_t *l, const char *name, struct lock_class *class)
{
	l->owner = l->next = 0;
	l->name = name;
	l->holder_cpu = -1;
	l->file = 0;
	l->line = 0;
	l->class = class;
	l->last_cpu = -1;
	l->stat_at = 0;
}

/* lock_stat's part of taking l: an acquisition (a bounce if l was last taken elsewhere), the hold's start. */
static void stat_acquired(spinlock_t *l)
{
	lock_stat_acquired(l->class, l->last_cpu);
	l->last_cpu = cpu_id();
	l->stat_at = (uint32_t)rdtsc() | 1;
}

/*
 * One instruction on this CPU's own counter (%gs points at struct cpu): a
 * task preempted in the middle of "find my CPU, then increment its counter"
 * could resume on another CPU and increment the wrong one.
 */
static inline __attribute__((always_inline)) void note_held(spinlock_t *l, const char *file, int line)
{
	struct cpu *c = this_cpu();

	l->holder_cpu = c->id;
	l->file = file;
	l->line = line;
	if (c->nlocks_held < MAX_HELD_LOCKS)
		c->locks_held[c->nlocks_held] = l;
	c->nlocks_held++;
}

static inline __attribute__((always_inline)) void note_released(spinlock_t *l)
{
	struct cpu *c = this_cpu();

	/* Locks are usually released in reverse order; find ours anywhere in the list. */
	for (int i = MIN(c->nlocks_held, MAX_HELD_LOCKS) - 1; i >= 0; i--) {
		if (c->locks_held[i] == l) {
			for (int j = i; j + 1 < MIN(c->nlocks_held, MAX_HELD_LOCKS); j++)
				c->locks_held[j] = c->locks_held[j + 1];
			break;
		}
	}
	c->nlocks_held--;
	l->holder_cpu = -1;
}

/*
 * Out of line, so that "break report_lockup" stops at its first line with its
 * arguments (docs/debugging.md). A holder of -1 means the lock is between
 * two holders: the ticket being served belongs to a CPU that has not yet
 * noticed, which on a virtual machine is often a vCPU its host is not
 * running; so the tickets are printed too.
 */
static __attribute__((noinline)) void report_lockup(spinlock_t *l, const char *file, int line, uint16_t ticket)
{
	int holder = READ_ONCE(l->holder_cpu);

	printk("BUG: spinlock lockup suspected on CPU %d: lock %s wanted at %s:%d\n",
	       cpu_id(), l->name, file, line);
	if (holder >= 0)
		printk("     held by CPU %d, taken at %s:%d\n", holder, l->file ? l->file : "?", l->line);
	else
		printk("     held by nobody, being handed to the CPU with ticket %u (ours is %u)\n",
		       READ_ONCE(l->owner), ticket);
	dump_backtrace(read_ebp());
}

/* The slow path, out of line: spin until ticket is served, for the trace and lock_stat. */
static __attribute__((noinline)) void spin_wait(spinlock_t *l, uint16_t ticket, const char *file, int line)
{
	/* Where the holder took it, read before it moves on: lock_stat's contending point. */
	struct lock_point holder = { .file = READ_ONCE(l->file), .line = READ_ONCE(l->line) };
	struct lockup_watch watch;
	uint16_t serving;
	uint64_t start, waited;
	/* What the tick charges as spin (kernel/time/cputime.c); saved, as an interrupt may spin inside our spin. */
	uint8_t was_spinning = this_cpu()->spinning;

	trace_spin_contended(l, l->name, file, line);
	this_cpu()->spinning = SPINNING_LOCK;
	start = rdtsc();
	lockup_watch_begin(&watch, READ_ONCE(l->owner), READ_ONCE(l->holder_cpu));
	while ((serving = READ_ONCE(l->owner)) != ticket) {
		cpu_relax();
		if (lockup_watch_turn(&watch, serving, READ_ONCE(l->holder_cpu)))
			report_lockup(l, file, line, ticket);
	}
	waited = rdtsc() - start;
	this_cpu()->spinning = was_spinning;
	trace_spin_acquired(l, l->name, waited);
	if (__builtin_expect(lock_stat_on, 0))
		lock_stat_contended(l->class, l->last_cpu, waited, &(struct lock_point){ .file = file, .line = line },
				    &holder);
}

/* The lock-order checker's part, before the wait: an inversion is reported before it can hang. */
static __attribute__((noinline)) void spin_lockdep(spinlock_t *l, int subclass, const char *file, int line)
{
	lockdep_acquire(l->class, subclass, l, file, line, 0, 0);
}

/* spin_lock_at() and spin_lock_nested_at(): one body, with subclass a constant in each. */
static inline __attribute__((always_inline)) void spin_lock_sub(spinlock_t *l, int subclass, const char *file,
								int line)
{
	uint16_t ticket;

	preempt_disable();
	if (l->holder_cpu == cpu_id() && spin_is_locked(l)) {
		panic("spinlock recursion: lock %s taken again on CPU %d at %s:%d, "
		      "already held since %s:%d", l->name, cpu_id(), file, line, l->file, l->line);
	}
	if (__builtin_expect(lockdep_on, 0))
		spin_lockdep(l, subclass, file, line);
	ticket = __atomic_fetch_add(&l->next, 1, __ATOMIC_ACQUIRE);
	if (READ_ONCE(l->owner) != ticket)
		spin_wait(l, ticket, file, line);
	/* The acquire above keeps the critical section's loads and stores after this point. */
	barrier();
	if (__builtin_expect(lock_stat_on, 0))
		stat_acquired(l);
	note_held(l, file, line);
}

/*
 * Every lock pair runs through spin_lock_at() and spin_unlock(), kept short
 * (the slow paths above are out of line) and each in one page
 * (kernel/x86/emulator.h).
 */
EMU_WITHIN_ONE_PAGE(512) void spin_lock_at(spinlock_t *l, const char *file, int line)
{
	spin_lock_sub(l, 0, file, line);
}

void spin_lock_nested_at(spinlock_t *l, int subclass, const char *file, int line)
{
	spin_lock_sub(l, subclass, file, line);
}

bool spin_trylock_at(spinlock_t *l, const char *file, int line)
{
	uint32_t old, new;
	uint16_t owner;

	preempt_disable();
	owner = READ_ONCE(l->owner);
	/* Free means owner == next: take ticket `next` only if nobody else has. */
	old = (uint32_t)owner | ((uint32_t)owner << 16);
	new = (uint32_t)owner | ((uint32_t)(uint16_t)(owner + 1) << 16);
	if (!__atomic_compare_exchange_n((uint32_t *)l, &old, new, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		preempt_enable();
		return false;
	}
	if (__builtin_expect(lock_stat_on, 0))
		stat_acquired(l);
	if (__builtin_expect(lockdep_on, 0))
		lockdep_acquire(l->class, 0, l, file, line, 0, LOCKDEP_TRYLOCK);
	note_held(l, file, line);
	return true;
}

EMU_WITHIN_ONE_PAGE(512) void spin_unlock(spinlock_t *l)
{
	if (!spin_is_locked(l) || l->holder_cpu != cpu_id())
		panic("spin_unlock of lock %s not held by CPU %d (holder %d)",
		      l->name, cpu_id(), l->holder_cpu);
	note_released(l);
	if (__builtin_expect(lockdep_on, 0))
		lockdep_release(l);
	if (__builtin_expect(l->stat_at != 0, 0)) {
		lock_stat_held(l->class, (uint32_t)((uint32_t)rdtsc() - l->stat_at));
		l->stat_at = 0;
	}
	/* Release: every store of the critical section is visible before the next owner's turn. */
	__atomic_store_n(&l->owner, (uint16_t)(l->owner + 1), __ATOMIC_RELEASE);
	preempt_enable();
}

bool spin_is_locked(const spinlock_t *l)
{
	return READ_ONCE(l->owner) != READ_ONCE(l->next);
}

bool spin_held_by_me(const spinlock_t *l)
{
	return spin_is_locked(l) && l->holder_cpu == cpu_id();
}

void spin_assert_held(const spinlock_t *l, const char *file, int line)
{
	if (!spin_held_by_me(l))
		panic("%s:%d: lock %s must be held here", file, line, l->name);
}
