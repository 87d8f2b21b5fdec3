/*
 * /dev/bench_own: the same work as /dev/bench_bkl, by a driver that manages
 * its own concurrency, as the May 2004 mail proposed, and says so with
 * FOP_UNLOCKED_IOCTL: the VFS calls its ioctl without the BKL.
 *
 * Each CPU updates a counter of its own, with preemption off for the
 * read-work-write so that nothing else runs on that CPU meanwhile; the
 * device's value is their sum. No lock is shared, so N CPUs update in
 * parallel and no update is ever lost, under any ioctl= policy.
 */
#include "drivers/bench/bench.h"

#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "kernel/locking/atomic.h"
#include "kernel/cpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "kernel/uapi/bench.h"

/*
 * One slot per CPU, each on its own cache line so that CPUs do not fight
 * over one. A slot is written only by its CPU with preemption off.
 * Readers add the slots up; 32 bits each so a reader never sees half an update.
 */
struct slot {
	volatile uint32_t counter;
	volatile uint32_t calls;
} __attribute__((aligned(64)));
static struct slot slots[MAX_CPUS];

static long update(const struct bench_work *w)
{
	struct slot *s;
	uint32_t v;

	/* Sleeping with preemption off is not allowed: sleep first, outside the update. */
	if (w->sleep_us)
		sched_sleep_ns((uint64_t)w->sleep_us * 1000);
	preempt_disable();
	s = &slots[cpu_id()];
	v = s->counter;
	bench_spin(w->spins);
	s->counter = v + 1;
	s->calls++;
	preempt_enable();
	return 0;
}

static void read_stats(struct bench_stats *st)
{
	st->counter = st->calls = 0;
	for (int i = 0; i < MAX_CPUS; i++) {
		st->counter += slots[i].counter;
		st->calls += slots[i].calls;
	}
}

static void reset(void)
{
	for (int i = 0; i < MAX_CPUS; i++)
		slots[i].counter = slots[i].calls = 0;
}

static const struct bench_counter own_counter = {
	.update = update,
	.read = read_stats,
	.reset = reset,
	.lock_cost = true,      /* its ioctl runs without the BKL, so it can time the BKL */
};

static long bench_own_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	return bench_ioctl(&own_counter, cmd, arg);     /* no lock taken for us, and none needed */
}

static const struct file_operations bench_own_fops = {
	.name = "bench_own",
	.flags = FOP_UNLOCKED_IOCTL,    /* "I manage my own concurrency" */
	.ioctl = bench_own_ioctl,
};

void bench_own_init(void)
{
	int r = chrdev_register_mode(BENCH_MAJOR, BENCH_OWN_MINOR, "bench_own", 0666, &bench_own_fops);

	if (r < 0)
		printk("bench: cannot register /dev/bench_own: error %d\n", r);
}
