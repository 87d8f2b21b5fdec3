/*
 * Plugging: holding an idle disk's first request back a little, so that the
 * buffers submitted right after it join it instead of each starting the
 * disk alone. Linux 2.6's design (drivers/block/ll_rw_blk.c):
 *
 *   plug      a buffer that finds the queue empty and the disk idle plugs
 *             it (blk_plug_device): the request waits, request_fn is not
 *             called, the next buffers merge into it.
 *   unplug    blk_remove_plug() + request_fn (__generic_unplug_device), for
 *             one of three reasons, each counted:
 *               - the queue holds BLK_UNPLUG_THRESH requests (unplug_thresh):
 *                 the batch is big enough to keep the disk busy;
 *               - a task is about to sleep on one of the queue's buffers
 *                 (wait_on_buffer -> blk_unplug_dev; Linux's sync_buffer ->
 *                 blk_run_address_space), or for a free request: nobody
 *                 waits out the delay below, so bread() is as fast as before;
 *               - the plug is q->unplug_delay_ns old (BLK_UNPLUG_DELAY_NS,
 *                 3 ms), for a batch nobody waits on (Linux's unplug_timer).
 *
 * The timer. Linux's unplug_timer did not start the disk itself: its
 * callback, in interrupt context, queued work for the kblockd thread
 * (blk_unplug_timeout -> kblockd_schedule_work -> blk_unplug_work), which
 * took the queue lock and ran request_fn in process context. smpix has no
 * timer callbacks, only timed sleeps, so kblockd is the timer too: a kernel
 * thread that sleeps until the oldest plug's deadline, then unplugs what is
 * due. It runs request_fn under the queue's lock with interrupts off, as
 * submit_bh does, and under the BKL in era 2.0 (blk_path_enter), as every
 * start of the request path does there; in interrupt context it could not
 * have taken the BKL. It is woken only when the list of plugged queues goes
 * from empty to one, and its sleep ends on the scheduler's tick, so a plug
 * lives 3 to 10 ms (Linux at HZ=100 rounded unplug_delay up to one jiffy,
 * 10 ms, too); a busy disk wakes it about once a tick, not once a plug.
 *
 * Locks: a queue's plug state (plugged, plug_deadline, the counters) is under
 * its queue_lock, whichever lock the era makes that (blk_lock.c): the BKL's
 * era and io_request_lock's plug and unplug every queue under
 * io_request_lock, the 2.6 era each under its own. kblockd's list of
 * plugged queues is under plug_lock, taken inside a queue's lock, never
 * around one: kblockd picks a queue under plug_lock, lets it go, then takes
 * the queue's lock and looks again.
 */
#include "drivers/block/blk_queue.h"

#include "drivers/block/blk_lock.h"
#include "drivers/block/genhd.h"
#include "kernel/cmdline.h"
#include "kernel/lib/string.h"
#include "kernel/locking/atomic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time/timer.h"

static bool plug_on = true;     /* blk_plug=0 clears it at boot; read-only after */

static spinlock_t plug_lock = SPINLOCK_INIT("blk_plug_lock");
static struct list_head plugged_queues = LIST_HEAD_INIT(plugged_queues);      /* by plug_link, under plug_lock */
static struct wait_queue kblockd_wait;
static struct request_queue *kblockd_busy;      /* the queue kblockd is unplugging: blk_sync_queue waits it out */
static bool kblockd_started;

bool blk_plug_enabled(void)
{
	return plug_on;
}

/* Hold q's requests until an unplug (Linux's blk_plug_device). Under queue_lock; q idle and empty. */
void blk_plug_device(struct request_queue *q)
{
	bool first;

	assert_spin_held(q->queue_lock);
	if (q->plugged)
		return;
	q->plugged = true;
	q->nr_plugs++;
	q->plug_deadline = clock_ns() + q->unplug_delay_ns;
	spin_lock(&plug_lock);
	first = list_empty(&plugged_queues);
	list_add_tail(&q->plug_link, &plugged_queues);
	spin_unlock(&plug_lock);
	if (first && kblockd_started)
		wake_up(&kblockd_wait);         /* it sleeps only while no queue is plugged */
}

