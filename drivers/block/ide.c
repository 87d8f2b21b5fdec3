/*
 * IDE disks on the PC's two ATA channels, as QEMU's PIIX gives them
 * (-drive if=ide): channel 0 at ports 0x1F0 (IRQ 14) holds hda and hdb,
 * channel 1 at 0x170 (IRQ 15) hdc and hdd. Linux's numbers: hda is 3:0,
 * hdb 3:64, hdc 22:0, hdd 22:64, partitions the minors after.
 *
 * Disks are found at boot with IDENTIFY DEVICE, polled. After that every
 * transfer is driven by the interrupt, with LBA28 addresses, one request at
 * a time per channel, in one of two ways:
 *
 *  - DMA (the default, when the PCI controller has bus-master ports and the
 *    drive says it can): the request function describes the request's
 *    buffers to the controller (drivers/block/ide_dma.c), issues READ or
 *    WRITE DMA and starts the engine; the controller moves every sector
 *    itself and interrupts once, at the end.
 *  - PIO (boot word ide_dma=0, or no bus master): READ or WRITE SECTORS;
 *    a write's first sector goes out at once, and each interrupt then moves
 *    one sector with rep insw/outsw until the last. The data moves inside
 *    the interrupt handler under the queue's lock, as Linux 2.4's ide_intr()
 *    did under io_request_lock.
 *
 * Either way the request ends (blk_end_request) in the interrupt and the
 * next starts there; the requester sleeps on its buffer meanwhile. Channel
 * 1's interrupt goes to CPU 1, so that two disks on two channels are served
 * by two CPUs. /proc/ide says which way each disk goes and counts requests,
 * and what each channel's queue merged and plugged.
 *
 * What is missing: LBA48 (disks over 128 GiB), ATAPI (CD-ROMs are skipped),
 * choosing a DMA transfer mode (SET FEATURES; QEMU needs none), and a
 * timeout for a drive that never answers.
 */
#include "drivers/block/ide.h"

#include "drivers/block/blk_queue.h"
#include "drivers/block/genhd.h"
#include "drivers/block/ide_dma.h"
#include "fs/proc/procbuf.h"
#include "kernel/irq.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time/timer.h"
#include "kernel/x86/x86.h"

/* Task-file registers, from the channel's base port. */
#define ATA_DATA    0
#define ATA_NSECT   2
#define ATA_LBAL    3
#define ATA_LBAM    4
#define ATA_LBAH    5
#define ATA_DEVICE  6
#define ATA_STATUS  7           /* reading it also acknowledges the interrupt */
#define ATA_COMMAND 7

#define ATA_BSY  0x80
#define ATA_DF   0x20
#define ATA_DRQ  0x08
#define ATA_ERR  0x01

#define ATA_NIEN 0x02           /* device control: no interrupts (while probing) */

#define ATA_CMD_READ     0x20
#define ATA_CMD_WRITE    0x30
#define ATA_CMD_READ_DMA  0xC8
#define ATA_CMD_WRITE_DMA 0xCA
#define ATA_CMD_IDENTIFY 0xEC

#define IDE_MAJOR0 3
#define IDE_MAJOR1 22

struct ide_channel;

struct ide_drive {
	bool present;
	int unit;                       /* 0 master, 1 slave */
	uint32_t sectors;               /* LBA28 capacity */
	char model[41];
	bool dma;                       /* its requests go by DMA (else PIO) */
	/* Requests started each way, sectors moved: under the queue's lock, read without it by /proc/ide. */
	unsigned long dma_requests, pio_requests, moved;
	struct ide_channel *ch;
	struct gendisk disk;
};

struct ide_channel {
	uint16_t base, ctl;
	int irq, index;
	char name[8];                   /* "ide0" */
	struct request_queue queue;
	struct ide_drive drive[2];
	struct ide_dma dma;             /* its bus-master engine (dma.bm 0: none) */
	/* The request in flight and where it is; under queue.queue_lock. */
	struct request *rq;
	struct buffer_head *bh;         /* the buffer the next sector goes to or comes from */
	uint32_t bh_off;
	uint32_t left;                  /* sectors not yet moved */
	bool rq_dma;                    /* the request in flight goes by DMA */
};

