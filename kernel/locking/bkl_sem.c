/*
 * The BKL as a sleeping semaphore: era=2.6.8.
 *
 * In 2.6.8 (2004) Ingo Molnar made the BKL a semaphore, kernel_sem, under
 * CONFIG_PREEMPT_BKL: code under the BKL could now be preempted, so a long
 * BKL section no longer held up the rest of the machine's latency, and a task
 * waiting for the BKL slept instead of spinning, so its CPU ran something else
 * meanwhile. The two rules of kernel/locking/bkl.c stay: lock_kernel() is
 * recursive (lock_depth), and the semaphore is let go while its holder sleeps
 * and taken back when it wakes (up() in schedule(), down() at its end).
 *
 * What changes, here as there:
 *  - a holder may be preempted, and then KEEPS the semaphore: a preemption is
 *    not a sleep, and a driver that relies on the BKL must not see another
 *    BKL user in the middle of its critical section just because the tick
 *    came. kernel/sched/sched.c's preempt_now() hides lock_depth from
 *    schedule() for the switch, as Linux's preempt_schedule() did under
 *    CONFIG_PREEMPT_BKL (saved_lock_depth);
 *  - a waiter sleeps, first come first served: up() hands the semaphore to
 *    the first waiter and wakes it (a hand-off, as Linux's semaphores did), so
 *    every contended acquisition costs a wakeup and a context switch, and
 *    nobody can take the BKL between the up() and the moment the new owner
 *    runs. That is the price that made Linux go back: the generic semaphore of
 *    2.6.26 made AIM7 much slower, and commit 8e3e076c5a78 ("BKL: revert back
 *    to the old spinlock implementation", 2008) took the spinlock back. make
 *    bench ERAS=1 shows the same under contention.
 *  - taking it back after a sleep is a down() that may itself sleep, from the
 *    tail of schedule() (Linux 2.6.8's reacquire_kernel_lock() did the same):
 *    so for that down() the task's lock_depth is set to -1, or the schedule()
 *    inside it would try to release a semaphore the task does not hold yet,
 *    and take it back again, recursively. See bkl_sem_reacquire_after_switch().
 *
 * The statistics are bkl.c's, charged the same way: a contended acquisition
 * waits asleep, and its wait time is the time from the down() to the grant.
 */
#include "kernel/locking/bkl_sem.h"

#include "kernel/era.h"
#include "kernel/list.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl_hold.h"
#include "kernel/locking/spinlock.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/x86/x86.h"

#ifdef CONFIG_BKL        /* the whole file: no BKL, no semaphore, in make ERA=2.6.39 */

/* A task waiting in down(), on its own stack. */
struct sem_waiter {
	struct list_head link;          /* in kernel_sem.waiters */
	struct task *task;
	bool granted;                   /* up() made it the holder */
};

/* "kernel_sem": its name in Linux 2.6.8 to 2.6.25. */
static struct {
	spinlock_t lock;                /* protects every field below */
	struct task *holder;            /* NULL when free */
	int holder_cpu;                 /* where the holder took it (it may have moved since) */
	struct list_head waiters;       /* of struct sem_waiter, first come first served */
	int nwaiting;
	struct bkl_hold hold;           /* the hold's timing (kernel/locking/bkl_hold.h) */
	struct bkl_site *site;          /* the site charged for this hold */
} kernel_sem = {
	.lock = SPINLOCK_INIT("kernel_sem"),
	.holder_cpu = -1,
	.waiters = { &kernel_sem.waiters, &kernel_sem.waiters },
};

/*
 * down(): take the semaphore, sleeping while someone else has it, and charge
 * the wait to site. Not interruptible, as Linux's down() was not.
 */
