/*
 * RAM disks: /dev/ram0, /dev/ram1.. (block major 1, as in Linux), disks whose
 * medium is the kernel's own memory. The boot word rd_nr=N makes N of them
 * (none without it), each rd_size= KiB big (8192 if not said).
 *
 * Why smpix has them: they show the block lock's eras (drivers/block/blk_lock.c)
 * with nothing else in the way. Two IDE disks under QEMU cannot: the emulator
 * moves both channels' data in one thread under its own global lock, so the
 * guest's lock is never what holds the second disk back (docs/performance.md,
 * "Disks"). A RAM disk's request function moves the data itself, with the CPU,
 * holding the queue's lock, as a PIO disk's interrupt handler does
 * (drivers/block/ide.c). Under era 2.6 each RAM disk has its own queue lock
 * and two CPUs copy side by side; under io_request_lock (2.2/2.4) or the BKL
 * (2.0) they take turns. (Linux 2.2's rd.c played another trick: its data
 * lived in the buffer cache itself, in buffers marked never to be freed, and
 * its request function, rd_request(), run under io_request_lock, only zeroed
 * reads of blocks never written. Linux 2.6's brd copies, as smpix does.)
 *
 * Every page of the disk is allocated, zeroed, at boot: the request function
 * runs under a lock the IDE interrupt also takes (io_request_lock, in the
 * single-lock eras), and the page allocator's lock is taken with interrupts
 * on, so allocating there could deadlock (the lock-order checker says so).
 * Linux's brd allocates on first write, outside any queue lock.
 */
#include "drivers/block/rd.h"

#include "drivers/block/blk_queue.h"
#include "drivers/block/genhd.h"
#include "kernel/cmdline.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/printk.h"

#define RAM_MAJOR 1                     /* Linux's: /dev/ram0 is 1:0 */
#define RD_MAX 4
#define RD_DEFAULT_KIB 8192
#define SECTORS_PER_PAGE (PAGE_SIZE / SECTOR_SIZE)

struct ramdisk {
	struct gendisk disk;
	struct request_queue queue;     /* one each: under era 2.6 a lock each */
	physaddr_t *pages;              /* by page of the disk */
	unsigned nr_pages;
};

static struct ramdisk ramdisks[RD_MAX];

/* Move one buffer's bytes to or from the disk, a page at a time (the pages are not contiguous). */
static void rd_move(struct ramdisk *rd, int rw, uint32_t sector, char *data, uint32_t len)
{
	while (len > 0) {
		uint32_t off = (sector % SECTORS_PER_PAGE) * SECTOR_SIZE;
		uint32_t n = PAGE_SIZE - off < len ? PAGE_SIZE - off : len;
		char *page = P2V(rd->pages[sector / SECTORS_PER_PAGE]);

		if (rw == WRITE)
			memcpy(page + off, data, n);
		else
			memcpy(data, page + off, n);
		sector += n / SECTOR_SIZE;
		data += n;
		len -= n;
	}
}

/*
 * The request function, called with the queue's lock held and interrupts off
 * (by the submitter, the task about to wait, or kblockd): serve every waiting
 * request now, copying under that lock. This copy is the work the eras share
 * or do not share.
 */
static void rd_request_fn(struct request_queue *q)
{
	struct ramdisk *rd = q->queuedata;
	struct request *rq;

	while ((rq = blk_fetch_request(q))) {
		uint32_t sector = rq->sector;

		for (struct buffer_head *bh = rq->bh; bh; bh = bh->b_reqnext) {
			rd_move(rd, rq->rw, sector, bh->b_data, bh->b_size);
			sector += bh->b_size / SECTOR_SIZE;
		}
		blk_end_request(q, rq, true);
	}
}

/* Give back the first n of the disk's pages, and its table of them. */
static void rd_free_pages(struct ramdisk *rd, unsigned n)
{
	while (n-- > 0)
		pmm_free_page(rd->pages[n]);
	kfree(rd->pages);
	rd->pages = NULL;
}

/* All of the disk's pages, zeroed; false (and none kept) if memory ran out. */
static bool rd_alloc_pages(struct ramdisk *rd)
{
	rd->pages = kzalloc(rd->nr_pages * sizeof(*rd->pages));
	for (unsigned p = 0; rd->pages && p < rd->nr_pages; p++) {
		rd->pages[p] = pmm_alloc_page();
		if (!rd->pages[p]) {
			rd_free_pages(rd, p);
			break;
		}
		memset(P2V(rd->pages[p]), 0, PAGE_SIZE);
	}
	return rd->pages != NULL;
}

static bool rd_add(int i, unsigned kib)
{
	struct ramdisk *rd = &ramdisks[i];

	rd->nr_pages = kib / (PAGE_SIZE / 1024);
	if (!rd_alloc_pages(rd)) {
		printk("rd: no memory for ram%d's %u KiB\n", i, kib);
		return false;
	}
	blk_init_queue(&rd->queue, rd_request_fn, "rd");
	rd->queue.queuedata = rd;
	snprintf(rd->disk.name, sizeof(rd->disk.name), "ram%d", i);
	rd->disk.major = RAM_MAJOR;
	rd->disk.first_minor = (unsigned)i;     /* no partitions: ram1 is 1:1, as in Linux */
	rd->disk.queue = &rd->queue;
	rd->disk.private_data = rd;
	rd->disk.part[0].nr_sects = rd->nr_pages * SECTORS_PER_PAGE;
	if (add_disk(&rd->disk) < 0) {  /* it finds no partition table: every sector reads as zero */
		printk("rd: no room for ram%d among the disks\n", i);
		rd_free_pages(rd, rd->nr_pages);
		return false;
	}
	disk_make_nodes(&rd->disk);
	return true;
}

void rd_init(void)
{
	unsigned nr = cmdline_get_uint("rd_nr", 0), kib = cmdline_get_uint("rd_size", RD_DEFAULT_KIB);

	if (nr > RD_MAX) {
		printk("rd: rd_nr=%u: at most %d RAM disks\n", nr, RD_MAX);
		nr = RD_MAX;
	}
	if (nr == 0)
		return;
	if (kib < PAGE_SIZE / 1024 || kib > 256 * 1024) {
		printk("rd: rd_size=%u KiB: want 4 to 262144; %u\n", kib, RD_DEFAULT_KIB);
		kib = RD_DEFAULT_KIB;
	}
	kib -= kib % (PAGE_SIZE / 1024);        /* whole pages: the size the disks are, and say */
	for (unsigned i = 0; i < nr; i++)
		if (!rd_add((int)i, kib))
			return;
	printk("rd: %u RAM disks of %u KiB (/dev/ram0..)\n", nr, kib);
}