static struct ide_channel channels[2] = {
	{ .base = 0x1F0, .ctl = 0x3F6, .irq = 14, .index = 0, .name = "ide0" },
	{ .base = 0x170, .ctl = 0x376, .irq = 15, .index = 1, .name = "ide1" },
};

static inline void insw(uint16_t port, void *buf, uint32_t words)
{
	__asm__ volatile("cld; rep insw" : "+D"(buf), "+c"(words) : "d"(port) : "memory");
}

static inline void outsw(uint16_t port, const void *buf, uint32_t words)
{
	__asm__ volatile("cld; rep outsw" : "+S"(buf), "+c"(words) : "d"(port) : "memory");
}

/* Poll until (status & mask) == want; false after about timeout_us (or a floating bus). */
static bool ide_poll(struct ide_channel *ch, uint8_t mask, uint8_t want, uint32_t timeout_us)
{
	for (uint32_t t = 0; t < timeout_us; t += 10) {
		uint8_t st = inb(ch->base + ATA_STATUS);

		if (st == 0xFF)
			return false;
		if ((st & mask) == want)
			return true;
		udelay(10);
	}
	return false;
}

/* ---- boot: IDENTIFY ------------------------------------------------------------------ */

/* The model string: ATA strings are words with their two bytes swapped, padded with spaces. */
static void ata_string(char *out, const uint16_t *id, int first, int words)
{
	int n = 0;

	for (int i = 0; i < words; i++) {
		out[n++] = (char)(id[first + i] >> 8);
		out[n++] = (char)(id[first + i] & 0xFF);
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

static bool ide_identify(struct ide_channel *ch, int unit, uint16_t *id)
{
	outb(ch->base + ATA_DEVICE, 0xA0 | (unit << 4));
	udelay(1);
	if (inb(ch->base + ATA_STATUS) == 0)
		return false;                   /* nobody there (QEMU answers 0 for an empty unit) */
	outb(ch->base + ATA_NSECT, 0);
	outb(ch->base + ATA_LBAL, 0);
	outb(ch->base + ATA_LBAM, 0);
	outb(ch->base + ATA_LBAH, 0);
	outb(ch->base + ATA_COMMAND, ATA_CMD_IDENTIFY);
	if (inb(ch->base + ATA_STATUS) == 0 || !ide_poll(ch, ATA_BSY, 0, 100000))
		return false;
	if (inb(ch->base + ATA_LBAM) || inb(ch->base + ATA_LBAH))
		return false;                   /* an ATAPI device (a CD-ROM) signs here: not ours */
	if (!ide_poll(ch, ATA_DRQ | ATA_ERR, ATA_DRQ, 100000))
		return false;
	insw(ch->base + ATA_DATA, id, 256);
	return true;
}

static void ide_probe_drive(struct ide_channel *ch, int unit)
{
	struct ide_drive *d = &ch->drive[unit];
	uint16_t id[256];

	if (!ide_identify(ch, unit, id))
		return;
	if (!(id[49] & (1 << 9))) {
		printk("ide: %s unit %d has no LBA: ignored\n", ch->name, unit);
		return;
	}
	d->sectors = (uint32_t)id[60] | (uint32_t)id[61] << 16;
	if (d->sectors == 0)
		return;
	ata_string(d->model, id, 27, 20);
	d->dma = ch->dma.bm && (id[49] & (1 << 8));     /* word 49 bit 8: the drive does DMA */
	d->unit = unit;
	d->ch = ch;
	d->present = true;
}

/* ---- the request path: start, and one sector per interrupt ---------------------------------- */

/* The next sector's place in the request's buffers. */
static char *ide_cursor(struct ide_channel *ch)
{
	return ch->bh->b_data + ch->bh_off;
}

static void ide_advance(struct ide_channel *ch)
{
	ch->bh_off += SECTOR_SIZE;
	if (ch->bh_off == ch->bh->b_size && ch->bh->b_reqnext) {
		ch->bh = ch->bh->b_reqnext;
		ch->bh_off = 0;
	}
	ch->left--;
}

static void ide_request_fn(struct request_queue *q);

/* The request in flight is over: give it back, start the next. Under queue_lock. */
static void ide_finish(struct ide_channel *ch, bool ok)
{
	struct request *rq = ch->rq;

	ch->rq = NULL;
	if (!ok)
		printk("ide: %s: %s error at sector %u, status %#x\n", ((struct gendisk *)rq->disk)->name,
		       rq->rw == WRITE ? "write" : "read", rq->sector, inb(ch->base + ATA_STATUS));
	blk_end_request(&ch->queue, rq, ok);
	ide_request_fn(&ch->queue);
}

/* Send a write's next sector. */
static void ide_out_sector(struct ide_channel *ch)
{
	outsw(ch->base + ATA_DATA, ide_cursor(ch), SECTOR_SIZE / 2);
	ide_advance(ch);
}

/* The task file: which drive, which sectors. */
static void ide_taskfile(struct ide_channel *ch, struct ide_drive *d, const struct request *rq)
{
	outb(ch->base + ATA_DEVICE, 0xE0 | (d->unit << 4) | ((rq->sector >> 24) & 0x0F));
	outb(ch->base + ATA_NSECT, (uint8_t)rq->nr_sectors);
	outb(ch->base + ATA_LBAL, (uint8_t)rq->sector);
	outb(ch->base + ATA_LBAM, (uint8_t)(rq->sector >> 8));
	outb(ch->base + ATA_LBAH, (uint8_t)(rq->sector >> 16));
}

static void ide_start(struct ide_channel *ch, struct request *rq)
{
	struct ide_drive *d = ((struct gendisk *)rq->disk)->private_data;

	ch->rq = rq;
	ch->bh = rq->bh;
	ch->bh_off = 0;
	ch->left = rq->nr_sectors;
	d->moved += rq->nr_sectors;
	ch->rq_dma = d->dma && ide_dma_setup(&ch->dma, rq);
	ide_taskfile(ch, d, rq);
	if (ch->rq_dma) {
		/* The whole request in one go: the controller interrupts when it is all moved. */
		d->dma_requests++;
		outb(ch->base + ATA_COMMAND, rq->rw == WRITE ? ATA_CMD_WRITE_DMA : ATA_CMD_READ_DMA);
		ide_dma_start(&ch->dma);
		return;
	}
	d->pio_requests++;
	outb(ch->base + ATA_COMMAND, rq->rw == WRITE ? ATA_CMD_WRITE : ATA_CMD_READ);
	if (rq->rw == WRITE) {
		/* A write's first sector goes out without an interrupt: the drive asks with DRQ at once. */
		if (!ide_poll(ch, ATA_BSY | ATA_DRQ, ATA_DRQ, 100000)) {
			ide_finish(ch, false);
			return;
		}
		ide_out_sector(ch);
	}
}

/* The queue's request_fn: start the next request unless one is in flight. Under queue_lock. */
static void ide_request_fn(struct request_queue *q)
{
	struct ide_channel *ch = q->queuedata;
	struct request *rq;

	if (ch->rq)
		return;         /* busy: the interrupt that ends this one starts the next */
	rq = blk_fetch_request(q);
	if (rq)
		ide_start(ch, rq);
}

static void ide_intr_channel(struct ide_channel *ch)
{
	uint8_t st;

	spin_lock(ch->queue.queue_lock);        /* interrupts are off in a handler */
	st = inb(ch->base + ATA_STATUS);        /* and this read lowers the drive's INTRQ */
	if (!ch->rq || (st & ATA_BSY)) {
		spin_unlock(ch->queue.queue_lock);
		return;         /* nothing in flight, or not for us yet */
	}
	if (ch->rq_dma) {
		int done = ide_dma_end(&ch->dma);       /* the engine's word first: is it over? */

		if (done >= 0)
			ide_finish(ch, done && !(st & (ATA_ERR | ATA_DF)));
	} else if (st & (ATA_ERR | ATA_DF)) {
		ide_finish(ch, false);
	} else if (ch->rq->rw == READ) {
		if (st & ATA_DRQ) {
			insw(ch->base + ATA_DATA, ide_cursor(ch), SECTOR_SIZE / 2);
			ide_advance(ch);
			if (ch->left == 0)
				ide_finish(ch, true);
		}
	} else if (ch->left > 0) {
		ide_out_sector(ch);     /* the drive took the last sector: here is the next */
	} else {
		ide_finish(ch, true);   /* the last sector is written */
	}
	spin_unlock(ch->queue.queue_lock);
}

static void ide_intr(int irq)
{
	ide_intr_channel(&channels[irq == channels[0].irq ? 0 : 1]);
}

/* ---- boot: disks, queues, interrupts -------------------------------------------------- */

static void ide_add_drive(struct ide_drive *d)
{
	struct ide_channel *ch = d->ch;
	struct gendisk *disk = &d->disk;

	snprintf(disk->name, sizeof(disk->name), "hd%c", 'a' + 2 * ch->index + d->unit);
	disk->major = ch->index == 0 ? IDE_MAJOR0 : IDE_MAJOR1;
	disk->first_minor = (unsigned)d->unit * 64;
	disk->queue = &ch->queue;
	disk->private_data = d;
	disk->part[0].nr_sects = d->sectors;
	printk("ide: %s: %s, %u sectors (%u MiB) on %s, %s\n", disk->name, d->model, d->sectors,
	       d->sectors / 2048, ch->name, d->dma ? "DMA" : "PIO");
	if (add_disk(disk) < 0)
		return;
	disk_make_nodes(disk);
}

static void ide_init_channel(struct ide_channel *ch)
{
	int cpu;

	outb(ch->ctl, ATA_NIEN);
	if (inb(ch->base + ATA_STATUS) == 0xFF)
		return;         /* a floating bus: no controller */
	ide_dma_init(&ch->dma, ch->index, ch->name);       /* before IDENTIFY: a drive's DMA needs the channel's */
	ide_probe_drive(ch, 0);
	ide_probe_drive(ch, 1);
	if (!ch->drive[0].present && !ch->drive[1].present)
		return;
	blk_init_queue(&ch->queue, ide_request_fn, ch->name);
	ch->queue.queuedata = ch;
	if (irq_request(ch->irq, ide_intr, ch->name) < 0) {
		printk("ide: %s: IRQ %d is not available: its disks are not used\n", ch->name, ch->irq);
		return;
	}
	/* Channel n's interrupt (and so its data moves) on CPU n, when there is one. */
	cpu = (cpu_online_mask() >> ch->index) & 1 ? ch->index : 0;
	irq_set_affinity(ch->irq, cpu);
	inb(ch->base + ATA_STATUS);
	outb(ch->ctl, 0);       /* interrupts on */
	for (int unit = 0; unit < 2; unit++)
		if (ch->drive[unit].present)
			ide_add_drive(&ch->drive[unit]);
}

void ide_init(void)
{
	for (int i = 0; i < 2; i++)
		ide_init_channel(&channels[i]);
}

static void proc_show_queues(struct procbuf *pb);

void proc_show_ide(struct procbuf *pb, void *arg)
{
	(void)arg;
	procbuf_printf(pb, "drive channel mode dma_requests pio_requests sectors\n");
	for (int c = 0; c < 2; c++) {
		for (int unit = 0; unit < 2; unit++) {
			const struct ide_drive *d = &channels[c].drive[unit];

			if (!d->present)
				continue;
			procbuf_printf(pb, "%s %s %s %lu %lu %lu\n", d->disk.name, channels[c].name,
				       d->dma ? "dma" : "pio", READ_ONCE(d->dma_requests), READ_ONCE(d->pio_requests),
				       READ_ONCE(d->moved));
		}
	}
	proc_show_queues(pb);
}

/*
 * The second table: each channel's request queue (drivers/block/blk_queue.h),
 * what its elevator and its plug did. Read without the queue's lock, as the
 * drives' counts are: each number is one word, the row not one instant's.
 */
static void proc_show_queues(struct procbuf *pb)
{
	procbuf_printf(pb, "\nqueue requests merges sectors plugs unplug_thresh unplug_timer unplug_wait\n");
	for (int c = 0; c < 2; c++) {
		const struct request_queue *q = &channels[c].queue;

		if (!q->queue_lock)
			continue;       /* no drive on the channel: no queue */
		procbuf_printf(pb, "%s %lu %lu %lu %lu %lu %lu %lu\n", channels[c].name, READ_ONCE(q->nr_requests),
			       READ_ONCE(q->nr_merges), READ_ONCE(q->nr_sectors), READ_ONCE(q->nr_plugs),
			       READ_ONCE(q->nr_unplugs[BLK_UNPLUG_THRESH_HIT]), READ_ONCE(q->nr_unplugs[BLK_UNPLUG_TIMER]),
			       READ_ONCE(q->nr_unplugs[BLK_UNPLUG_WAIT]));
	}
}
