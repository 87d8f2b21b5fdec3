/*
 * Bus-master DMA for the PIIX IDE channels (drivers/block/ide_dma.c): the
 * controller moves a request's sectors between the disk and memory itself,
 * from a table of physical regions, and interrupts once at the end.
 */
#ifndef DRIVERS_BLOCK_IDE_DMA_H
#define DRIVERS_BLOCK_IDE_DMA_H

#include "drivers/block/blk_queue.h"
#include "kernel/types.h"

#define PRD_LIMIT 0x10000u      /* 64 KiB: the most one PRD moves, and the line none may cross */

/* A physical region descriptor, as the controller reads it. */
struct ide_prd {
	uint32_t addr;
	uint16_t count;         /* bytes; 0 is 64 KiB */
	uint16_t flags;         /* bit 15 on the table's last entry */
} __attribute__((packed));

/* One channel's bus-master engine. */
struct ide_dma {
	uint16_t bm;                    /* its registers (BAR4, + 8 for channel 1); 0: no DMA on this channel */
	struct ide_prd *prd;            /* its PRD table: one page */
	uint32_t prd_phys;
	uint8_t cmd;                    /* the command register as last written, start bit aside */
	uint8_t st_keep;                /* the status's drive-capable bits, written back as they were */
};

/*
 * Find the PCI IDE controller and its bus-master registers for channel
 * index (0, 1), turn bus mastering on, make the PRD table. False (dma->bm
 * stays 0) when there is none, or the boot word ide_dma=0 says PIO.
 */
bool ide_dma_init(struct ide_dma *dma, int index, const char *name);

/*
 * Describe rq's buffers in the PRD table and arm the engine for its
 * direction; the caller then sends READ/WRITE DMA and ide_dma_start().
 * False if the buffers cannot be described (the caller uses PIO instead).
 */
bool ide_dma_setup(struct ide_dma *dma, const struct request *rq);

/* Let the engine go: after the command is sent. */
void ide_dma_start(struct ide_dma *dma);

/*
 * Append the memory [phys, phys + len) to a table of max entries that has n:
 * joined to the last entry when it follows it in the same 64 KiB window, cut
 * where it crosses a 64 KiB line. The new number of entries, or -1 if the
 * table is full. (For the tests too: kernel/tests/ide_dma_test.c.)
 */
int ide_prd_add(struct ide_prd *prd, unsigned max, int n, uint32_t phys, uint32_t len);

/*
 * From the interrupt: -1 if the engine has not finished (the interrupt is
 * not its own; nothing is touched), else stop it and clear its status: 1 if
 * all moved, 0 if it reports an error (Linux's __ide_dma_end).
 */
int ide_dma_end(struct ide_dma *dma);

#endif
