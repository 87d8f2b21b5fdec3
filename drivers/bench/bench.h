/* The bench devices (/dev/bench_bkl, /dev/bench_own) and what the two share. */
#ifndef DRIVERS_BENCH_H
#define DRIVERS_BENCH_H

#include "kernel/types.h"

struct bench_stats;
struct bench_work;

#define BENCH_MAJOR     241     /* in Linux's range for local and experimental devices (240: kcounts) */
#define BENCH_BKL_MINOR 0
#define BENCH_OWN_MINOR 1

void bench_bkl_init(void);
void bench_own_init(void);

/*
 * A bench device's counter: how an update, a read and a reset keep it whole.
 * This is where the two devices differ (with their file_operations' flag),
 * so each fills one in, in its own file; the rest of their ioctl is
 * bench_ioctl(), the same for both.
 */
struct bench_counter {
	long (*update)(const struct bench_work *w);
	void (*read)(struct bench_stats *st);
	void (*reset)(void);
	bool lock_cost;         /* answers BENCH_LOCK_COST (only a device whose ioctl runs without the BKL) */
};

/* The bench ioctl commands, on counter c: 0 or -errno; -ENOTTY for a command it does not answer. */
long bench_ioctl(const struct bench_counter *c, unsigned cmd, unsigned long arg);

/* BENCH_LOCK_COST: time uncontended BKL and spinlock pairs (drivers/bench/bench_cost.c). */
long bench_lock_cost(unsigned long uarg);
/* The "work" of an update: n iterations of a loop the compiler cannot drop (its cost: docs/performance.md). */
void bench_spin(uint32_t n);

#endif
