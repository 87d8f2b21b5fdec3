/* The block layer's lock, in three eras (see drivers/block/blk_lock.c and docs/block.md). */
#ifndef DRIVERS_BLOCK_BLK_LOCK_H
#define DRIVERS_BLOCK_BLK_LOCK_H

#include "kernel/locking/spinlock.h"

enum blk_lock_mode {
	BLK_LOCK_BKL,           /* Linux 2.0: the request path under the BKL (era=2.0) */
	BLK_LOCK_GLOBAL,        /* Linux 2.2, 2.4: io_request_lock over every queue (blk_lock=global) */
	BLK_LOCK_QUEUE,         /* Linux 2.6: a lock per queue (every 2.6 era, and the 2.6.39 build) */
};

/* The one lock of every queue in 2.2 and 2.4 (and under the BKL, against the interrupt). */
extern spinlock_t io_request_lock;

/* Take the boot word blk_lock= (or the era's default); once, before the first queue is made. */
void blk_lock_init(void);
enum blk_lock_mode blk_lock_mode(void);
const char *blk_lock_mode_name(enum blk_lock_mode m);
/* The lock a new queue uses in this era: io_request_lock or the queue's own. */
spinlock_t *blk_lock_for_queue(spinlock_t *own);
/* era=2.0: take and drop the BKL around the request path (nothing in the other eras). */
void blk_path_enter(void);
void blk_path_exit(void);

#endif
