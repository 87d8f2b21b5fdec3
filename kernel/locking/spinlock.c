/* Spinlocks: ticket locks with checks for recursion, lockups and bad unlocks. */
#include "kernel/locking/spinlock.h"

#include "kernel/locking/atomic.h"
#include "kernel/cpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/trace/trace.h"

/* About 2 seconds at 2 GHz until the TSC is calibrated (then timer.c sets it). */
uint64_t spin_report_cycles = 4000000000ULL;

void spin_lock_init(spinlock_t *l, const char *name)
{
	l->owner = l->next = 0;
	l->name = name;
	l->holder_cpu = -1;
	l->file = 0;
	l->line = 0;
}

/*
 * One instruction on this CPU's own counter (%gs points at struct cpu): a
 * task preempted in the middle of "find my CPU, then increment its counter"
 * could resume on another CPU and increment the wrong one.
 */
static void note_held(spinlock_t *l, const char *file, int line)
{
	struct cpu *c = this_cpu();

	l->holder_cpu = c->id;
	l->file = file;
	l->line = line;
	if (c->nlocks_held < MAX_HELD_LOCKS)
		c->locks_held[c->nlocks_held] = l;
	c->nlocks_held++;
}

static void note_released(spinlock_t *l)
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

static void report_lockup(spinlock_t *l, const char *file, int line)
{
	printk("BUG: spinlock lockup suspected on CPU %d: lock %s wanted at %s:%d\n",
	       cpu_id(), l->name, file, line);
	printk("     held by CPU %d, taken at %s:%d\n", l->holder_cpu,
	       l->file ? l->file : "?", l->line);
	dump_backtrace(read_ebp());
}

void spin_lock_at(spinlock_t *l, const char *file, int line)
{
	uint16_t ticket;
	uint64_t start;
	bool reported = false;

	preempt_disable();
	if (l->holder_cpu == cpu_id() && spin_is_locked(l)) {
		panic("spinlock recursion: lock %s taken again on CPU %d at %s:%d, "
		      "already held since %s:%d", l->name, cpu_id(), file, line, l->file, l->line);
	}
	ticket = __atomic_fetch_add(&l->next, 1, __ATOMIC_ACQUIRE);
	if (READ_ONCE(l->owner) != ticket) {
		trace_spin_contended(l, l->name, file, line);
		start = rdtsc();
		while (READ_ONCE(l->owner) != ticket) {
			cpu_relax();
			if (!reported && rdtsc() - start > spin_report_cycles) {
				report_lockup(l, file, line);
				reported = true;
			}
		}
		trace_spin_acquired(l, l->name, rdtsc() - start);
	}
	/* The acquire above keeps the critical section's loads and stores after this point. */
	barrier();
	note_held(l, file, line);
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
	note_held(l, file, line);
	return true;
}

void spin_unlock(spinlock_t *l)
{
	if (!spin_is_locked(l) || l->holder_cpu != cpu_id())
		panic("spin_unlock of lock %s not held by CPU %d (holder %d)",
		      l->name, cpu_id(), l->holder_cpu);
	note_released(l);
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
