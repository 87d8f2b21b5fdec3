/*
 * The BKL's statistics and reports: the hooks kernel/locking/bkl.c calls as
 * it takes, waits for and lets go of the lock. Private to bkl.c; see
 * kernel/locking/bkl_stat.c. What others read (/proc/bkl, /proc/bkl_blame,
 * /proc/sys/kernel/bkl_timing) is declared in kernel/locking/bkl.h.
 */
#ifndef KERNEL_LOCKING_BKL_STAT_H
#define KERNEL_LOCKING_BKL_STAT_H

#include "kernel/locking/bkl.h"
#include "kernel/locking/bkl_hold.h"
#include "kernel/locking/lock_stat.h"
#include "kernel/locking/lockup_watch.h"
#include "kernel/locking/spinlock.h"
#include "kernel/trace/trace.h"
#include "kernel/x86/x86.h"

#ifdef CONFIG_BKL

/* The statistics' part of the lock (kernel_flag.stat): like the rest, touched only by its holder. */
struct bkl_stat {
	struct bkl_hold hold;           /* the hold under way, if it is timed (bkl_hold.h) */
	int last_cpu;                   /* the CPU that took it last with lock_stat on, for its bounces */
};

/*
 * A waiter's notes, on its stack while it spins: when it began, and which
 * sites held the lock meanwhile and for how long, to be charged to them in
 * /proc/bkl_blame once it holds the BKL. A holder of NULL is a hand-over:
 * the lock free but promised to a ticket whose CPU has not yet noticed.
 */
#define BKL_WAIT_SEEN 8                 /* more holders than one wait sees in practice: the rest lumped */

struct bkl_wait {
	uint64_t start;                 /* TSC when the wait began */
	struct lockup_watch watch;      /* is it a lockup? (kernel/locking/lockup_watch.h) */
	struct bkl_site *holder;        /* the site holding it now, as last seen */
	uint64_t since;                 /* when that was first seen */
	int n;
	struct {
		struct bkl_site *holder;
		uint64_t cycles;
	} seen[BKL_WAIT_SEEN];
};

/* "BUG: <what> at file:line", with the task and a backtrace: lock_kernel() or unlock_kernel() misused. */
void bkl_report(const char *what, const char *file, int line);

/* ---- while it waits (bkl_spin()) ---------------------------------------------------------- */

/* The waiter at site starts to spin; holder: the site holding the lock now, on holder_cpu. */
void bkl_wait_begin(struct bkl_wait *w, struct bkl_site *site, uint16_t serving, struct bkl_site *holder,
		    int holder_cpu);
/* Another site holds the lock now (out of line: it happens a few times a wait, not every turn). */
void bkl_wait_holder_changed(struct bkl_wait *w, struct bkl_site *holder, uint64_t now);

/*
 * One turn of the spin: the ticket being served, and the site and CPU
 * holding the lock now. True once per wait, when it looks like a lockup
 * (kernel/locking/lockup_watch.h): time for bkl_lockup_report(). Inline: the
 * waiter calls it as often as it looks at the lock, and a call would make it
 * notice its turn later.
 */
static inline __attribute__((always_inline)) bool bkl_wait_watch(struct bkl_wait *w, uint16_t serving,
								 struct bkl_site *holder, int holder_cpu)
{
	if (holder != w->holder)
		bkl_wait_holder_changed(w, holder, rdtsc());
	return lockup_watch_turn(&w->watch, serving, holder_cpu);
}

/*
 * "BUG: BKL lockup suspected": the waiter at site, holding ticket, has spun
 * too long. The rest is the lock as the waiter sees it: the ticket being
 * served, and the task, CPU and site holding it (NULL, -1, NULL between two holders).
 */
void bkl_lockup_report(const struct bkl_site *site, uint16_t ticket, uint16_t serving, const struct task *holder,
		       int holder_cpu, const struct bkl_site *held_at);

/* ---- once it holds the lock, and as it lets go ----------------------------------------------- */

/* lock_stat's part of an acquisition (lock_stat on): w is NULL if it did not wait. */
void bkl_lock_stat_acquired(struct bkl_stat *st, struct bkl_site *site, uint64_t waited, const struct bkl_wait *w);

/*
 * The lock was free: count the acquisition at site (a reacquisition after a
 * sleep or not), and start timing the hold if it is one of those sampled.
 * Inline: this is every uncontended lock_kernel(), and it reads no clock
 * unless the hold is timed.
 */
static inline __attribute__((always_inline)) void bkl_stat_acquired(struct bkl_stat *st, struct bkl_site *site,
								    bool reacquire)
{
	bkl_hold_begin(&st->hold, 0);
	bkl_site_charge(site, reacquire, false, 0);
	if (__builtin_expect(lock_stat_on, 0))
		bkl_lock_stat_acquired(st, site, 0, NULL);
	trace_bkl_acquire(site, reacquire, false, 0);
}

/* The lock is ours after a wait: charge the wait to site, and to the sites w saw holding it. */
void bkl_stat_acquired_after_wait(struct bkl_stat *st, struct bkl_site *site, bool reacquire, struct bkl_wait *w);

/* The holder lets go (for_switch: to sleep or yield, and it takes the lock back after): end the hold. */
static inline __attribute__((always_inline)) void bkl_stat_released(struct bkl_stat *st, struct bkl_site *site,
								    bool for_switch)
{
	uint64_t held;

	trace_bkl_release(site, for_switch);
	held = bkl_hold_end(&st->hold, site);
	if (__builtin_expect(lock_stat_on, 0) && held)
		lock_stat_held(bkl_lock_class(), held);
}

#endif /* CONFIG_BKL */

#endif
