/*
 * What the BKL costs when nobody else wants it, next to a plain spinlock.
 *
 * The complaint of "The Big Kernel Lock lives on" (2004), the article smpix
 * grew from, was never the BKL's uncontended price (it is a spinlock
 * underneath) but what it serializes. This ioctl lets `ioctlbench -l` show
 * that: the same number of lock/unlock pairs of each kind, timed back to back
 * in the kernel. The BKL's pair does more
 * (the recursion depth, the per-site statistics with two TSC reads), and
 * docs/performance.md reports by how much.
 */
#include "drivers/bench/bench.h"

#include "kernel/locking/bkl.h"
#include "kernel/mm/uaccess.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/bench.h"
#include "kernel/uapi/errno.h"

#ifdef CONFIG_BKL        /* make ERA=2.6.39: no BKL to time (below) */

#define COST_ROUNDS 8

/* Private to this file, so that no other CPU ever contends for it. */
static spinlock_t cost_lock = SPINLOCK_INIT("bench_cost");

static uint64_t time_bkl_pairs(uint32_t pairs)
{
	uint64_t start = clock_ns();

	for (uint32_t i = 0; i < pairs; i++) {
		lock_kernel();  /* a BKL site of its own, for measuring: it shows in /proc/bkl */
		unlock_kernel();
	}
	return clock_ns() - start;
}

static uint64_t time_spin_pairs(uint32_t pairs)
{
	uint64_t start = clock_ns();

	for (uint32_t i = 0; i < pairs; i++) {
		spin_lock(&cost_lock);
		spin_unlock(&cost_lock);
	}
	return clock_ns() - start;
}

long bench_lock_cost(unsigned long uarg)
{
	struct bench_lock_cost c;

	if (copy_from_user(&c, (const void *)uarg, sizeof(c)) < 0)
		return -EFAULT;
	if (c.pairs == 0 || c.pairs > BENCH_MAX_PAIRS)
		return -EINVAL;
	if (kernel_locked())
		return -EBUSY;  /* ioctl=serialized: each pair would only count a depth */
	/*
	 * Interrupts, and the host under a virtual machine, steal time at random:
	 * time the two kinds in alternating rounds and keep each kind's fastest
	 * round, scaled up.
	 */
	c.spin_ns = c.bkl_ns = ~0ull;
	for (int round = 0; round < COST_ROUNDS; round++) {
		uint32_t n = c.pairs / COST_ROUNDS ? c.pairs / COST_ROUNDS : 1;
		uint64_t spin = time_spin_pairs(n) * COST_ROUNDS, bkl = time_bkl_pairs(n) * COST_ROUNDS;

		c.spin_ns = spin < c.spin_ns ? spin : c.spin_ns;
		c.bkl_ns = bkl < c.bkl_ns ? bkl : c.bkl_ns;
	}
	return copy_to_user((void *)uarg, &c, sizeof(c)) < 0 ? -EFAULT : 0;
}

#else /* !CONFIG_BKL */

long bench_lock_cost(unsigned long uarg)
{
	return -ENOTTY;         /* no such measurement here: ioctlbench -l says so */
}

#endif /* CONFIG_BKL */
