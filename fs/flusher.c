/*
 * The flusher: Linux 2.4's bdflush/kupdate, 2.6's pdflush, in one kernel
 * thread. Once a second it writes back the buffers that have been dirty for
 * longer than FLUSH_AGE, so a write() reaches the disk within seconds even
 * if nobody calls sync. Without it a dirty buffer would wait for sync(2),
 * its reuse, or the power-off.
 */
#include "fs/flusher.h"

#include "fs/buffer.h"
#include "fs/mount.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time/timer.h"
#include "kernel/x86/x86.h"
#include "kernel/cpu.h"

#define FLUSH_PERIOD_NS 1000000000ull   /* wake once a second */
#define FLUSH_AGE_NS    5000000000ull   /* write what has been dirty 5 s (Linux: 30 s) */
#define FLUSH_MAX       256             /* buffers per wake-up */
#define FLUSH_INODES_EVERY 5            /* periods between two writes of the dirty inodes (Linux: 30 s) */

static bool started;

static int flusher_thread(void *unused)
{
	unsigned periods = 0;

	(void)unused;
	for (;;) {
		uint64_t now;

		sched_sleep_ns(FLUSH_PERIOD_NS);
		now = clock_ns();
		if (++periods % FLUSH_INODES_EVERY == 0)
			sync_filesystems();     /* inodes a read dirtied (atime) into their buffers */
		if (now > FLUSH_AGE_NS)
			bcache_write_old(now - FLUSH_AGE_NS, FLUSH_MAX);
	}
	return 0;
}

void flusher_start(void)
{
	if (started)
		return;
	started = true;
	if (!kthread_create(flusher_thread, NULL, "flusher"))
		printk("flusher: cannot start: dirty buffers wait for sync(2)\n");
}

void flusher_sync_before_power_off(void)
{
	struct bcache_stats st;

	/* Writing sleeps: only from a task, with interrupts on (every caller of power_off() today). */
	if (!started || in_interrupt() || !irqs_enabled())
		return;
	sync_filesystems();
	bcache_get_stats(&st);
	if (st.dirty == 0)
		return;
	printk("block: writing %d dirty buffers before power off\n", st.dirty);
	if (sync_all_buffers() < 0)
		printk("block: some buffers could not be written\n");
}
