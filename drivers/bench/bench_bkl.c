/*
 * /dev/bench_bkl: a driver written the 2004 way. Its counter has no lock:
 * the driver relies on its ioctl being called under the BKL, as every
 * ioctl was in Linux 2.6.6, so it sets no flag. Boot with ioctl=unlocked
 * (or write "unlocked" to /proc/sys/kernel/ioctl_mode) and updates from
 * several CPUs at once get lost: each reads the old value, works, and
 * writes back over the others.
 *
 * Asked to sleep in the middle of an update, it loses updates even under
 * the BKL, because the BKL is let go while its holder sleeps (kernel/locking/bkl.c):
 * the lock never protected anything across a sleep, which is the trap the
 * BKL set for its users.
 */
#include "drivers/bench/bench.h"

#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/uapi/bench.h"

/* Protected by the BKL (the driver assumes its ioctl runs under it), and by nothing else (2.6.39: below). */
static volatile uint64_t counter;
/* Counted atomically, so a test can compare the updates asked for with those that stuck. */
static atomic_t calls;

static long update(const struct bench_work *w)
{
	uint64_t v = counter;

	bench_spin(w->spins);
	if (w->sleep_us)
		sched_sleep_ns((uint64_t)w->sleep_us * 1000);   /* drops the BKL, if held */
	counter = v + 1;
	atomic_inc(&calls);
	return 0;
}

static void read_stats(struct bench_stats *st)
{
	st->counter = counter;
	st->calls = (unsigned)atomic_read(&calls);
}

static void reset(void)
{
	counter = 0;
	atomic_set(&calls, 0);
}

/* No BENCH_LOCK_COST: called under the BKL, it would time only the BKL's recursion (drivers/bench/bench_cost.c). */
static const struct bench_counter bkl_counter = {
	.update = update,
	.read = read_stats,
	.reset = reset,
	.lock_cost = false,
};

#ifdef CONFIG_BKL
static long bench_bkl_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	return bench_ioctl(&bkl_counter, cmd, arg);     /* the VFS took the BKL for us */
}
#else
/*
 * make ERA=2.6.39: nobody takes the BKL for this driver any more, so it takes
 * a mutex of its own around what the BKL used to cover, as the 2010 scripted
 * pushdown ("autoconvert trivial BKL users to private mutex") did for
 * hundreds of drivers. One difference shows at once: the mutex is not let go
 * while its holder sleeps, so an update that sleeps loses nothing now.
 */
static DEFINE_MUTEX(bench_bkl_mutex);

static long bench_bkl_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	long r;

	mutex_lock(&bench_bkl_mutex);
	r = bench_ioctl(&bkl_counter, cmd, arg);
	mutex_unlock(&bench_bkl_mutex);
	return r;
}
#endif

static const struct file_operations bench_bkl_fops = {
	.name = "bench_bkl",
	.flags = 0,                     /* no FOP_UNLOCKED_IOCTL: serialize me */
	.ioctl = bench_bkl_ioctl,
};

void bench_bkl_init(void)
{
	int r = chrdev_register_mode(BENCH_MAJOR, BENCH_BKL_MINOR, "bench_bkl", 0666, &bench_bkl_fops);

	if (r < 0)
		printk("bench: cannot register /dev/bench_bkl: error %d\n", r);
}
