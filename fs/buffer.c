/*
 * The buffer cache (see fs/buffer.h): disk blocks in memory by (device,
 * block), with reference counts, reuse of the least recently released clean
 * block, and write-back of dirty ones. Linux 2.4's fs/buffer.c in miniature;
 * xv6's bio.c is the same idea with fixed buffers.
 *
 * Two kinds of protection, as in Linux:
 *  - bcache_lock, a spinlock, over the structure: the hash chains, the LRU
 *    list, every b_count and the byte count. Never held across I/O or a
 *    sleep, never taken by an interrupt.
 *  - BH_Lock, a bit of each buffer, over its I/O: set while a read or write
 *    is in flight (the interrupt clears it), so two tasks never start I/O on
 *    one buffer and a reader waits for the read. Tasks sleep on it.
 * b_state's other bits change atomically (the interrupt sets BH_Uptodate).
 */
#include "fs/buffer.h"

#include "drivers/block/blk_queue.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/mm/kheap.h"
#include "kernel/panic.h"
#include "kernel/time/cputime.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"

#define BH_HASH_SIZE 256                /* chains; a power of two */
#define BCACHE_DEFAULT_LIMIT (8u << 20) /* bytes of block data before reuse */
#define SYNC_BATCH 64                   /* buffers written per pass: submitted together, so they merge */

/* Protects hash[], lru, every b_count, bytes and the counters. */
static spinlock_t bcache_lock = SPINLOCK_INIT("bcache_lock");
static struct list_head hash[BH_HASH_SIZE];
/* Unreferenced buffers, least recently released at the head: the next to reuse. */
static struct list_head lru = LIST_HEAD_INIT(lru);
static size_t bytes, limit = BCACHE_DEFAULT_LIMIT;
static int nbuffers;
static unsigned long hits, misses, evictions;

static bool hash_ready;

static struct list_head *bucket(dev_t dev, uint32_t block)
{
	uint32_t h = (dev * 0x9E3779B1u) ^ (block * 0x85EBCA6Bu);

	return &hash[(h ^ (h >> 16)) & (BH_HASH_SIZE - 1)];
}

static void hash_init_once(void)
{
	/* Under bcache_lock: the first getblk() makes the chains. */
	if (hash_ready)
		return;
	for (int i = 0; i < BH_HASH_SIZE; i++)
		list_init(&hash[i]);
	hash_ready = true;
}

static bool valid_size(uint32_t size)
{
	return size == 512 || size == 1024 || size == 2048 || size == 4096;
}

/* The cached buffer (dev, block, size), referenced; NULL if none. Needs bcache_lock. */
static struct buffer_head *find_and_get(dev_t dev, uint32_t block, uint32_t size)
{
	struct list_head *chain = bucket(dev, block), *pos;

	list_for_each(pos, chain) {
		struct buffer_head *bh = list_entry(pos, struct buffer_head, b_hash);

		if (bh->b_dev == dev && bh->b_blocknr == block && bh->b_size == size) {
			if (bh->b_count++ == 0)
				list_del(&bh->b_lru);
			return bh;
		}
	}
	return NULL;
}

static struct buffer_head *alloc_buffer(dev_t dev, uint32_t block, uint32_t size)
{
	struct buffer_head *bh = kzalloc(sizeof(*bh));

	if (!bh)
		return NULL;
	bh->b_data = kmalloc(size);
	if (!bh->b_data) {
		kfree(bh);
		return NULL;
	}
	bh->b_dev = dev;
	bh->b_blocknr = block;
	bh->b_size = size;
	bh->b_count = 1;
	list_init(&bh->b_hash);
	list_init(&bh->b_lru);
	wait_queue_init(&bh->b_wait, "b_wait");
	return bh;
}

static void free_buffer(struct buffer_head *bh)
{
	kfree(bh->b_data);
	kfree(bh);
}

/*
 * Take the least recently released buffer that is clean and idle out of the
 * cache, to be freed. NULL if every unreferenced buffer is dirty or in I/O.
 * Needs bcache_lock.
 */
static struct buffer_head *evict_one(void)
{
	struct list_head *pos;

	list_for_each(pos, &lru) {
		struct buffer_head *bh = list_entry(pos, struct buffer_head, b_lru);

		if (bh->b_state & (BH_BIT(BH_Dirty) | BH_BIT(BH_Lock)))
			continue;
		list_del(&bh->b_lru);
		list_del(&bh->b_hash);
		bytes -= bh->b_size;
		nbuffers--;
		evictions++;
		return bh;
	}
	return NULL;
}

