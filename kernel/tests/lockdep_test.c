/*
 * The lock-order checker (kernel/locking/lockdep.c): inversions are reported
 * before anything hangs, and the BKL's sleeps break its edges. make test's
 * boots have lockdep=1; in a boot without it, each test turns the checker on
 * (lockdep_start()). The explicit ones (test=NAME) plant a bug on purpose,
 * and the report turns the checker off for the rest of the boot.
 */
#include "kernel/ktest.h"
#include "kernel/locking/bkl.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/x86/trap.h"

/* ---- an ABBA order, seen in turn by one task: reported, though nothing waited ---- */

static struct mutex lockdep_a, lockdep_b;

static void __attribute__((noinline)) take_a_then_b(void)
{
	mutex_lock(&lockdep_a);
	mutex_lock(&lockdep_b);
	mutex_unlock(&lockdep_b);
	mutex_unlock(&lockdep_a);
}

static void __attribute__((noinline)) take_b_then_a(void)
{
	mutex_lock(&lockdep_b);
	mutex_lock(&lockdep_a);         /* reported here, before it could wait */
	mutex_unlock(&lockdep_a);
	mutex_unlock(&lockdep_b);
}

KTEST_CRASH(lockdep_abba_is_reported)
{
	KT_ASSERT(lockdep_start());
	mutex_init(&lockdep_a, "lockdep-a");
	mutex_init(&lockdep_b, "lockdep-b");
	take_a_then_b();
	KT_ASSERT_EQ(lockdep_reports(), 0);
	take_b_then_a();
	KT_ASSERT_EQ(lockdep_reports(), 1);
	KT_ASSERT(!lockdep_on);         /* one bug, one report */
}

/* ---- a lock taken in an interrupt handler and with interrupts on ---- */

#define T_KTEST_SOFTIRQ 0x81    /* an unused vector: `int $0x81` runs the handler as an interrupt */

static spinlock_t irq_lock = SPINLOCK_INIT("ktest-irq-lock");
static spinlock_t unsafe_lock = SPINLOCK_INIT("ktest-irq-unsafe");

static void take_irq_lock_handler(struct trapframe *tf)
{
	spin_lock(&irq_lock);
	spin_unlock(&irq_lock);
}

static void interrupt_takes_irq_lock(void)
{
	trap_set_handler(T_KTEST_SOFTIRQ, take_irq_lock_handler);
	__asm__ volatile("int $0x81");
	trap_set_handler(T_KTEST_SOFTIRQ, NULL);
}

/* The usage form: {HARDIRQ-ON-W} then {IN-HARDIRQ-W} on one class. */
KTEST_CRASH(lockdep_irq_inconsistent_is_reported)
{
	KT_ASSERT(lockdep_start() && irqs_enabled());
	spin_lock(&irq_lock);           /* interrupts on: an interrupt here would wait for ever */
	spin_unlock(&irq_lock);
	KT_ASSERT_EQ(lockdep_reports(), 0);
	interrupt_takes_irq_lock();
	KT_ASSERT_EQ(lockdep_reports(), 1);
}

/* The dependency form: an irq-safe lock held while an irq-unsafe one is taken. */
KTEST_CRASH(lockdep_irq_lock_order_is_reported)
{
	uint32_t flags;

	KT_ASSERT(lockdep_start() && irqs_enabled());
	interrupt_takes_irq_lock();     /* irq_lock: irq-safe */
	spin_lock(&unsafe_lock);        /* unsafe_lock: irq-unsafe */
	spin_unlock(&unsafe_lock);
	KT_ASSERT_EQ(lockdep_reports(), 0);
	spin_lock_irqsave(&irq_lock, flags);
	spin_lock(&unsafe_lock);        /* reported: irq_lock -> unsafe_lock */
	spin_unlock(&unsafe_lock);
	spin_unlock_irqrestore(&irq_lock, flags);
	KT_ASSERT_EQ(lockdep_reports(), 1);
}

/* ---- the BKL: a holder that sleeps holds nothing meanwhile ---- */

#ifdef CONFIG_BKL
static DEFINE_MUTEX(bkl_sleeper_mutex);
static spinlock_t bkl_spin = SPINLOCK_INIT("ktest-under-bkl");

/*
 * Under the BKL, a mutex taken and held across a sleep: no edge BKL -> mutex
 * (waiting for a mutex is a sleep, which lets the BKL go), none mutex -> BKL
 * from the retake after the sleep, and the task holds what it held before.
 * Then the other order, the mutex first: an edge, but no report. A spinlock
 * under the BKL is an edge, since its waiter spins with the BKL held.
 */
KTEST(lockdep_bkl_holder_sleeping_makes_no_edges)
{
	struct lock_class *bkl = bkl_lock_class(), *m = bkl_sleeper_mutex.class;
	int start = lockdep_held_depth(current), depth;

	KT_ASSERT(lockdep_start());
	lock_kernel();
	mutex_lock(&bkl_sleeper_mutex);
	depth = lockdep_held_depth(current);
	sched_sleep_ns(2000000);                /* the BKL is let go, and taken back */
	KT_ASSERT_EQ(lockdep_held_depth(current), depth);
	mutex_unlock(&bkl_sleeper_mutex);
	unlock_kernel();
	KT_ASSERT(!lockdep_depends(bkl, m));
	KT_ASSERT(!lockdep_depends(m, bkl));

	mutex_lock(&bkl_sleeper_mutex);
	lock_kernel();                          /* the other order: recorded, not reported */
	unlock_kernel();
	mutex_unlock(&bkl_sleeper_mutex);
	KT_ASSERT(lockdep_depends(m, bkl));

	lock_kernel();
	spin_lock(&bkl_spin);
	spin_unlock(&bkl_spin);
	unlock_kernel();
	KT_ASSERT(lockdep_depends(bkl, bkl_spin.class));
	KT_ASSERT_EQ(lockdep_held_depth(current), start);
	KT_ASSERT(lockdep_on && lockdep_reports() == 0);
}
#endif
