/* Spinlocks: FIFO-fair ticket locks that check their own use. */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/cpu.h"
#include "kernel/types.h"
#include "kernel/x86/x86.h"

/*
 * A ticket lock: take a number (next), wait until it is served (owner).
 * Waiters are served in arrival order, so no CPU starves.
 * The debug fields say who holds it and from where, for the reports.
 */
typedef struct spinlock {
	volatile uint16_t owner;        /* ticket now being served */
	volatile uint16_t next;         /* next ticket to hand out */
	const char *name;
	int holder_cpu;                 /* -1 when free */
	const char *file;               /* where the holder took it */
	int line;
} spinlock_t;

#define SPINLOCK_INIT(n) { 0, 0, (n), -1, 0, 0 }

void spin_lock_init(spinlock_t *l, const char *name);
void spin_lock_at(spinlock_t *l, const char *file, int line);
bool spin_trylock_at(spinlock_t *l, const char *file, int line);
void spin_unlock(spinlock_t *l);
bool spin_is_locked(const spinlock_t *l);
bool spin_held_by_me(const spinlock_t *l);

#define spin_lock(l) spin_lock_at((l), __FILE__, __LINE__)
#define spin_trylock(l) spin_trylock_at((l), __FILE__, __LINE__)

/* Also disable interrupts: for locks an interrupt handler may take too. */
#define spin_lock_irqsave(l, flags) \
	do { (flags) = irq_save(); spin_lock_at((l), __FILE__, __LINE__); } while (0)
#define spin_unlock_irqrestore(l, flags) \
	do { spin_unlock(l); irq_restore(flags); } while (0)

/* Panics unless the current CPU holds l: the smpix spelling of lockdep_assert_held(). */
#define assert_spin_held(l) spin_assert_held((l), __FILE__, __LINE__)
void spin_assert_held(const spinlock_t *l, const char *file, int line);

/*
 * Preemption control; spinlocks disable preemption while held. A per-CPU
 * count that the tick looks at (it preempts only at zero): one instruction
 * to disable, inline, because every lock and unlock pays for them.
 */
static inline void preempt_disable(void)
{
	__asm__ volatile("incl %%gs:%c0" : : "i"(offsetof(struct cpu, preempt_count)) : "memory");
}

/* kernel/sched/sched.c: switch away now if the tick asked for it and nothing forbids it. */
void preempt_schedule(void);

/*
 * Enabling is a preemption point, as in Linux with CONFIG_PREEMPT: if the
 * tick asked for a switch while preemption was off, it happens here, at
 * once, not at the next return from an interrupt. Without this a task
 * that spends most of its time holding spinlocks (a big console write)
 * was hardly ever preempted: the tick nearly always found a lock held,
 * and the window between two locks was too short to meet the next tick.
 */
static inline void preempt_enable(void)
{
	uint8_t zero, resched;

	__asm__ volatile("decl %%gs:%c2\n\tsetz %0\n\tmovb %%gs:%c3, %1"
			 : "=q"(zero), "=q"(resched)
			 : "i"(offsetof(struct cpu, preempt_count)), "i"(offsetof(struct cpu, need_resched))
			 : "memory", "cc");
	if (__builtin_expect(zero & resched, 0))
		preempt_schedule();
}

/* How long (TSC cycles) a CPU spins before reporting a suspected lockup. */
extern uint64_t spin_report_cycles;

#endif
