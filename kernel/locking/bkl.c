/*
 * The Big Kernel Lock.
 *
 * When Linux 2.0 first ran on several CPUs, it made the whole kernel safe the
 * simplest way possible: one lock, taken on every entry into the kernel, so
 * that only one CPU at a time ran kernel code. Over the following years that
 * lock was pushed out of one subsystem after another, but in 2004 the 2.6.6
 * kernel still had about 500 calls to lock_kernel() ("The Big Kernel Lock
 * lives on", 2004). Every ioctl() still ran under it, which is what the mail
 * "Unserializing ioctl() system calls" (May 2004) proposed to change.
 *
 * Underneath, the BKL is a spinlock. Two rules make it different:
 *
 *  1. It is recursive. A task may call lock_kernel() while it already holds
 *     it; only the outermost call takes the lock, only the matching outermost
 *     unlock_kernel() releases it. The count lives in the task, not in the
 *     lock: task->lock_depth is -1 when the task does not hold the BKL, 0 after
 *     one lock_kernel(), 1 after two, and so on (Linux 2.6's convention).
 *
 *  2. It is released while its holder sleeps or yields. schedule() notices
 *     a task with lock_depth >= 0 and drops the lock before switching away,
 *     and takes it back before the task runs again. The holder is never
 *     preempted (sched.c's preemptible_now() leaves it running, as 2.6.6's
 *     spinlock BKL did), so only a sleep or a yield of its own lets other
 *     BKL users in. lock_depth is not touched, so the task never notices...
 *     except that the world may have changed while it slept. Another CPU may
 *     have taken the BKL and changed the very data the sleeper was looking at.
 *
 *     So code under the BKL must re-check its conditions after anything that
 *     can sleep (kmalloc that may wait, a wait queue, copying from user space
 *     that may fault). The BKL only guarantees mutual exclusion between the
 *     points where its holder might sleep. That weak guarantee is why it was
 *     so easy to live with, and why it was so hard to remove.
 *
 * Other rules, checked here:
 *  - never in interrupt context (an interrupt cannot sleep, and could
 *    deadlock against the task it interrupted): reported, not taken;
 *  - unlock_kernel() without a matching lock_kernel(): reported.
 *
 * What each call site costs, who made whom wait, and the reports live beside
 * the lock in kernel/locking/bkl_stat.c, called through the hooks of bkl_stat.h.
 */
#include "kernel/locking/bkl.h"

#include "kernel/cpu.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl_sem.h"
#include "kernel/locking/bkl_stat.h"
#include "kernel/locking/lockdep.h"
#include "kernel/panic.h"
#include "kernel/sched/task.h"
#include "kernel/x86/emulator.h"
#include "kernel/x86/x86.h"

#ifdef CONFIG_BKL        /* the whole file: make ERA=2.6.39 builds a kernel without the BKL */

/*
 * The lock itself: a ticket lock of its own rather than a spinlock_t,
 * because a spinlock_t disables preemption for as long as it is held, and
 * a BKL holder may sleep (rule 2): schedule() panics if called with a
 * spinlock held. The holder is kept from preemption by its lock_depth
 * instead (kernel/sched/sched.c), and the lock is handed back and forth across
 * its sleeps by bkl_release_for_switch() and bkl_reacquire_after_switch().
 */
static struct {
	volatile uint16_t owner;        /* ticket now being served */
	volatile uint16_t next;         /* next ticket to hand out */
	struct task *holder;            /* the task holding it, or NULL */
	int holder_cpu;
	struct bkl_site *site;          /* the lock_kernel() it was taken at, charged for this hold */
	struct bkl_stat stat;           /* the hold's timing, lock_stat's last CPU (bkl_stat.h) */
} kernel_flag = { .holder_cpu = -1, .stat.last_cpu = -1 };  /* "kernel_flag": its name in Linux 2.0-2.6 */

/* Its class for the lock-order checker and /proc/lock_stat, whether it spins or sleeps (era=2.6.8). */
static struct lock_class bkl_class = { .name = "kernel_flag", .file = __FILE__, .line = __LINE__,
				       .kind = LOCK_BKL };

/* ---- the raw lock: take a ticket, wait for it to be served, serve the next ---------------- */

