/* The block layer's elevator (drivers/block/blk_queue.c): merging and the order it serves requests in. */
#include "drivers/block/blk_queue.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/uapi/errno.h"

/* A queue with no driver: requests wait in it for the tests to look at. */
static struct request_queue tq;
static struct buffer_head tbh[BLK_NR_REQUESTS + 2];
static char disk_a, disk_b;     /* two "disks": only their addresses matter */

static void setup(void)
{
	blk_init_queue(&tq, NULL, "ktest");
	tq.plugged = true;
	memset(tbh, 0, sizeof(tbh));
	for (unsigned i = 0; i < ARRAY_SIZE(tbh); i++)
		tbh[i].b_size = 1024;   /* two sectors each */
}

static int add(int rw, uint32_t sector, int i, void *disk)
{
	uint32_t flags = blk_queue_lock(&tq);
	int r = elv_add_bh(&tq, rw, sector, &tbh[i], disk);

	blk_queue_unlock(&tq, flags);
	return r;
}

static struct request *next(void)
{
	uint32_t flags = blk_queue_lock(&tq);
	struct request *rq = blk_fetch_request(&tq);

	blk_queue_unlock(&tq, flags);
	return rq;
}

KTEST(blk_elevator_merges_adjacent_buffers)
{
	struct request *rq;

	setup();
	KT_ASSERT_EQ(add(READ, 100, 0, &disk_a), 0);
	KT_ASSERT_EQ(add(READ, 102, 1, &disk_a), 1);    /* right after: a back merge */
	KT_ASSERT_EQ(add(READ, 98, 2, &disk_a), 1);     /* right before: a front merge */
	KT_ASSERT_EQ(add(WRITE, 104, 3, &disk_a), 0);   /* a write never joins a read */
	KT_ASSERT_EQ(add(READ, 104, 4, &disk_b), 0);    /* nor a request for another disk */
	KT_ASSERT_EQ(tq.nr_merges, 2);
	rq = next();
	KT_ASSERT(rq != NULL);
	KT_ASSERT_EQ(rq->sector, 98);
	KT_ASSERT_EQ(rq->nr_sectors, 6);
	/* Its buffers in sector order: 98, 100, 102. */
	KT_ASSERT(rq->bh == &tbh[2] && tbh[2].b_reqnext == &tbh[0] && tbh[0].b_reqnext == &tbh[1]);
	KT_ASSERT(rq->bhtail == &tbh[1] && tbh[1].b_reqnext == NULL);
}

KTEST(blk_elevator_sorts_from_the_head_one_way)
{
	static const uint32_t in[] = { 200, 10, 100, 60, 30 };
	static const uint32_t want[] = { 60, 100, 200, 10, 30 };   /* C-LOOK from sector 50 */

	setup();
	tq.head_pos = 50;
	for (unsigned i = 0; i < ARRAY_SIZE(in); i++)
		KT_ASSERT_EQ(add(READ, in[i], (int)i, &disk_a), 0);
	for (unsigned i = 0; i < ARRAY_SIZE(want); i++) {
		struct request *rq = next();

		KT_ASSERT(rq != NULL);
		KT_ASSERT_EQ(rq->sector, want[i]);
	}
	KT_ASSERT(next() == NULL);
}

KTEST(blk_elevator_caps_a_request_at_max_sectors)
{
	uint32_t per = 8;       /* 4096-byte buffers */
	int made = 0;

	setup();
	for (unsigned i = 0; i < BLK_MAX_SECTORS / per + 1; i++) {
		tbh[i].b_size = 4096;
		made += add(WRITE, 1000 + i * per, (int)i, &disk_a) == 0;
	}
	KT_ASSERT_EQ(made, 2);  /* the first full at BLK_MAX_SECTORS, the last buffer in a new one */
	KT_ASSERT_EQ(next()->nr_sectors, BLK_MAX_SECTORS);
}

KTEST(blk_queue_runs_out_of_requests)
{
	setup();
	for (int i = 0; i < BLK_NR_REQUESTS; i++)
		KT_ASSERT_EQ(add(READ, (uint32_t)(10 * i), i, &disk_a), 0);    /* none adjacent */
	KT_ASSERT_EQ(add(READ, 5000, BLK_NR_REQUESTS, &disk_a), -EAGAIN);
	KT_ASSERT_EQ(add(READ, 10 * (BLK_NR_REQUESTS - 1) + 2, BLK_NR_REQUESTS + 1, &disk_a), 1);
}
