/*
 * /dev/tally: the driver of lab 5 (docs/labs/lab5-unserializing-ioctl.md).
 *
 * A board of TALLY_SLOTS counters. TALLY_ADD adds one to a slot the slow
 * way, as an update with real work in it would: read, work, write back.
 * Two updates of one slot that overlap lose one of them, unless a lock
 * keeps each whole.
 */
/* LAB5: BEGIN locking-comment */
/*
 * Each slot has a lock of its own, and tally_fops says so with
 * FOP_UNLOCKED_IOCTL, as the May 2004 mail "Unserializing ioctl() system
 * calls" proposed: the VFS calls tally_ioctl() without the BKL. Updates of
 * different slots then run on different CPUs at once, and none is lost
 * under any ioctl= policy.
 */
/* LAB5: END */
#include "drivers/lab/tally.h"

#include "drivers/bench/bench.h"
#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "kernel/locking/atomic.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/tally.h"

/* A slot on a cache line of its own, so that CPUs updating different slots do not share one. */
struct slot {
	/* LAB5: BEGIN slot-lock */
	spinlock_t lock;                /* protects count */
	/* LAB5: END */
	uint64_t count;
} __cacheline_aligned;

static struct slot slots[TALLY_SLOTS];
/*
 * How many updates were asked for, so a test can tell what was lost: per
 * CPU, each on its own cache line, summed when read, so that counting
 * shares nothing between CPUs that the slots do not.
 */
static struct {
	uint32_t n;
} __cacheline_aligned calls[MAX_CPUS];

/* Take slot i for a read-modify-write or a read of its 64-bit count (two loads on i386). */
static struct slot *slot_lock(unsigned i)
{
	struct slot *s = &slots[i];

	/* LAB5: BEGIN lock-slot */
	spin_lock(&s->lock);
	/* LAB5: END */
	return s;
}

static void slot_unlock(struct slot *s)
{
	/* LAB5: BEGIN unlock-slot */
	spin_unlock(&s->lock);
	/* LAB5: END */
}

static long tally_add(unsigned long uarg)
{
	struct tally_add a;
	struct slot *s;
	uint64_t v;

	if (copy_from_user(&a, (const void *)uarg, sizeof(a)) < 0)
		return -EFAULT;
	if (a.slot >= TALLY_SLOTS || a.spins > TALLY_MAX_SPINS)
		return -EINVAL;
	preempt_disable();              /* stay on this CPU's row for the increment */
	calls[cpu_id()].n++;
	preempt_enable();
	s = slot_lock(a.slot);
	v = s->count;
	bench_spin(a.spins);            /* the work between the read and the write-back */
	s->count = v + 1;
	slot_unlock(s);
	return 0;
}

static long tally_read(unsigned long uarg)
{
	struct tally_stats st;

	for (unsigned i = 0; i < TALLY_SLOTS; i++) {
		struct slot *s = slot_lock(i);

		st.slot[i] = s->count;
		slot_unlock(s);
	}
	st.calls = 0;
	for (int c = 0; c < MAX_CPUS; c++)
		st.calls += READ_ONCE(calls[c].n);
	return copy_to_user((void *)uarg, &st, sizeof(st)) < 0 ? -EFAULT : 0;
}

static void tally_reset(void)
{
	for (unsigned i = 0; i < TALLY_SLOTS; i++) {
		struct slot *s = slot_lock(i);

		s->count = 0;
		slot_unlock(s);
	}
	for (int c = 0; c < MAX_CPUS; c++)
		WRITE_ONCE(calls[c].n, 0);
}

static long tally_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	switch (cmd) {
	case TALLY_ADD:
		return tally_add(arg);
	case TALLY_READ:
		return tally_read(arg);
	case TALLY_RESET:
		tally_reset();
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations tally_fops = {
	.name = "tally",
	/* LAB5: BEGIN unlocked-flag */
	.flags = FOP_UNLOCKED_IOCTL,    /* "I manage my own concurrency": no BKL around tally_ioctl */
	/* LAB5: END */
	.ioctl = tally_ioctl,
};

void tally_init(void)
{
	int r;

	/* LAB5: BEGIN init-locks */
	for (unsigned i = 0; i < TALLY_SLOTS; i++)
		spin_lock_init(&slots[i].lock, "tally slot");
	/* LAB5: END */
	r = chrdev_register_mode(TALLY_MAJOR, TALLY_MINOR, "tally", 0666, &tally_fops);
	if (r < 0)
		printk("tally: cannot register /dev/tally: error %d\n", r);
}
