/*
 * The block layer's lock, in three eras. The 2004 article: "the block I/O
 * subsystem went from the BKL to its own lock (io_request_lock) in 2.2, and
 * from that to individual queue locks in 2.6". The boot word chooses:
 *
 *   era=2.0            BLK_LOCK_BKL: submit_bh() takes the BKL around the
 *                      request path. The interrupt cannot take the BKL (smpix's
 *                      is a task's lock; 2.0's interrupts spun on the same
 *                      kernel lock), so queues still use io_request_lock
 *                      against the interrupt, standing for 2.0's cli().
 *   era=2.2, era=2.4   BLK_LOCK_GLOBAL: one io_request_lock for every queue
 *                      (blk_lock=global says it alone, in any era).
 *   every 2.6 era      BLK_LOCK_QUEUE: each queue has its own lock, so two
 *                      disks on two channels never wait for each other. The
 *                      only mode of the kernel without the BKL (make ERA=2.6.39).
 *
 * blk_lock=bkl|global|queue overrides the era, as bkl= and ioctl= do.
 */
#include "drivers/block/blk_lock.h"

#include "kernel/cmdline.h"
#include "kernel/era.h"
#include "kernel/lib/string.h"
#include "kernel/locking/bkl.h"
#include "kernel/printk.h"

/* Linux 2.2/2.4's lock over every request queue (and the queue lock of era=2.0). */
spinlock_t io_request_lock = SPINLOCK_INIT("io_request_lock");

/* Written once by blk_lock_init(), before any queue exists; read-only after. */
static enum blk_lock_mode mode = BLK_LOCK_QUEUE;

static const char *const names[] = {
	[BLK_LOCK_BKL] = "bkl", [BLK_LOCK_GLOBAL] = "global", [BLK_LOCK_QUEUE] = "queue",
};

const char *blk_lock_mode_name(enum blk_lock_mode m)
{
	return (unsigned)m < ARRAY_SIZE(names) ? names[m] : "?";
}

enum blk_lock_mode blk_lock_mode(void)
{
	return mode;
}

void blk_lock_init(void)
{
	const char *word = cmdline_get("blk_lock");

	mode = era_now() == ERA_2_0 ? BLK_LOCK_BKL
	       : era_now() == ERA_2_2 || era_now() == ERA_2_4 ? BLK_LOCK_GLOBAL : BLK_LOCK_QUEUE;
	for (unsigned m = 0; word && m < ARRAY_SIZE(names); m++)
		if (strcmp(word, names[m]) == 0)
			mode = (enum blk_lock_mode)m;
	if (word && strcmp(word, names[mode]) != 0)
		printk("block: unknown blk_lock=%s (want bkl, global or queue)\n", word);
#ifndef CONFIG_BKL
	if (mode == BLK_LOCK_BKL) {
		printk("block: blk_lock=bkl needs the BKL, and this kernel has none: queue locks\n");
		mode = BLK_LOCK_QUEUE;
	}
#endif
	printk("block: request queues locked by %s\n",
	       mode == BLK_LOCK_QUEUE ? "their own locks (2.6)" :
	       mode == BLK_LOCK_GLOBAL ? "io_request_lock (2.2, 2.4)" : "the BKL and io_request_lock (2.0)");
}

spinlock_t *blk_lock_for_queue(spinlock_t *own)
{
	return mode == BLK_LOCK_QUEUE ? own : &io_request_lock;
}

void blk_path_enter(void)
{
#ifdef CONFIG_BKL
	if (mode == BLK_LOCK_BKL)
		lock_kernel();  /* 2.0: the request path ran with the kernel lock, as all of 2.0 did */
#endif
}

void blk_path_exit(void)
{
#ifdef CONFIG_BKL
	if (mode == BLK_LOCK_BKL)
		unlock_kernel();
#endif
}
