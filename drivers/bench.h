/* The bench devices (/dev/bench_bkl, /dev/bench_own) and what the two share. */
#ifndef DRIVERS_BENCH_H
#define DRIVERS_BENCH_H

#include "kernel/types.h"

struct bench_work;

#define BENCH_MAJOR     241     /* in Linux's range for local and experimental devices (240: kcounts) */
#define BENCH_BKL_MINOR 0
#define BENCH_OWN_MINOR 1

void bench_bkl_init(void);
void bench_own_init(void);

/* Copy a struct bench_work from user space and check it: 0, -EFAULT or -EINVAL. */
long bench_get_work(struct bench_work *w, unsigned long uarg);
/* BENCH_LOCK_COST: time uncontended BKL and spinlock pairs (drivers/bench_cost.c). */
long bench_lock_cost(unsigned long uarg);
/* The "work" of an update: n iterations of a loop the compiler cannot drop. */
void bench_spin(uint32_t n);

#endif
