/*
 * Bus-master DMA on the PIIX IDE controller (PCI class 01, subclass 01; PIIX3
 * in QEMU's "pc" machine). The controller's BAR4 is 16 I/O ports, eight per
 * channel: command (start bit, direction), status (active, error,
 * interrupt), and the physical address of a PRD table. A PRD (physical
 * region descriptor) names one piece of memory: a 32-bit physical address, a
 * byte count (0 means 64 KiB), and bit 15 of its last word on the table's
 * last entry; no piece may cross a 64 KiB boundary.
 *
 * Why bother under QEMU: with PIO every 16-bit word of a sector is an `insw`
 * or `outsw` port access, and under TCG each one leaves the guest's code for
 * QEMU's IDE model with QEMU's global lock (the BQL) held, 256 times a
 * sector, so two vCPUs moving sectors for two disks take turns on that one
 * lock whatever smpix's own locks allow. With DMA a whole request (up to
 * 64 KiB) is a dozen port accesses; QEMU copies the data outside the vCPUs
 * (docs/block.md, "PIO and DMA under QEMU").
 *
 * No bounce buffer: a buffer's b_data comes from kmalloc(), which hands out
 * pieces of one page or runs of contiguous pages of the direct map, so each
 * buffer is physically contiguous below 768 MiB; a buffer that happens to
 * cross a 64 KiB line becomes two PRDs.
 *
 * Linux's drivers/ide/ide-dma.c (ide_build_dmatable, ide_dma_setup,
 * __ide_dma_end) does the same.
 */
#include "drivers/block/ide_dma.h"

#include "drivers/pci/pci.h"
#include "kernel/cmdline.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/printk.h"
#include "kernel/x86/x86.h"

/* Bus-master registers, from the channel's base. */
#define BM_COMMAND 0
#define BM_STATUS  2
#define BM_PRD     4

#define BM_CMD_START 0x01
#define BM_CMD_READ  0x08       /* the engine writes memory: a disk read */

#define BM_ST_ACTIVE 0x01
#define BM_ST_ERR    0x02       /* write 1 to clear */
#define BM_ST_INTR   0x04       /* write 1 to clear */
#define BM_ST_CAPABLE 0x60      /* drive 0 and 1 can DMA: the firmware's, read and written back as they are */

#define PRD_EOT   0x8000
#define PRD_MAX   (PAGE_SIZE / sizeof(struct ide_prd))

/* The controller's BAR4, found once for both channels (0: none). */
static uint16_t bm_base;
static bool probed;

static uint16_t ide_dma_probe(void)
{
	struct pci_dev d;
	uint32_t bar;

	if (!pci_find_class(0x01, 0x01, &d))
		return 0;
	bar = pci_read32(&d, PCI_BAR0 + 4 * 4);
	if (!(bar & 1) || (bar & 0xFFFC) == 0) {
		printk("ide: PCI %02x:%02x.%u (%04x:%04x) has no bus-master ports: PIO\n", d.bus, d.dev, d.fn,
		       d.vendor, d.device);
		return 0;
	}
	/* Bus mastering on: without it QEMU (as a real bus) ignores the engine's memory accesses. */
	pci_write16(&d, PCI_COMMAND, pci_read16(&d, PCI_COMMAND) | PCI_COMMAND_IO | PCI_COMMAND_MASTER);
	printk("ide: PCI %02x:%02x.%u (%04x:%04x), bus master at %#x\n", d.bus, d.dev, d.fn, d.vendor, d.device,
	       bar & 0xFFFC);
	return (uint16_t)(bar & 0xFFFC);
}