/* Clear the plug; true if q was plugged (Linux's blk_remove_plug). Under queue_lock. */
static bool blk_remove_plug(struct request_queue *q)
{
	if (!q->plugged)
		return false;
	q->plugged = false;
	spin_lock(&plug_lock);
	list_del(&q->plug_link);        /* harmless for a queue a ktest plugged by hand: it is linked to itself */
	spin_unlock(&plug_lock);
	return true;
}

void __blk_unplug(struct request_queue *q, enum blk_unplug_cause cause)
{
	assert_spin_held(q->queue_lock);
	if (!blk_remove_plug(q))
		return;
	q->nr_unplugs[cause]++;
	if (q->request_fn)
		q->request_fn(q);
}

void blk_unplug(struct request_queue *q, enum blk_unplug_cause cause)
{
	uint32_t flags;

	blk_path_enter();
	flags = blk_queue_lock(q);
	__blk_unplug(q, cause);
	blk_queue_unlock(q, flags);
	blk_path_exit();
}

void blk_unplug_dev(dev_t dev)
{
	int partno;
	struct gendisk *disk = get_gendisk(dev, &partno);

	/* Unlocked look first: a wait on an unplugged queue (the usual case) takes no queue lock. */
	if (disk && disk->queue && READ_ONCE(disk->queue->plugged))
		blk_unplug(disk->queue, BLK_UNPLUG_WAIT);
}

void blk_sync_queue(struct request_queue *q)
{
	uint32_t flags = blk_queue_lock(q);

	blk_remove_plug(q);
	blk_queue_unlock(q, flags);
	while (READ_ONCE(kblockd_busy) == q)
		sched_sleep_ns(1000000);
}

/* ---- kblockd: the unplug timer ------------------------------------------------------- */

/* A plugged queue whose deadline has passed, marked busy; else NULL, with the next deadline in *next (0: none). */
static struct request_queue *kblockd_pick(uint64_t *next)
{
	struct request_queue *due = NULL;
	uint64_t now = clock_ns();
	struct list_head *pos;
	uint32_t flags;

	*next = 0;
	spin_lock_irqsave(&plug_lock, flags);
	list_for_each(pos, &plugged_queues) {
		struct request_queue *q = list_entry(pos, struct request_queue, plug_link);

		if (q->plug_deadline <= now) {
			due = q;
			break;
		}
		if (*next == 0 || q->plug_deadline < *next)
			*next = q->plug_deadline;
	}
	WRITE_ONCE(kblockd_busy, due);
	spin_unlock_irqrestore(&plug_lock, flags);
	return due;
}

/* Unplug every queue whose plug is due (Linux's blk_unplug_timeout -> blk_unplug_work); the next deadline, 0: none. */
static uint64_t kblockd_run_due(void)
{
	struct request_queue *q;
	uint64_t next;

	while ((q = kblockd_pick(&next))) {
		uint32_t flags;

		blk_path_enter();
		flags = blk_queue_lock(q);
		/* Looked at again: it may have been unplugged, even plugged anew, since the pick. */
		if (q->plugged && q->plug_deadline <= clock_ns())
			__blk_unplug(q, BLK_UNPLUG_TIMER);
		blk_queue_unlock(q, flags);
		blk_path_exit();
		WRITE_ONCE(kblockd_busy, NULL);
	}
	return next;
}

static int kblockd_thread(void *unused)
{
	(void)unused;
	for (;;) {
		uint64_t next, now;

		wait_event(kblockd_wait, READ_ONCE(plugged_queues.next) != &plugged_queues);
		next = kblockd_run_due();
		now = clock_ns();
		if (next > now)
			sched_sleep_ns(next - now);
	}
	return 0;
}

void blk_plug_init(void)
{
	const char *word = cmdline_get("blk_plug");

	plug_on = !(word && strcmp(word, "0") == 0);
	wait_queue_init(&kblockd_wait, "kblockd_wait");
	if (plug_on && kthread_create(kblockd_thread, NULL, "kblockd"))
		kblockd_started = true;
	else if (plug_on)
		printk("block: cannot start kblockd: a plug lasts until its threshold or a wait\n");
	printk("block: %s\n", plug_on ? "queues plugged: unplugged at 4 requests, a wait, or 3 ms (kblockd)"
	       : "plugging off (blk_plug=0): each buffer starts an idle disk");
}
