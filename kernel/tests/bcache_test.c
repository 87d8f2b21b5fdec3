/*
 * The buffer cache (fs/buffer.c) on a RAM disk of the tests' own: a gendisk
 * whose request function moves the data at once, so the whole path from
 * bread() through submit_bh() to b_end_io runs without hardware, and the
 * disk counts what reached it.
 */
#include "drivers/block/blk_queue.h"
#include "drivers/block/genhd.h"
#include "fs/buffer.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/uapi/stat.h"

#define RAM_SECTORS 256                 /* 128 KiB */
#define RAM_MAJOR 240                   /* Linux's "local/experimental use" */

struct ramdisk {
	struct gendisk disk;
	struct request_queue q;
	char data[RAM_SECTORS * SECTOR_SIZE];
	int reads, writes;              /* requests that reached it; under q's lock */
};

static struct ramdisk ram[2];

/* The request function: serve every waiting request now, under the queue lock, as an interrupt would. */
static void ram_request_fn(struct request_queue *q)
{
	struct ramdisk *rd = q->queuedata;
	struct request *rq;

	while ((rq = blk_fetch_request(q))) {
		char *p = rd->data + rq->sector * SECTOR_SIZE;

		for (struct buffer_head *bh = rq->bh; bh; p += bh->b_size, bh = bh->b_reqnext) {
			if (rq->rw == WRITE)
				memcpy(p, bh->b_data, bh->b_size);
			else
				memcpy(bh->b_data, p, bh->b_size);
		}
		if (rq->rw == WRITE)
			rd->writes++;
		else
			rd->reads++;
		blk_end_request(q, rq, true);
	}
}

/* Ram disk i, registered, with known contents and no cached blocks. */
static dev_t ram_setup(int i)
{
	struct ramdisk *rd = &ram[i];
	dev_t dev = SMPIX_MKDEV(RAM_MAJOR, (unsigned)i * 8);

	if (!rd->q.queue_lock) {
		blk_init_queue(&rd->q, ram_request_fn, "ktest-ram");
		rd->q.queuedata = rd;
		rd->disk.major = RAM_MAJOR;
		rd->disk.first_minor = (unsigned)i * 8;
		strlcpy(rd->disk.name, i ? "kram1" : "kram0", sizeof(rd->disk.name));
		rd->disk.queue = &rd->q;
		rd->disk.part[0].nr_sects = RAM_SECTORS;
		for (int s = 0; s < RAM_SECTORS * SECTOR_SIZE; s++)
			rd->data[s] = (char)(s / 1024 + i * 100);       /* each 1 KiB block: its number (+100) */
		add_disk(&rd->disk);    /* no MBR (the data has no 0x55AA): the whole disk only */
	}
	invalidate_bdev(dev);           /* nothing cached, add_disk()'s look for a partition table included */
	rd->reads = rd->writes = 0;
	return dev;
}

KTEST(bcache_second_bread_is_a_hit)
{
	dev_t dev = ram_setup(0);
	struct buffer_head *a, *b;

	a = bread(dev, 5, 1024);
	KT_ASSERT(a != NULL);
	KT_ASSERT_EQ(a->b_data[0], 5);
	KT_ASSERT_EQ(a->b_blocknr, 5);
	KT_ASSERT_EQ(a->b_size, 1024);
	KT_ASSERT(a->b_dev == dev && buffer_uptodate(a) && !buffer_dirty(a));
	brelse(a);
	b = bread(dev, 5, 1024);
	KT_ASSERT(b == a);              /* the same buffer, from the cache */
	KT_ASSERT_EQ(ram[0].reads, 1);  /* read once */
	brelse(b);
}

KTEST(bcache_counts_references)
{
	dev_t dev = ram_setup(0);
	struct buffer_head *a = getblk(dev, 7, 1024), *b = getblk(dev, 7, 1024);

	KT_ASSERT(a != NULL && a == b);
	KT_ASSERT_EQ(a->b_count, 2);
	KT_ASSERT(!buffer_uptodate(a)); /* getblk does not read */
	KT_ASSERT_EQ(ram[0].reads, 0);
	brelse(b);
	KT_ASSERT_EQ(a->b_count, 1);
	brelse(a);
	KT_ASSERT_EQ(a->b_count, 0);
}

