/*
 * The buffer cache: disk blocks kept in memory, found by (device, block
 * number), shared by everyone who reads them, written back when dirty. The
 * names and the contract are Linux 2.6's fs/buffer.c, which a file system
 * (ext2) is written against:
 *
 *	bh = bread(dev, block, 1024);   the block, read if it was not cached; NULL: -EIO or no memory
 *	... read or change bh->b_data ...
 *	mark_buffer_dirty(bh);          changed: the flusher (or sync) writes it back later
 *	brelse(bh);                     done with it; it stays cached until reused
 *
 * A buffer_head is referenced (b_count) while anyone uses it; an unreferenced
 * one stays in the cache and on the LRU list, and is reused for another block
 * when memory for a new one runs out, least recently released first, clean
 * ones only. See fs/buffer.c and docs/block.md.
 */
#ifndef FS_BUFFER_H
#define FS_BUFFER_H

#include "kernel/list.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/types.h"

/* A device number, SMPIX_MKDEV(major, minor) (kernel/uapi/stat.h), as an inode's i_rdev. */
typedef uint32_t dev_t;

/* Bits of b_state, changed only with atomic bit operations (the interrupt changes them too). */
enum bh_state_bits {
	BH_Uptodate,    /* b_data holds the block as it is (or will be) on the disk */
	BH_Dirty,       /* b_data is newer than the disk: write it back before reusing it */
	BH_Lock,        /* locked: I/O in flight, or its owner changes it (lock_buffer) */
	BH_Req,         /* it has been read from or written to the disk at least once */
	BH_IOError,     /* the last I/O on it failed */
};

struct buffer_head {
	dev_t b_dev;                    /* the device, a whole disk or a partition */
	uint32_t b_blocknr;             /* the block, in b_size units from the device's start */
	uint32_t b_size;                /* 512, 1024, 2048 or 4096 bytes */
	char *b_data;                   /* b_size bytes, in the kernel heap */
	volatile unsigned long b_state; /* BH_* bits */
	int b_count;                    /* references; under the cache's lock (fs/buffer.c) */
	uint64_t b_dirtied_ns;          /* when it became dirty (the flusher writes old ones first) */
	struct list_head b_hash;        /* its hash bucket's list; under the cache's lock */
	struct list_head b_lru;         /* the LRU list while unreferenced; under the cache's lock */
	uint32_t b_released;            /* when it was last released, in releases (lab 9's LRU order) */
	/* The block layer's, while the buffer is in a request (drivers/block/blk_queue.h). */
	struct buffer_head *b_reqnext;  /* the next buffer of the same request */
	void (*b_end_io)(struct buffer_head *bh, bool uptodate);       /* I/O done; interrupt context */
};

#define BH_BIT(bit) (1UL << (bit))

static inline bool buffer_uptodate(const struct buffer_head *bh) { return bh->b_state & BH_BIT(BH_Uptodate); }
static inline bool buffer_dirty(const struct buffer_head *bh) { return bh->b_state & BH_BIT(BH_Dirty); }
static inline bool buffer_locked(const struct buffer_head *bh) { return bh->b_state & BH_BIT(BH_Lock); }

/* Atomic bit operations on b_state: the task and the disk interrupt both change it. */
static inline void set_bh_bit(struct buffer_head *bh, int bit)
{
	__asm__ volatile("lock; btsl %1, %0" : "+m"(bh->b_state) : "Ir"(bit) : "memory");
}

static inline void clear_bh_bit(struct buffer_head *bh, int bit)
{
	__asm__ volatile("lock; btrl %1, %0" : "+m"(bh->b_state) : "Ir"(bit) : "memory");
}

static inline bool test_and_set_bh_bit(struct buffer_head *bh, int bit)
{
	unsigned char old;

	__asm__ volatile("lock; btsl %2, %0; setc %1" : "+m"(bh->b_state), "=qm"(old) : "Ir"(bit) : "memory", "cc");
	return old;
}

static inline bool test_and_clear_bh_bit(struct buffer_head *bh, int bit)
{
	unsigned char old;

	__asm__ volatile("lock; btrl %2, %0; setc %1" : "+m"(bh->b_state), "=qm"(old) : "Ir"(bit) : "memory", "cc");
	return old;
}

/*
 * The block (dev, block) of size bytes, referenced, read from the disk if it
 * was not cached; sleeps for the read. NULL on a read error, a bad size or
 * block (past the device's end), or when every buffer is in use.
 */
struct buffer_head *bread(dev_t dev, uint32_t block, uint32_t size);
/* The same buffer, referenced, but never read: for a block about to be overwritten whole. */
struct buffer_head *getblk(dev_t dev, uint32_t block, uint32_t size);
/* Drop a reference (NULL is fine). The buffer stays cached, dirty or not. */
void brelse(struct buffer_head *bh);
/* Take another reference on a buffer the caller already holds. */
void get_bh(struct buffer_head *bh);
/* Its data is newer than the disk's: it will be written back (sync, fsync, the flusher, power off). */
void mark_buffer_dirty(struct buffer_head *bh);
/* Set BH_Uptodate: the caller filled all of b_data itself (after getblk). */
void set_buffer_uptodate(struct buffer_head *bh);
/*
 * Start I/O on nr referenced buffers, READ or WRITE (blk_queue.h), and wait
 * for none of it: the caller wait_on_buffer()s each, then looks at
 * BH_Uptodate (a read) or BH_IOError. A read skips buffers already
 * uptodate or locked; a write skips clean ones. Submitted as one batch, in
 * the caller's order, so neighbours merge in the plugged queue (Linux's
 * ll_rw_block).
 */
void ll_rw_block(int rw, int nr, struct buffer_head **bhs);
/* Release n buffers (NULL entries skipped) once no I/O is in flight on them: a run's leftovers. */
void brelse_run(struct buffer_head **bhs, int n);
/* Write bh now if dirty and wait for it: 0 or -EIO. */
int sync_dirty_buffer(struct buffer_head *bh);
/* Write every dirty buffer of dev and wait: 0 or -EIO (the first error). */
int sync_blockdev(dev_t dev);
/* Write every dirty buffer of every device and wait (sync(2), power off): 0 or -EIO. */
int sync_all_buffers(void);
/* Forget dev's unreferenced clean buffers (after its last close: the next open reads the disk). */
void invalidate_bdev(dev_t dev);

/* The queues wait_on_buffer() sleeps on: at boot, before any buffer. */
void buffer_wait_init(void);
/* BH_Lock as a sleeping lock: I/O takes it, and so may a file system while it changes a block. */
void lock_buffer(struct buffer_head *bh);
void unlock_buffer(struct buffer_head *bh);
/* Sleep until nobody holds BH_Lock (the I/O in flight has ended). */
void wait_on_buffer(struct buffer_head *bh);

/*
 * Write back dirty buffers that became dirty before older_than_ns
 * (clock_ns(); 0: all of them), at most max of them; returns how many
 * were written. The flusher thread's step (fs/flusher.c).
 */
int bcache_write_old(uint64_t older_than_ns, int max);

/* Counts for tests and /proc: buffers in the cache, referenced, dirty; hits and misses since boot. */
struct bcache_stats {
	int buffers, referenced, dirty;
	unsigned long hits, misses, evictions;
	size_t bytes;
};
void bcache_get_stats(struct bcache_stats *st);
/* The most bytes of block data the cache holds before it reuses buffers (tests lower it). */
size_t bcache_set_limit(size_t bytes);

#endif
