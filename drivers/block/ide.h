/* The PC's IDE (ATA) disks: PIIX's two channels, PIO, interrupt-driven (see drivers/block/ide.c). */
#ifndef DRIVERS_BLOCK_IDE_H
#define DRIVERS_BLOCK_IDE_H

/* Find the disks on both channels, make their queues, /dev nodes and partitions. */
void ide_init(void);

#endif