KTEST(bcache_hash_keys_on_device_block_and_size)
{
	dev_t d0 = ram_setup(0), d1 = ram_setup(1);
	struct buffer_head *a = bread(d0, 1, 1024), *b = bread(d0, 2, 1024);
	struct buffer_head *c = bread(d1, 1, 1024), *d = bread(d0, 1, 2048);

	KT_ASSERT(a && b && c && d);
	KT_ASSERT(a != b && a != c && a != d && c != d);
	KT_ASSERT_EQ(a->b_data[0], 1);
	KT_ASSERT_EQ(b->b_data[0], 2);
	KT_ASSERT_EQ(c->b_data[0], 101);        /* the other disk's block 1 */
	KT_ASSERT_EQ(d->b_data[0], 2);          /* 2048-byte block 1 is bytes 2048.. */
	brelse(a);
	brelse(b);
	brelse(c);
	brelse(d);
}

KTEST(bcache_reuses_the_least_recently_released)
{
	dev_t dev = ram_setup(0);
	struct bcache_stats st;
	struct buffer_head *bh[4];
	size_t old;
	static const int order[] = { 2, 0, 3, 1 };

	ram_setup(1);                   /* its blocks gone too: only ours are on the LRU list */
	invalidate_bdev(SMPIX_MKDEV(RAM_MAJOR, 200));   /* and the failed reads of a missing device */
	bcache_get_stats(&st);
	old = bcache_set_limit(st.bytes + 4 * 1024);
	for (int i = 0; i < 4; i++)
		bh[i] = bread(dev, (uint32_t)(20 + i), 1024);
	for (int i = 0; i < 4; i++)
		brelse(bh[order[i]]);   /* block 22 released first: the next to go */
	brelse(bread(dev, 30, 1024));   /* needs room: 22 is reused */
	KT_ASSERT_EQ(ram[0].reads, 5);
	brelse(bread(dev, 20, 1024));   /* still cached */
	KT_ASSERT_EQ(ram[0].reads, 5);
	brelse(bread(dev, 22, 1024));   /* gone: read again */
	KT_ASSERT_EQ(ram[0].reads, 6);
	bcache_set_limit(old);
}

KTEST(bcache_dirty_buffer_reaches_the_disk_on_sync)
{
	dev_t dev = ram_setup(0);
	struct buffer_head *bh = bread(dev, 9, 1024);

	KT_ASSERT(bh != NULL);
	bh->b_data[0] = 'Z';
	mark_buffer_dirty(bh);
	brelse(bh);
	KT_ASSERT_EQ(ram[0].writes, 0);                 /* written back later, not now */
	KT_ASSERT_EQ(ram[0].data[9 * 1024], 9);
	KT_ASSERT_EQ(sync_blockdev(dev), 0);
	KT_ASSERT_EQ(ram[0].writes, 1);
	KT_ASSERT_EQ(ram[0].data[9 * 1024], 'Z');
	KT_ASSERT(!buffer_dirty(bh));
	bh = bread(dev, 9, 1024);
	KT_ASSERT_EQ(sync_dirty_buffer(bh), 0);         /* clean: nothing to write */
	KT_ASSERT_EQ(ram[0].writes, 1);
	brelse(bh);
}

KTEST(bcache_refuses_bad_blocks_and_sizes)
{
	dev_t dev = ram_setup(0);

	KT_ASSERT(bread(dev, RAM_SECTORS / 2, 1024) == NULL);  /* just past the end */
	KT_ASSERT(bread(dev, 0xFFFFFFFFu, 4096) == NULL);
	KT_ASSERT(bread(dev, 0, 3000) == NULL);
	KT_ASSERT(bread(SMPIX_MKDEV(RAM_MAJOR, 200), 0, 1024) == NULL);        /* no such device */
	KT_ASSERT_EQ(ram[0].reads, 0);
}
