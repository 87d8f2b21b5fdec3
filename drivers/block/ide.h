/* The PC's IDE (ATA) disks: PIIX's two channels, DMA or PIO, interrupt-driven (see drivers/block/ide.c). */
#ifndef DRIVERS_BLOCK_IDE_H
#define DRIVERS_BLOCK_IDE_H

/* Find the disks on both channels, make their queues, /dev nodes and partitions. */
void ide_init(void);

struct procbuf;
/* /proc/ide: each disk's channel, transfer mode (dma or pio) and requests started each way. */
void proc_show_ide(struct procbuf *pb, void *arg);

#endif