bool ide_dma_init(struct ide_dma *dma, int index, const char *name)
{
	physaddr_t pa;

	dma->bm = 0;
	if (cmdline_get_uint("ide_dma", 1) == 0)
		return false;
	if (!probed) {
		bm_base = ide_dma_probe();
		probed = true;
	}
	if (!bm_base)
		return false;
	pa = pmm_alloc_page();
	if (!pa) {
		printk("ide: %s: no page for the PRD table: PIO\n", name);
		return false;
	}
	dma->prd = P2V(pa);
	dma->prd_phys = (uint32_t)pa;
	dma->bm = (uint16_t)(bm_base + 8 * index);
	/*
	 * Every port access is a trip into QEMU under its global lock (above), so
	 * the engine is set up here once: the table's address never changes, and
	 * the status's "drive can DMA" bits (5, 6, the firmware's) are kept in
	 * st_keep to write back with each clear, instead of read each time.
	 */
	dma->cmd = 0;
	outb(dma->bm + BM_COMMAND, 0);
	outl(dma->bm + BM_PRD, dma->prd_phys);
	dma->st_keep = inb(dma->bm + BM_STATUS) & BM_ST_CAPABLE;
	outb(dma->bm + BM_STATUS, dma->st_keep | BM_ST_ERR | BM_ST_INTR);
	return true;
}

static uint32_t prd_len(const struct ide_prd *p)
{
	return p->count ? p->count : PRD_LIMIT;
}

int ide_prd_add(struct ide_prd *prd, unsigned max, int n, uint32_t phys, uint32_t len)
{
	while (len) {
		uint32_t chunk = PRD_LIMIT - (phys & (PRD_LIMIT - 1));

		if (chunk > len)
			chunk = len;
		if (n > 0 && prd[n - 1].addr + prd_len(&prd[n - 1]) == phys && (phys & (PRD_LIMIT - 1)) != 0) {
			/* Right after the last piece, in its 64 KiB window: one entry (a whole window is 0). */
			prd[n - 1].count = (uint16_t)(prd_len(&prd[n - 1]) + chunk);
		} else {
			if ((unsigned)n == max)
				return -1;
			prd[n].addr = phys;
			prd[n].count = (uint16_t)chunk;
			prd[n].flags = 0;
			n++;
		}
		phys += chunk;
		len -= chunk;
	}
	return n;
}

bool ide_dma_setup(struct ide_dma *dma, const struct request *rq)
{
	int n = 0;

	for (struct buffer_head *bh = rq->bh; bh; bh = bh->b_reqnext) {
		uintptr_t va = (uintptr_t)bh->b_data;

		if (va < KERNEL_BASE || va - KERNEL_BASE >= DIRECT_MAP_MAX || (va & 1) || (bh->b_size & 1))
			return false;           /* not in the direct map, or odd: PIO can still do it */
		n = ide_prd_add(dma->prd, PRD_MAX, n, (uint32_t)V2P(va), bh->b_size);
		if (n < 0)
			return false;
	}
	if (n == 0)
		return false;
	dma->prd[n - 1].flags = PRD_EOT;
	/*
	 * The table and (for a write) the data must be in memory before the
	 * engine reads them. The engine is stopped and its status clear: at
	 * boot, and by ide_dma_end() after every request.
	 */
	__asm__ volatile("" ::: "memory");
	dma->cmd = rq->rw == READ ? BM_CMD_READ : 0;
	outb(dma->bm + BM_COMMAND, dma->cmd);
	return true;
}

void ide_dma_start(struct ide_dma *dma)
{
	outb(dma->bm + BM_COMMAND, dma->cmd | BM_CMD_START);
}

int ide_dma_end(struct ide_dma *dma)
{
	uint8_t st = inb(dma->bm + BM_STATUS);

	if (!(st & (BM_ST_INTR | BM_ST_ERR)))
		return -1;      /* the engine has not finished: an interrupt not for this request */
	outb(dma->bm + BM_COMMAND, dma->cmd);           /* the start bit off: stopped */
	outb(dma->bm + BM_STATUS, dma->st_keep | BM_ST_ERR | BM_ST_INTR);
	__asm__ volatile("" ::: "memory");              /* a read's data is there from now on */
	return !(st & BM_ST_ERR);
}
