/*
 * The block layer: buffers to requests, requests to a driver. A file system
 * or the block device file hands a buffer to submit_bh(); the block layer
 * finds the disk and queue of its device, merges it into a waiting request
 * for the next sectors (or makes a new request), sorts the queue by sector
 * (the elevator), and calls the driver's request_fn to start the disk if it
 * is idle. The driver ends each request from its interrupt handler with
 * blk_end_request(), which calls each buffer's b_end_io. The shape is Linux
 * 2.4's drivers/block/ll_rw_blk.c. See docs/block.md.
 *
 * A buffer that finds the queue empty and the disk idle does not start the
 * disk: it plugs the queue (Linux 2.6's blk_plug_device), so that the rest
 * of its batch can merge into its request first. The queue is unplugged
 * (request_fn called) when a task waits for one of its buffers
 * (wait_on_buffer -> blk_unplug_dev), when BLK_UNPLUG_THRESH requests wait
 * in it, or BLK_UNPLUG_DELAY_NS after the plug, by the kblockd thread.
 * The boot word blk_plug=0 turns plugging off.
 *
 * Every queue is protected by *q->queue_lock, which the era chooses
 * (drivers/block/blk_lock.c): Linux 2.2 and 2.4 had one io_request_lock for
 * every queue; 2.6 gave each queue its own. The driver's interrupt handler
 * takes it too, so it is always taken with interrupts off.
 */
#ifndef DRIVERS_BLOCK_BLK_QUEUE_H
#define DRIVERS_BLOCK_BLK_QUEUE_H

#include "fs/buffer.h"
#include "kernel/list.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/types.h"

#define READ  0
#define WRITE 1

#define SECTOR_SIZE 512
#define BLK_MAX_SECTORS 128     /* one request moves at most 64 KiB (the ATA count register allows 256) */
#define BLK_NR_REQUESTS 32      /* requests per queue; a submitter sleeps when all are in use (2.4's freelist) */
#define BLK_UNPLUG_THRESH 4     /* requests waiting in a plugged queue that unplug it (Linux's unplug_thresh) */
#define BLK_UNPLUG_DELAY_NS 3000000ull  /* a plug's life, 3 ms (Linux's unplug_delay); kblockd wakes on the tick */

/* Why a plugged queue was unplugged: the counters of struct request_queue. */
enum blk_unplug_cause {
	BLK_UNPLUG_THRESH_HIT,  /* BLK_UNPLUG_THRESH requests were waiting */
	BLK_UNPLUG_TIMER,       /* kblockd found the plug older than BLK_UNPLUG_DELAY_NS */
	BLK_UNPLUG_WAIT,        /* a task was about to sleep on one of its buffers, or for a free request */
	BLK_UNPLUG_CAUSES,
};

struct request_queue;

struct request {
	struct list_head queuelist;     /* on q->queue_head while it waits, on q->free when unused */
	int rw;                         /* READ or WRITE */
	uint32_t sector;                /* the first sector, from the start of the whole disk */
	uint32_t nr_sectors;
	struct buffer_head *bh, *bhtail;        /* its buffers, in sector order, chained by b_reqnext */
	void *disk;                     /* the struct gendisk it is for (drivers/block/genhd.h) */
};

