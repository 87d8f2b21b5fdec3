/*
 * A BKL hold's statistics, the same for the spinlock BKL (bkl.c) and the
 * semaphore BKL (bkl_sem.c): what an acquisition charges to its site, and
 * how long a hold lasted. Private to those two files.
 *
 * Timing a hold costs two TSC reads, and under QEMU's TCG each read is a
 * call into the emulator's clock: about 40 ns, more than the uncontended
 * lock and unlock together. So by default only one hold in
 * BKL_TIMING_DEFAULT is timed, picked at random, and its time is counted
 * that many times over: the totals in /proc/bkl's hold_cycles column are
 * then an estimate, right on average (each hold is timed with a known
 * probability, 1/N, and weighs N), and hold_max is the longest hold
 * actually timed. Random, not every Nth: a workload that alternates between
 * sites would otherwise have one site's holds timed and never the other's.
 * A hold whose acquisition had to wait has read the clock already (for its
 * wait time), so it is always timed, with weight 1. bkl_timing=1 times
 * every hold, exactly; 0 none.
 */
#ifndef KERNEL_BKL_HOLD_H
#define KERNEL_BKL_HOLD_H

#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/x86/x86.h"

/* The hold under way, kept beside the lock and, like it, touched only by the holder. */
struct bkl_hold {
	uint64_t started;       /* TSC when taken, 0: this hold is not timed */
	uint32_t weight;        /* how many holds this one stands for */
};

/* bkl.c: 0, 1 or a power of two (bkl_timing_set() checks); and the sampler's state, which the BKL protects. */
extern uint32_t bkl_timing_period;
extern uint32_t bkl_sample_state;

/* One draw of a xorshift generator (Marsaglia, 2003): true with probability 1/period. */
static inline __attribute__((always_inline)) bool bkl_sample_hit(uint32_t period)
{
	uint32_t x = bkl_sample_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	bkl_sample_state = x;
	return (x & (period - 1)) == 0;
}

/* The lock is ours now. now: the TSC if the acquisition read it (it waited), else 0. */
static inline __attribute__((always_inline)) void bkl_hold_begin(struct bkl_hold *h, uint64_t now)
{
	uint32_t period = READ_ONCE(bkl_timing_period);

	h->started = 0;
	if (period == 0)
		return;
	if (now) {
		h->started = now;
		h->weight = 1;
	} else if (period == 1 || bkl_sample_hit(period)) {
		h->started = rdtsc();
		h->weight = period;
	}
}

/* The hold ends: charge it to site. Returns its length in TSC cycles, 0 if it was not timed. */
static inline __attribute__((always_inline)) uint64_t bkl_hold_end(struct bkl_hold *h, struct bkl_site *site)
{
	uint64_t held;

	if (!h->started)
		return 0;
	held = rdtsc() - h->started;
	h->started = 0;
	site->timed_holds++;
	site->hold_cycles += held * h->weight;
	if (held > site->hold_max)
		site->hold_max = held;
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
