/*
 * A BKL hold's statistics, the same for the spinlock BKL (bkl.c, through
 * bkl_stat.h) and the semaphore BKL (bkl_sem.c): what an acquisition charges
 * to its site, and how long a hold lasted. Private to those files.
 *
 * Timing a hold costs two TSC reads, and a TSC read is slow next to the
 * rest of an uncontended lock and unlock, which is a few loads, stores and
 * one atomic add (docs/performance.md measures both). So by default only one
 * hold in N = BKL_TIMING_DEFAULT is timed, as a profiler samples, and counted
 * N times over: a site's hold_cycles is then an estimate, right on average
 * (exact with bkl_timing=1), and it only grows, so the difference between two
 * readings is the estimate for the holds in between; hold_max is the
 * longest hold actually timed. A site with few holds may show none timed,
 * or one counted N times: time every hold to study such a site. Not every
 * Nth hold: a workload that alternates between two sites would have one
 * site's holds timed and never the other's. The gap to the next timed hold
 * is drawn at random between 1 and 2N - 1 (N on average), so that the path
 * of an untimed hold is one decrement and a test. bkl_timing=1 times every
 * hold, exactly; 0 none.
 */
#ifndef KERNEL_BKL_HOLD_H
#define KERNEL_BKL_HOLD_H

#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/x86/x86.h"

/*
 * The hold under way, kept beside the lock and, like it, touched only by the
 * holder. Zero between holds, and through an untimed one: so an untimed
 * acquisition stores nothing here, and its release tests one word.
 */
struct bkl_hold {
	uint32_t weight;        /* how many holds this one stands for, 0: not timed */
	uint64_t started;       /* TSC when taken */
};

/*
 * bkl_stat.c: the period, 0, 1 or a power of two, and the sampler's state. The
 * BKL protects the state: only its holder draws, and bkl_timing_set()
 * takes the BKL to change the period and restart the countdown.
 */
extern uint32_t bkl_timing_period;
extern uint32_t bkl_sample_countdown;   /* holds until the next timed one */
extern uint32_t bkl_sample_state;

/*
 * The countdown ran out: is this hold timed, and how many holds until the
 * next one? A gap drawn at random, 1 to 2N - 1 (xorshift, Marsaglia 2003).
 * With timing off the countdown is set as far as it goes, so the untimed
 * path stays one decrement and a test whatever the period.
 */
static inline __attribute__((always_inline)) bool bkl_sample_next(void)
{
	uint32_t period = READ_ONCE(bkl_timing_period), x;

	if (period <= 1) {
		bkl_sample_countdown = period ? 1 : ~0u;
		return period == 1;
	}
	x = bkl_sample_state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	bkl_sample_state = x;
	bkl_sample_countdown = 1 + x % (2 * period - 1);
	return true;
}

/* The lock is ours now. now: the TSC if the acquisition read it (it waited), else 0. */
static inline __attribute__((always_inline)) void bkl_hold_begin(struct bkl_hold *h, uint64_t now)
{
	if (__builtin_expect(--bkl_sample_countdown != 0, 1) || !bkl_sample_next())
		return;
	h->started = now ? now : rdtsc();
	h->weight = READ_ONCE(bkl_timing_period);
}

/* The hold ends: charge it to site. Returns its length in TSC cycles, 0 if it was not timed. */
static inline __attribute__((always_inline)) uint64_t bkl_hold_end(struct bkl_hold *h, struct bkl_site *site)
{
	uint64_t held;

	if (__builtin_expect(!h->weight, 1))
		return 0;
	held = rdtsc() - h->started;
	site->timed_holds++;
	site->hold_cycles += held * h->weight;
	if (held > site->hold_max)
		site->hold_max = held;
	h->weight = 0;
	return held;
}

/*
 * Charge an acquisition to site (its holder just got the lock): counted as
 * a reacquisition after a sleep or not, and if it was contended, the cycles
 * it waited. Inline: this is the uncontended path of every lock_kernel().
 */
static inline __attribute__((always_inline)) void bkl_site_charge(struct bkl_site *site, bool reacquire,
								  bool contended, uint64_t waited)
{
	if (reacquire)
		site->reacquisitions++;
	else
		site->acquisitions++;
	if (contended) {
		site->contended++;
		site->wait_cycles += waited;
		if (waited > site->wait_max)
			site->wait_max = waited;
	}
}

#endif