struct request_queue {
	/*
	 * The lock over everything below: &io_request_lock or &own_lock, as the
	 * era says (blk_lock.c); set by blk_init_queue() and never changed.
	 */
	spinlock_t *queue_lock;
	spinlock_t own_lock;            /* the 2.6 era's lock of this queue alone */
	struct list_head queue_head;    /* requests not yet started, in the elevator's order */
	struct list_head free;          /* unused requests of pool[] */
	uint32_t head_pos;              /* the sector after the last one started: where the disk's head is */
	uint32_t nr_queued;             /* requests on queue_head */
	uint32_t in_flight;             /* requests the driver has fetched and not yet ended */
	/*
	 * Plugged: hold the requests, do not call request_fn (blk_plug_device).
	 * A queue plugged by blk_plug_device() is also on kblockd's list
	 * (plug_link) until unplugged; the elevator's ktests set the flag alone.
	 */
	bool plugged;
	uint64_t plug_deadline;         /* clock_ns() at which kblockd unplugs it */
	uint64_t unplug_delay_ns;       /* a plug's life: BLK_UNPLUG_DELAY_NS (Linux's unplug_delay; tests change it) */
	struct list_head plug_link;     /* on kblockd's list of plugged queues (blk_plug.c's plug_lock) */
	/* Start the next request if the device is idle. Called with queue_lock held, interrupts off. */
	void (*request_fn)(struct request_queue *q);
	void *queuedata;                /* the driver's */
	const char *name;
	struct wait_queue rq_wait;      /* submitters waiting for a free request */
	/* Counters, under queue_lock: requests made, buffers merged into one, sectors moved. */
	unsigned long nr_requests, nr_merges, nr_sectors;
	/* Plugs, and unplugs by cause (enum blk_unplug_cause), under queue_lock. */
	unsigned long nr_plugs, nr_unplugs[BLK_UNPLUG_CAUSES];
	struct request pool[BLK_NR_REQUESTS];
};

/* Set q up with its lock (the era's) and its driver. */
void blk_init_queue(struct request_queue *q, void (*request_fn)(struct request_queue *q), const char *name);

/*
 * Start I/O on bh: rw READ or WRITE, the buffer locked (BH_Lock) by the
 * caller, bh->b_end_io set. Sleeps if the queue has no free request. The
 * I/O ends, now for a bad device or block, later from the interrupt, by
 * b_end_io.
 */
void submit_bh(int rw, struct buffer_head *bh);

/*
 * The elevator's step, for submit_bh() and the tests: merge bh (sectors
 * sector.., for the disk disk) into a waiting request of q, or put it in a new
 * request in the elevator's order. 1 merged, 0 queued, -EAGAIN no free request.
 * Needs q->queue_lock.
 */
int elv_add_bh(struct request_queue *q, int rw, uint32_t sector, struct buffer_head *bh, void *disk);

/* For the driver: take the next request off the queue (NULL: none), under queue_lock. */
struct request *blk_fetch_request(struct request_queue *q);
/* The driver is done with rq: end each buffer's I/O, give rq back to the pool. Under queue_lock. */
void blk_end_request(struct request_queue *q, struct request *rq, bool uptodate);

/*
 * A task is about to sleep on a buffer of dev (wait_on_buffer): unplug the
 * queue it waits in, so that it does not wait BLK_UNPLUG_DELAY_NS too. Linux
 * 2.6's sync_buffer() -> blk_run_address_space(). Sleeps on nothing; takes
 * the queue's lock only when the queue looks plugged.
 */
void blk_unplug_dev(dev_t dev);
/* Unplug q now, if plugged, counting the cause (Linux's generic_unplug_device). Takes queue_lock. */
void blk_unplug(struct request_queue *q, enum blk_unplug_cause cause);
/*
 * Take q's plug away without starting anything, and wait until kblockd is
 * not looking at it: then q may be set up anew or go (the ktests' queues,
 * with nothing left in them). Linux's blk_sync_queue().
 */
void blk_sync_queue(struct request_queue *q);
/* For submit_bh (blk_plug.c): plug an idle, empty q; unplug q now. Both under queue_lock. */
void blk_plug_device(struct request_queue *q);
void __blk_unplug(struct request_queue *q, enum blk_unplug_cause cause);
/* Is plugging on (the boot word blk_plug=0 turns it off)? */
bool blk_plug_enabled(void);
/* Read blk_plug= and start kblockd: at boot, before the first disk is used (block_init). */
void blk_plug_init(void);

/* queue_lock with interrupts off, as every holder must. */
uint32_t blk_queue_lock(struct request_queue *q);
void blk_queue_unlock(struct request_queue *q, uint32_t flags);

#endif
