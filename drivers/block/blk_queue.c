/*
 * The request queue and its elevator (see drivers/block/blk_queue.h): from a
 * buffer to a request the driver can start, merged with its neighbours and
 * sorted so the disk's head sweeps one way. When the disk starts is
 * blk_plug.c's: an idle disk's queue is plugged while its batch arrives.
 */
#include "drivers/block/blk_queue.h"

#include "drivers/block/blk_lock.h"
#include "drivers/block/genhd.h"
#include "kernel/locking/atomic.h"
#include "kernel/mm/vmstat.h"
#include "kernel/uapi/errno.h"

uint32_t blk_queue_lock(struct request_queue *q)
{
	uint32_t flags;

	spin_lock_irqsave(q->queue_lock, flags);
	return flags;
}

void blk_queue_unlock(struct request_queue *q, uint32_t flags)
{
	spin_unlock_irqrestore(q->queue_lock, flags);
}

void blk_init_queue(struct request_queue *q, void (*request_fn)(struct request_queue *q), const char *name)
{
	/* One lock class for every queue's own lock, as Linux's q->__queue_lock: lock_stat sums them. */
	spin_lock_init(&q->own_lock, "queue_lock");
	q->queue_lock = blk_lock_for_queue(&q->own_lock);
	list_init(&q->queue_head);
	list_init(&q->free);
	for (int i = 0; i < BLK_NR_REQUESTS; i++)
		list_add_tail(&q->pool[i].queuelist, &q->free);
	q->head_pos = 0;
	q->nr_queued = q->in_flight = 0;
	q->plugged = false;
	list_init(&q->plug_link);
	q->unplug_delay_ns = BLK_UNPLUG_DELAY_NS;
	q->request_fn = request_fn;
	q->name = name;
	wait_queue_init(&q->rq_wait, "rq_wait");
	q->nr_requests = q->nr_merges = q->nr_sectors = 0;
	q->nr_plugs = 0;
	for (int i = 0; i < BLK_UNPLUG_CAUSES; i++)
		q->nr_unplugs[i] = 0;
}

/*
 * The elevator's order, C-LOOK: first the requests at or after the head,
 * by sector, then those before it, by sector (the next sweep). Serving the
 * queue in this order moves the head one way and back once per sweep. (A
 * stream of requests just ahead of the head could starve one behind it;
 * Linux 2.4 counted passes to bound that, 2.6's deadline scheduler used
 * expiry times. Not here.)
 */
static uint64_t elv_key(const struct request_queue *q, uint32_t sector)
{
	return ((uint64_t)(sector < q->head_pos) << 32) | sector;
}

/* Join bh to a waiting request it continues (back merge) or precedes (front merge). */
static bool elv_try_merge(struct request_queue *q, int rw, uint32_t sector, struct buffer_head *bh, void *disk)
{
	uint32_t n = bh->b_size / SECTOR_SIZE;
	struct list_head *pos;

	list_for_each(pos, &q->queue_head) {
		struct request *rq = list_entry(pos, struct request, queuelist);

		if (rq->rw != rw || rq->disk != disk || rq->nr_sectors + n > BLK_MAX_SECTORS)
			continue;
		if (rq->sector + rq->nr_sectors == sector) {
			bh->b_reqnext = NULL;
			rq->bhtail->b_reqnext = bh;
			rq->bhtail = bh;
			rq->nr_sectors += n;
			return true;
		}
		if (sector + n == rq->sector) {
			bh->b_reqnext = rq->bh;
			rq->bh = bh;
			rq->sector = sector;
			rq->nr_sectors += n;
			return true;
		}
	}
	return false;
}

int elv_add_bh(struct request_queue *q, int rw, uint32_t sector, struct buffer_head *bh, void *disk)
{
	struct request *rq;
	struct list_head *pos;

	assert_spin_held(q->queue_lock);
	if (elv_try_merge(q, rw, sector, bh, disk)) {
		q->nr_merges++;
		return 1;
	}
	if (list_empty(&q->free))
		return -EAGAIN;
	rq = list_first_entry(&q->free, struct request, queuelist);
	list_del(&rq->queuelist);
	rq->rw = rw;
	rq->sector = sector;
	rq->nr_sectors = bh->b_size / SECTOR_SIZE;
	rq->bh = rq->bhtail = bh;
	rq->disk = disk;
	bh->b_reqnext = NULL;
	list_for_each(pos, &q->queue_head)
		if (elv_key(q, list_entry(pos, struct request, queuelist)->sector) > elv_key(q, sector))
			break;
	list_insert_between(&rq->queuelist, pos->prev, pos);   /* before pos: the list stays sorted */
	q->nr_queued++;
	q->nr_requests++;
	return 0;
}

