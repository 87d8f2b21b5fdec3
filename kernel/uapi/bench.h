/*
 * The bench devices, the two halves of the May 2004 lesson, as ioctls with
 * Linux's _IOC encoding. Both keep a counter that an update reads, works
 * on for a while, and writes back plus one:
 *   /dev/bench_bkl relies on the BKL to keep updates whole (no flag);
 *   /dev/bench_own keeps per-CPU counters of its own and sets
 *   FOP_UNLOCKED_IOCTL, so its ioctl runs without the BKL.
 * Shared with user space.
 */
#ifndef SMPIX_UAPI_BENCH_H
#define SMPIX_UAPI_BENCH_H

#include "kernel/uapi/ioctl.h"

struct bench_work {
	unsigned int spins;             /* busy-loop iterations between the read and the write-back */
	unsigned int sleep_us;          /* sleep this long inside the ioctl (0: never sleep) */
};

struct bench_stats {
	unsigned long long counter;     /* the counter: one per update that was not lost */
	unsigned long long calls;       /* BENCH_UPDATE calls made (counted apart, without loss) */
};

/*
 * BENCH_LOCK_COST (on /dev/bench_own only, whose ioctl runs without the BKL):
 * the kernel times `pairs` uncontended lock_kernel()/unlock_kernel() pairs
 * and as many spin_lock()/spin_unlock() pairs on a private spinlock, and
 * answers the totals in nanoseconds (each kind's fastest of several rounds,
 * scaled to `pairs`). -EBUSY if the call came in holding the
 * BKL already (ioctl=serialized): that would time recursion, not the lock.
 */
struct bench_lock_cost {
	unsigned int pairs;             /* in: how many pairs of each (1..BENCH_MAX_PAIRS) */
	unsigned int pad;
	unsigned long long bkl_ns;      /* out: all the BKL pairs together */
	unsigned long long spin_ns;     /* out: all the spinlock pairs together */
};

#define BENCH_MAX_PAIRS    10000000u
#define BENCH_MAX_SPINS    10000000u
#define BENCH_MAX_SLEEP_US 1000000u

#define BENCH_UPDATE _IOW('b', 1, struct bench_work)
#define BENCH_READ   _IOR('b', 2, struct bench_stats)
#define BENCH_RESET  _IO('b', 3)
#define BENCH_LOCK_COST _IOWR('b', 4, struct bench_lock_cost)

#endif