/* The lock is ours: say so, for /proc/bkl, the lockup report and the sites waiting. */
static inline __attribute__((always_inline)) void bkl_become_holder(struct bkl_site *site)
{
	kernel_flag.holder = current;
	kernel_flag.holder_cpu = cpu_id();
	kernel_flag.site = site;
}

/*
 * The slow path of bkl_raw_acquire(), out of line so that the fast one stays
 * short: spin until ticket is served. Meanwhile the statistics note who
 * holds the lock (to charge them once we have it), and say when the wait
 * has gone on so long that it looks like a lockup.
 */
static __attribute__((noinline)) void bkl_spin(struct bkl_site *site, uint16_t ticket, bool reacquire)
{
	struct bkl_wait w;
	uint16_t serving;
	uint8_t was_spinning = this_cpu()->spinning;    /* as in spin_wait() (spinlock.c) */

	this_cpu()->spinning = SPINNING_BKL;            /* the tick counts this as spin and bkl time */
	bkl_wait_begin(&w, site, READ_ONCE(kernel_flag.owner), READ_ONCE(kernel_flag.site),
		       READ_ONCE(kernel_flag.holder_cpu));
	while ((serving = READ_ONCE(kernel_flag.owner)) != ticket) {
		cpu_relax();
		if (bkl_wait_watch(&w, serving, READ_ONCE(kernel_flag.site), READ_ONCE(kernel_flag.holder_cpu)))
			bkl_lockup_report(site, ticket, READ_ONCE(kernel_flag.owner), READ_ONCE(kernel_flag.holder),
					  READ_ONCE(kernel_flag.holder_cpu), READ_ONCE(kernel_flag.site));
	}
	this_cpu()->spinning = was_spinning;
	bkl_become_holder(site);
	/* We hold the BKL now: the statistics are ours to update. */
	bkl_stat_acquired_after_wait(&kernel_flag.stat, site, reacquire, &w);
}

/* Take the raw lock and charge the acquisition to site. Preemption must be off. */
static inline __attribute__((always_inline)) void bkl_raw_acquire(struct bkl_site *site, bool reacquire)
{
	uint16_t ticket = __atomic_fetch_add(&kernel_flag.next, 1, __ATOMIC_ACQUIRE);

	if (__builtin_expect(READ_ONCE(kernel_flag.owner) != ticket, 0)) {
		bkl_spin(site, ticket, reacquire);
		return;
	}
	bkl_become_holder(site);
	bkl_stat_acquired(&kernel_flag.stat, site, reacquire);
}

/*
 * Release the raw lock, charging the hold to the site that took it.
 * for_switch: its holder is switching away, and takes it back after. Preemption must be off.
 */
static inline __attribute__((always_inline)) void bkl_raw_release(bool for_switch)
{
	bkl_stat_released(&kernel_flag.stat, kernel_flag.site, for_switch);
	kernel_flag.holder = NULL;
	kernel_flag.holder_cpu = -1;
	kernel_flag.site = NULL;
	/* Release: the critical section's stores are visible before the next ticket is served. */
	__atomic_store_n(&kernel_flag.owner, (uint16_t)(kernel_flag.owner + 1), __ATOMIC_RELEASE);
}

/* ---- lock_kernel() and unlock_kernel(): rule 1 ------------------------------------------- */

EMU_WITHIN_ONE_PAGE(1024) void lock_kernel_site(struct bkl_site *site)
{
	struct task *t = current;

	if (in_interrupt()) {
		bkl_report("lock_kernel() called from interrupt context", site->file, site->line);
		return;
	}
	/* Rule 1: a holder just counts one level deeper. */
	/* LAB3: BEGIN recursion */
	if (t->lock_depth >= 0) {
		t->lock_depth++;
		return;
	}
	/* LAB3: END */
	/* The outermost one only: the checker sees the BKL taken once, as the lock is. */
	if (__builtin_expect(lockdep_on, 0))
		lockdep_acquire(&bkl_class, 0, &bkl_class, site->file, site->line, 0, 0);
	/* era=2.6.8: a semaphore, which may sleep (kernel/locking/bkl_sem.c). */
	if (bkl_is_semaphore()) {
		bkl_sem_lock(t, site);
		return;
	}
	/*
	 * No preemption between taking the lock and recording it in lock_depth:
	 * schedule() decides whether to release the lock by looking at lock_depth.
	 */
	preempt_disable();
	bkl_raw_acquire(site, false);
	t->bkl_site = site;
	t->lock_depth = 0;
	preempt_enable();
}

