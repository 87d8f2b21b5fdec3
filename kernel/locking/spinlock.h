/* Spinlocks: FIFO-fair ticket locks that check their own use. */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/cpu.h"
#include "kernel/locking/lock_stat.h"
#include "kernel/types.h"
#include "kernel/x86/x86.h"

/*
 * A ticket lock: take a number (next), wait until it is served (owner).
 * Waiters are served in arrival order, so no CPU starves.
 * The debug fields say who holds it and from where, for the reports; the
 * last three are lock_stat's (kernel/locking/lock_stat.c).
 */
typedef struct spinlock {
	volatile uint16_t owner;        /* ticket now being served */
	volatile uint16_t next;         /* next ticket to hand out */
	const char *name;
	int holder_cpu;                 /* -1 when free */
	const char *file;               /* where the holder took it */
	int line;
	struct lock_class *class;       /* where it was initialised: its line of /proc/lock_stat */
	int last_cpu;                   /* the CPU that took it last with lock_stat on, -1: none */
	/*
	 * The TSC's low 32 bits when taken with lock_stat on (never 0), else 0:
	 * one word for the unlock to test, and a spinlock held for 2^32 cycles
	 * (a second or two) has been reported as a lockup long before.
	 */
	uint32_t stat_at;
} spinlock_t;

/* A lock defined with its value: the class is the definition's place, named by its name. */
#define SPINLOCK_INIT(n) { .owner = 0, .next = 0, .name = (n), .holder_cpu = -1, .file = 0, .line = 0, \
			   .class = LOCK_CLASS_HERE((n), LOCK_SPIN), .last_cpu = -1, .stat_at = 0 }

/* A lock set up at run time: the class is this call's place, named by the lock's expression, as Linux's. */
#define spin_lock_init(l, n)                                                                    \
	do {                                                                                    \
		static struct lock_class spin_class_ = { .name = #l, .file = __FILE__,          \
							 .line = __LINE__, .kind = LOCK_SPIN }; \
		spin_lock_init_class((l), (n), &spin_class_);                                   \
	} while (0)
void spin_lock_init_class(spinlock_t *l, const char *name, struct lock_class *class);
void spin_lock_at(spinlock_t *l, const char *file, int line);
bool spin_trylock_at(spinlock_t *l, const char *file, int line);
void spin_unlock(spinlock_t *l);
bool spin_is_locked(const spinlock_t *l);
bool spin_held_by_me(const spinlock_t *l);

#define spin_lock(l) spin_lock_at((l), __FILE__, __LINE__)
/*
 * A second lock of a class already held, taken on purpose in an order of its
 * own (two run queues, lowest CPU first): subclass 1 tells the lock-order
 * checker it is not the same lock taken twice (Linux's spin_lock_nested()).
 */
#define spin_lock_nested(l, subclass) spin_lock_nested_at((l), (subclass), __FILE__, __LINE__)
void spin_lock_nested_at(spinlock_t *l, int subclass, const char *file, int line);
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