/* Make room for size more bytes: free clean buffers, write dirty ones back if that is all there is. */
static void make_room(uint32_t size)
{
	for (int tries = 0; tries < 4; tries++) {
		struct buffer_head *victim;

		spin_lock(&bcache_lock);
		if (bytes + size <= limit) {
			spin_unlock(&bcache_lock);
			return;
		}
		victim = evict_one();
		spin_unlock(&bcache_lock);
		if (victim) {
			free_buffer(victim);
			tries--;        /* progress: only the write-backs count */
			continue;
		}
		bcache_write_old(0, SYNC_BATCH);        /* everything left is dirty: clean some */
	}
	/* Still over: every buffer is referenced or dirty. Grow past the limit rather than fail. */
}

struct buffer_head *getblk(dev_t dev, uint32_t block, uint32_t size)
{
	struct buffer_head *bh, *new;

	if (!valid_size(size))
		return NULL;
	spin_lock(&bcache_lock);
	hash_init_once();
	bh = find_and_get(dev, block, size);
	if (bh)
		hits++;
	else
		misses++;
	spin_unlock(&bcache_lock);
	if (bh)
		return bh;

	make_room(size);
	new = alloc_buffer(dev, block, size);
	if (!new)
		return NULL;
	spin_lock(&bcache_lock);
	bh = find_and_get(dev, block, size);    /* someone else made it while we allocated */
	if (!bh) {
		list_add(&new->b_hash, bucket(dev, block));
		bytes += size;
		nbuffers++;
		bh = new;
		new = NULL;
	}
	spin_unlock(&bcache_lock);
	if (new)
		free_buffer(new);
	return bh;
}

void get_bh(struct buffer_head *bh)
{
	spin_lock(&bcache_lock);
	if (bh->b_count++ == 0)
		list_del(&bh->b_lru);
	spin_unlock(&bcache_lock);
}

void brelse(struct buffer_head *bh)
{
	if (!bh)
		return;
	spin_lock(&bcache_lock);
	if (bh->b_count <= 0)
		panic("brelse: buffer of block %u on %x released more often than taken", bh->b_blocknr,
		      bh->b_dev);
	if (--bh->b_count == 0)
		list_add_tail(&bh->b_lru, &lru);        /* the most recently released: reused last */
	spin_unlock(&bcache_lock);
}

/* ---- BH_Lock: the buffer's I/O lock --------------------------------------------------- */

/* A sleep until the disk answers: iowait in /proc/stat, and counted in the load average, as Linux's io_schedule(). */
void wait_on_buffer(struct buffer_head *bh)
{
	if (!buffer_locked(bh))
		return;
	cputime_iowait_begin();
	wait_event(bh->b_wait, !buffer_locked(bh));
	cputime_iowait_end();
}

void lock_buffer(struct buffer_head *bh)
{
	while (test_and_set_bh_bit(bh, BH_Lock))
		wait_on_buffer(bh);
}

/* May run in the disk's interrupt (the end of I/O). */
void unlock_buffer(struct buffer_head *bh)
{
	clear_bh_bit(bh, BH_Lock);
	smp_mb();       /* the clear is seen before the waiters are looked at (waitqueue.h's rule) */
	wake_up(&bh->b_wait);
}

/* ---- reading and writing ------------------------------------------------------------ */

void set_buffer_uptodate(struct buffer_head *bh)
{
	set_bh_bit(bh, BH_Uptodate);
}

void mark_buffer_dirty(struct buffer_head *bh)
{
	if (!test_and_set_bh_bit(bh, BH_Dirty))
		bh->b_dirtied_ns = clock_ns();
}

/* b_end_io of every buffer I/O: interrupt context. */
static void end_buffer_io(struct buffer_head *bh, bool uptodate)
{
	if (uptodate) {
		set_bh_bit(bh, BH_Uptodate);
		clear_bh_bit(bh, BH_IOError);
	} else {
		set_bh_bit(bh, BH_IOError);
	}
	unlock_buffer(bh);
}

/* Start a read of a locked buffer. */
static void start_read(struct buffer_head *bh)
{
	bh->b_end_io = end_buffer_io;
	submit_bh(READ, bh);
}

struct buffer_head *bread(dev_t dev, uint32_t block, uint32_t size)
{
	struct buffer_head *bh = getblk(dev, block, size);

	if (!bh || buffer_uptodate(bh))
		return bh;
	lock_buffer(bh);
	if (buffer_uptodate(bh)) {      /* read by someone else while we waited for the lock */
		unlock_buffer(bh);
		return bh;
	}
	clear_bh_bit(bh, BH_IOError);
	start_read(bh);
	wait_on_buffer(bh);
	if (!buffer_uptodate(bh)) {
		brelse(bh);
		return NULL;
	}
	return bh;
}

/* Start writing bh if it is dirty (it is then clean until changed again). true if a write began. */
static bool start_write(struct buffer_head *bh)
{
	lock_buffer(bh);
	if (!test_and_clear_bh_bit(bh, BH_Dirty)) {
		unlock_buffer(bh);
		return false;
	}
	clear_bh_bit(bh, BH_IOError);
	bh->b_end_io = end_buffer_io;
	submit_bh(WRITE, bh);
	return true;
}