EMU_WITHIN_ONE_PAGE(1024) void unlock_kernel_site(const char *file, int line)
{
	struct task *t = current;

	if (in_interrupt()) {
		bkl_report("unlock_kernel() called from interrupt context", file, line);
		return;
	}
	if (t->lock_depth < 0) {
		bkl_report("unlock_kernel() without lock_kernel()", file, line);
		return;
	}
	/* LAB3: BEGIN outermost-unlock */
	if (t->lock_depth > 0) {
		t->lock_depth--;        /* still held by an outer lock_kernel() */
		return;
	}
	/* LAB3: END */
	if (__builtin_expect(lockdep_on, 0))
		lockdep_release(&bkl_class);
	if (bkl_is_semaphore()) {
		bkl_sem_unlock(t);
		return;
	}
	preempt_disable();
	t->lock_depth = -1;
	bkl_raw_release(false);
	preempt_enable();
}

bool kernel_locked(void)
{
	return current && current->lock_depth >= 0;
}

/* ---- around a sleep: rule 2 (Linux 2.6's release_kernel_lock() and reacquire_kernel_lock()) ---- */

/* Rule 2, first half: schedule() calls this, interrupts off, before switching away from prev. */
void bkl_release_for_switch(struct task *prev)
{
	/* The checker's half of rule 2: a holder that sleeps holds nothing meanwhile (docs/locking.md). */
	if (prev->lock_depth >= 0 && __builtin_expect(lockdep_on, 0))
		lockdep_release(&bkl_class);
	if (bkl_is_semaphore()) {
		bkl_sem_release_for_switch(prev);
		return;
	}
	/* LAB3: BEGIN release-on-sleep */
	if (prev->lock_depth < 0)
		return;
	if (kernel_flag.holder != prev)
		panic("BKL: task %d (%s) has lock_depth %d but does not hold the lock",
		      prev->pid, prev->name, prev->lock_depth);
	bkl_raw_release(true);
	/* LAB3: END */
}

/* Rule 2, second half: a holder that slept takes the lock back before it goes on. */
void bkl_reacquire_after_switch(struct task *next)
{
	/*
	 * Held again from here, but no edge from the locks next holds to the BKL:
	 * it can hold only mutexes across the sleep, and no cycle runs through a
	 * mutex and the BKL, since whoever waits for that mutex has let go of the BKL.
	 */
	if (next->lock_depth >= 0 && __builtin_expect(lockdep_on, 0))
		lockdep_acquire(&bkl_class, 0, &bkl_class, next->bkl_site->file, next->bkl_site->line, 0,
				LOCKDEP_NOEDGES);
	if (bkl_is_semaphore()) {
		bkl_sem_reacquire_after_switch(next);
		return;
	}
	/* LAB3: BEGIN reacquire-after-sleep */
	if (next->lock_depth < 0)
		return;
	preempt_disable();
	bkl_raw_acquire(next->bkl_site, true);
	preempt_enable();
	/* LAB3: END */
}

/* ---- what others may ask -------------------------------------------------------------------- */

struct lock_class *bkl_lock_class(void)
{
	return &bkl_class;
}

void bkl_get_state(struct bkl_state *st)
{
	struct task *h = READ_ONCE(kernel_flag.holder);

	if (bkl_is_semaphore()) {
		bkl_sem_get_state(st);
		return;
	}
	st->owner = h;
	st->owner_cpu = h ? kernel_flag.holder_cpu : -1;
	st->owner_depth = h ? h->lock_depth : -1;
	st->waiting = (uint16_t)(READ_ONCE(kernel_flag.next) - READ_ONCE(kernel_flag.owner)) - (h ? 1 : 0);
	if (st->waiting < 0)
		st->waiting = 0;
}

#endif /* CONFIG_BKL */
