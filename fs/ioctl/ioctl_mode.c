/*
 * The ioctl policy: which ioctl() calls run under the BKL (see fs/ioctl/ioctl_mode.h),
 * and switching it, which is a barrier.
 *
 * A call reads the policy once, at its start, and keeps to it. So a write of
 * "serialized" alone would return while calls that began under "unlocked"
 * still run without the BKL, and for a moment they would race with the new
 * serialized calls on a driver that relies on the BKL, losing its updates.
 * The writer therefore waits until every call that began under the old
 * policy has finished, the way synchronize_srcu() waits for SRCU readers:
 *
 *  - a call counts itself in (ioctl_call_begin()) in the column of the
 *    current generation, in its CPU's row, before it reads the policy; it
 *    counts itself out (ioctl_call_end()) in the same column of the row of
 *    whichever CPU it ends on (it may have moved);
 *  - the writer stores the new policy, moves to the next generation, and
 *    sleeps until the old column's calls in and out, summed over every CPU,
 *    are equal.
 *
 * Why rows per CPU: every driver ioctl writes these counts, the ones without
 * the BKL too. One shared counter would make every CPU fight for its cache
 * line on every call, the very serialization the unlocked path exists to
 * avoid. A row is written only by
 * its own CPU, with preemption off; the writer only reads. Only the two
 * words of `policy` are shared, and a call only reads them.
 *
 * Why a column per generation's parity: calls that begin after the switch
 * count in the other column, so a stream of new calls cannot keep the
 * writer waiting; it waits only for the calls already counted in the old one.
 */
#include "fs/ioctl/ioctl_mode.h"

#include "kernel/locking/atomic.h"
#include "kernel/cmdline.h"
#include "kernel/era.h"
#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "kernel/uapi/errno.h"

#define WAIT_POLL_NS 1000000ULL         /* the writer looks at the counts every ms */

static const char *const mode_names[] = {
	[IOCTL_MODE_AUTO] = "auto",
	[IOCTL_MODE_SERIALIZED] = "serialized",
	[IOCTL_MODE_UNLOCKED] = "unlocked",
};

/*
 * Read by every call, written only by a switch (holding switch_lock): words
 * written whole and read whole, on a cache line that nothing else writes.
 */
static struct {
	enum ioctl_mode mode;
	unsigned generation;
} __attribute__((aligned(64))) policy = { IOCTL_MODE_AUTO, 0 };

/* One writer at a time: a second switch waits until the first one's old calls are done. */
static struct mutex switch_lock;

/* Calls counted in and out, by the parity of the generation they began in; 32-bit sums wrap harmlessly. */
struct calls_row {
	unsigned begun[2];
	unsigned ended[2];
} __attribute__((aligned(64)));         /* a cache line per CPU */

static struct calls_row calls[MAX_CPUS];

enum ioctl_mode ioctl_mode_get(void)
{
	return READ_ONCE(policy.mode);
}

const char *ioctl_mode_name(enum ioctl_mode mode)
{
	return (unsigned)mode < ARRAY_SIZE(mode_names) ? mode_names[mode] : "?";
}

/* Add one to column g of this CPU's row: to its calls begun, or ended. */
static void count_call(bool begun, unsigned g)
{
	struct calls_row *row;

	preempt_disable();              /* stay on the row we write */
	row = &calls[cpu_id()];
	if (begun)
		WRITE_ONCE(row->begun[g], row->begun[g] + 1);
	else
		WRITE_ONCE(row->ended[g], row->ended[g] + 1);
	preempt_enable();
}

unsigned ioctl_call_begin(enum ioctl_mode *mode)
{
	unsigned g;

	for (;;) {
		g = READ_ONCE(policy.generation) & 1;
		count_call(true, g);
		/*
		 * Our count, then our reads of the generation and the policy; the
		 * writer stores those, then reads the counts. With a full barrier
		 * on both sides, either it sees our count (and waits for us), or
		 * we see its new generation (and count again, in the new column),
		 * and then its new policy.
		 */
		smp_mb();
		if ((READ_ONCE(policy.generation) & 1) == g)
			break;
		/* A switch came in between: count out, and in again in the new column. */
		count_call(false, g);
	}
	*mode = READ_ONCE(policy.mode);
	return g;
}

void ioctl_call_end(unsigned g)
{
	/* x86 keeps the call's stores before this one; the compiler must too. */
	barrier();
	count_call(false, g);
}

/* Calls of column g in flight: every end is read before every beginning, so no end is seen without its beginning. */
static unsigned calls_in_flight(unsigned g)
{
	unsigned begun = 0, ended = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		ended += READ_ONCE(calls[c].ended[g]);
	smp_mb();
	for (int c = 0; c < MAX_CPUS; c++)
		begun += READ_ONCE(calls[c].begun[g]);
	return begun - ended;
}

/* Sleep until every call counted in column g has finished. */
static void wait_for_calls(unsigned g)
{
	while (calls_in_flight(g)) {
		/* A pending signal cuts every sleep short: then just let others run. */
		if (sched_sleep_ns(WAIT_POLL_NS) < 0)
			sched_yield();
	}
}

static int mode_by_name(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(mode_names); i++)
		if (strcmp(name, mode_names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

int ioctl_mode_set(const char *name)
{
	int mode = mode_by_name(name);
	unsigned old;

	if (mode < 0)
		return mode;
	if (mode != IOCTL_MODE_UNLOCKED && era_now() == ERA_2_6_39)
		return -EINVAL;         /* no BKL to serialize ioctls with */
	mutex_lock(&switch_lock);
	if ((enum ioctl_mode)mode != policy.mode) {
		WRITE_ONCE(policy.mode, (enum ioctl_mode)mode);
		old = policy.generation & 1;
		smp_mb();               /* the policy before the generation: a call that sees the new one sees it */
		WRITE_ONCE(policy.generation, policy.generation + 1);
		smp_mb();               /* ... and both before we read the counts (see ioctl_call_begin()) */
		wait_for_calls(old);
	}
	mutex_unlock(&switch_lock);
	return 0;
}

/*
 * The policy an era boots with (kernel/era.c): before 2.6.11 every ioctl ran
 * under the BKL; 2.6.11 brought unlocked_ioctl, the driver's flag. An ioctl=
 * word still wins.
 */
static enum ioctl_mode era_mode(void)
{
	if (era_now() == ERA_2_6_39)
		return IOCTL_MODE_UNLOCKED;     /* no BKL: every ioctl is unlocked (fs/ioctl/vfs_ioctl.c) */
	return era_now() < ERA_2_6_11 ? IOCTL_MODE_SERIALIZED : IOCTL_MODE_AUTO;
}

void ioctl_mode_init(void)
{
	const char *word = cmdline_get("ioctl");
	int mode = word ? mode_by_name(word) : -EINVAL;

	mutex_init(&switch_lock, "ioctl mode switch");
	policy.mode = era_mode();       /* at boot, before any ioctl: no barrier needed */
	if (!word)
		return;
	if (mode < 0)
		printk("ioctl: unknown ioctl=%s (want auto, serialized or unlocked); using %s\n", word,
		       ioctl_mode_name(policy.mode));
	else if (mode != IOCTL_MODE_UNLOCKED && era_now() == ERA_2_6_39)
		printk("ioctl: ioctl=%s ignored: this kernel has no BKL (make ERA=2.6.39)\n", word);
	else
		policy.mode = (enum ioctl_mode)mode;
}