int sync_dirty_buffer(struct buffer_head *bh)
{
	if (!start_write(bh)) {
		wait_on_buffer(bh);     /* a write someone else started: wait for it too */
		return 0;
	}
	wait_on_buffer(bh);
	return (bh->b_state & BH_BIT(BH_IOError)) ? -EIO : 0;
}

/*
 * Up to max dirty buffers that match (dev, any_dev, dirtied before
 * older_than_ns unless 0), referenced, into out. Needs nothing; takes bcache_lock.
 */
static int collect_dirty(struct buffer_head **out, int max, dev_t dev, bool any_dev, uint64_t older_than_ns)
{
	int n = 0;

	spin_lock(&bcache_lock);
	hash_init_once();
	for (int i = 0; i < BH_HASH_SIZE && n < max; i++) {
		struct list_head *pos;

		list_for_each(pos, &hash[i]) {
			struct buffer_head *bh = list_entry(pos, struct buffer_head, b_hash);

			if (!buffer_dirty(bh) || (!any_dev && bh->b_dev != dev) ||
			    (older_than_ns && bh->b_dirtied_ns >= older_than_ns))
				continue;
			if (bh->b_count++ == 0)
				list_del(&bh->b_lru);
			out[n++] = bh;
			if (n == max)
				break;
		}
	}
	spin_unlock(&bcache_lock);
	return n;
}

/*
 * Write a batch: submit every write first, then wait for them all, so the
 * elevator can merge neighbouring blocks into one request. 0 or -EIO.
 */
static int write_batch(struct buffer_head **bhs, int n)
{
	int err = 0;

	for (int i = 0; i < n; i++)
		start_write(bhs[i]);
	for (int i = 0; i < n; i++) {
		wait_on_buffer(bhs[i]);
		if (bhs[i]->b_state & BH_BIT(BH_IOError))
			err = -EIO;
		brelse(bhs[i]);
	}
	return err;
}

/* Write back what matches until nothing does; passes bounded, as new dirt may keep coming. */
static int sync_matching(dev_t dev, bool any_dev)
{
	struct buffer_head *batch[SYNC_BATCH];
	int err = 0, n;

	for (int pass = 0; pass < 1024; pass++) {
		n = collect_dirty(batch, SYNC_BATCH, dev, any_dev, 0);
		if (n == 0)
			break;
		if (write_batch(batch, n) < 0)
			err = -EIO;
	}
	return err;
}

int sync_blockdev(dev_t dev)
{
	return sync_matching(dev, false);
}

int sync_all_buffers(void)
{
	return sync_matching(0, true);
}

int bcache_write_old(uint64_t older_than_ns, int max)
{
	struct buffer_head *batch[SYNC_BATCH];
	int n = collect_dirty(batch, max < SYNC_BATCH ? max : SYNC_BATCH, 0, true, older_than_ns);

	write_batch(batch, n);
	return n;
}

void invalidate_bdev(dev_t dev)
{
	struct list_head gone = LIST_HEAD_INIT(gone), *pos, *tmp;

	spin_lock(&bcache_lock);
	hash_init_once();
	list_for_each_safe(pos, tmp, &lru) {
		struct buffer_head *bh = list_entry(pos, struct buffer_head, b_lru);

		if (bh->b_dev != dev || (bh->b_state & (BH_BIT(BH_Dirty) | BH_BIT(BH_Lock))))
			continue;
		list_del(&bh->b_lru);
		list_del(&bh->b_hash);
		list_add_tail(&bh->b_lru, &gone);
		bytes -= bh->b_size;
		nbuffers--;
	}
	spin_unlock(&bcache_lock);
	list_for_each_safe(pos, tmp, &gone)
		free_buffer(list_entry(pos, struct buffer_head, b_lru));
}

void bcache_get_stats(struct bcache_stats *st)
{
	spin_lock(&bcache_lock);
	hash_init_once();
	st->buffers = nbuffers;
	st->referenced = 0;
	st->dirty = 0;
	for (int i = 0; i < BH_HASH_SIZE; i++) {
		struct list_head *pos;

		list_for_each(pos, &hash[i]) {
			struct buffer_head *bh = list_entry(pos, struct buffer_head, b_hash);

			st->referenced += bh->b_count > 0;
			st->dirty += buffer_dirty(bh);
		}
	}
	st->hits = hits;
	st->misses = misses;
	st->evictions = evictions;
	st->bytes = bytes;
	spin_unlock(&bcache_lock);
}

size_t bcache_set_limit(size_t new_limit)
{
	size_t old;

	spin_lock(&bcache_lock);
	old = limit;
	limit = new_limit;
	spin_unlock(&bcache_lock);
	return old;
}