static void sem_down(struct bkl_site *site, bool reacquire)
{
	struct sem_waiter w = { .task = current, .granted = false };
	uint64_t start = 0, now;
	bool contended;
	uint32_t flags;

	might_sleep();
	spin_lock_irqsave(&kernel_sem.lock, flags);
	contended = kernel_sem.holder != NULL;
	if (!contended) {
		kernel_sem.holder = current;
	} else {
		start = rdtsc();
		list_add_tail(&w.link, &kernel_sem.waiters);
		kernel_sem.nwaiting++;
		/*
		 * Asleep before the lock is let go: up() either finds us on the list
		 * and wakes us (then schedule() returns at once), or has not run yet.
		 */
		while (!w.granted) {
			current->state = TASK_SLEEPING;
			spin_unlock_irqrestore(&kernel_sem.lock, flags);
			schedule();
			spin_lock_irqsave(&kernel_sem.lock, flags);
		}
		current->state = TASK_RUNNING;  /* woken by a signal's delivery first, say */
	}
	kernel_sem.holder_cpu = cpu_id();
	spin_unlock_irqrestore(&kernel_sem.lock, flags);

	/* We hold the BKL now: its statistics are ours to update. */
	now = contended ? rdtsc() : 0;
	bkl_hold_begin(&kernel_sem.hold, now);
	kernel_sem.site = site;
	bkl_site_charge(site, reacquire, contended, contended ? now - start : 0);
}

/* up(): charge the hold, then hand the semaphore to the first waiter, or free it. */
static void sem_up(void)
{
	struct bkl_site *site = kernel_sem.site;
	struct sem_waiter *w = NULL;
	uint32_t flags;

	if (kernel_sem.holder != current)
		panic("BKL semaphore: released by task %d (%s), which does not hold it", current->pid,
		      current->name);
	bkl_hold_end(&kernel_sem.hold, site);
	kernel_sem.site = NULL;
	spin_lock_irqsave(&kernel_sem.lock, flags);
	if (!list_empty(&kernel_sem.waiters)) {
		w = list_first_entry(&kernel_sem.waiters, struct sem_waiter, link);
		list_del(&w->link);
		kernel_sem.nwaiting--;
	}
	kernel_sem.holder = w ? w->task : NULL;
	kernel_sem.holder_cpu = -1;
	if (w) {
		w->granted = true;
		wake_up_process(w->task);       /* w lives on its stack: touch it no more after this */
	}
	spin_unlock_irqrestore(&kernel_sem.lock, flags);
}

/*
 * The outermost lock_kernel(). No preemption worry between the down() and
 * lock_depth = 0: a preempted holder keeps the semaphore whatever its depth
 * says (Linux: "we set up lock_depth _after_").
 */
void bkl_sem_lock(struct task *t, struct bkl_site *site)
{
	sem_down(site, false);
	t->bkl_site = site;
	t->lock_depth = 0;
}

void bkl_sem_unlock(struct task *t)
{
	t->lock_depth = -1;
	sem_up();
}

/*
 * schedule() calls this, interrupts off, before it takes its run-queue lock
 * (up() wakes a waiter, which takes a run-queue lock of its own), for every
 * switch but a preemption (see preempt_now()).
 */
void bkl_sem_release_for_switch(struct task *prev)
{
	if (prev->lock_depth < 0)
		return;
	sem_up();
}

/*
 * At the end of schedule(), preemption off: take the semaphore back, which may
 * mean sleeping, so schedule() again, from inside schedule(). For that inner
 * schedule() the task must look as if it did not hold the BKL (lock_depth -1),
 * and preemption must be on, or it would panic. The inner one then neither
 * releases nor retakes anything, so the recursion stops there.
 */
void bkl_sem_reacquire_after_switch(struct task *next)
{
	int depth = next->lock_depth;

	if (depth < 0)
		return;
	next->lock_depth = -1;
	preempt_enable();
	sem_down(next->bkl_site, true);
	preempt_disable();
	next->lock_depth = depth;
}

void bkl_sem_get_state(struct bkl_state *st)
{
	struct task *h = READ_ONCE(kernel_sem.holder);

	st->owner = h;
	st->owner_cpu = h ? READ_ONCE(kernel_sem.holder_cpu) : -1;
	st->owner_depth = h ? h->lock_depth : -1;
	st->waiting = READ_ONCE(kernel_sem.nwaiting);
}

#endif /* CONFIG_BKL */