struct request *blk_fetch_request(struct request_queue *q)
{
	struct request *rq;

	assert_spin_held(q->queue_lock);
	if (list_empty(&q->queue_head))
		return NULL;
	rq = list_first_entry(&q->queue_head, struct request, queuelist);
	list_del(&rq->queuelist);
	q->nr_queued--;
	q->in_flight++;
	q->head_pos = rq->sector + rq->nr_sectors;
	return rq;
}

void blk_end_request(struct request_queue *q, struct request *rq, bool uptodate)
{
	struct buffer_head *bh = rq->bh;

	assert_spin_held(q->queue_lock);
	while (bh) {
		struct buffer_head *next = bh->b_reqnext;

		bh->b_reqnext = NULL;
		bh->b_end_io(bh, uptodate);     /* may free nothing, but wakes its waiter */
		bh = next;
	}
	q->nr_sectors += rq->nr_sectors;
	q->in_flight--;
	rq->bh = rq->bhtail = NULL;
	list_add_tail(&rq->queuelist, &q->free);
	wake_up(&q->rq_wait);
}

/* Is the block of bh inside part partno of disk? Its first sector in *sector if so. */
static bool bh_sector(const struct gendisk *disk, int partno, const struct buffer_head *bh, uint32_t *sector)
{
	const struct hd_struct *p = &disk->part[partno];
	uint64_t spb = bh->b_size / SECTOR_SIZE;
	uint64_t first = (uint64_t)bh->b_blocknr * spb;

	if (bh->b_size < SECTOR_SIZE || bh->b_size % SECTOR_SIZE || first + spb > p->nr_sects)
		return false;
	*sector = (uint32_t)(p->start_sect + first);
	return true;
}

/*
 * Give bh to the elevator and decide whether the disk starts: Linux 2.6's
 * __make_request from elv_merge on. A buffer that finds the queue empty and
 * the disk idle plugs it: its request waits for the rest of its batch. A
 * plugged queue holding BLK_UNPLUG_THRESH requests has batch enough, and
 * starts. 1 merged, 0 queued, -EAGAIN no free request. Under queue_lock.
 */
static int blk_queue_bh(struct request_queue *q, int rw, uint32_t sector, struct buffer_head *bh, void *disk)
{
	int r;

	if (blk_plug_enabled() && q->request_fn && list_empty(&q->queue_head) && q->in_flight == 0)
		blk_plug_device(q);
	r = elv_add_bh(q, rw, sector, bh, disk);
	if (r < 0)
		__blk_unplug(q, BLK_UNPLUG_WAIT);       /* about to sleep for a request: let the disk free one */
	else if (!q->plugged && q->request_fn)
		q->request_fn(q);                       /* starts the disk if it is idle */
	else if (q->plugged && q->nr_queued >= BLK_UNPLUG_THRESH)
		__blk_unplug(q, BLK_UNPLUG_THRESH_HIT);
	return r;
}

void submit_bh(int rw, struct buffer_head *bh)
{
	struct request_queue *q;
	struct gendisk *disk;
	uint32_t sector, flags;
	int partno, r;

	disk = get_gendisk(bh->b_dev, &partno);
	if (!disk || !bh_sector(disk, partno, bh, &sector)) {
		bh->b_end_io(bh, false);        /* no such device or block: -EIO to the waiter */
		return;
	}
	q = disk->queue;
	count_vm_events(rw == WRITE ? PGPGOUT : PGPGIN, bh->b_size / 1024);      /* /proc/vmstat */
	set_bh_bit(bh, BH_Req);
	blk_path_enter();
	for (;;) {
		flags = blk_queue_lock(q);
		r = blk_queue_bh(q, rw, sector, bh, disk);
		blk_queue_unlock(q, flags);
		if (r >= 0)
			break;
		/* Every request is in flight: wait for one to end (read without the lock, retried with it). */
		wait_event(q->rq_wait, !list_empty(&READ_ONCE(q)->free));
	}
	blk_path_exit();
}
