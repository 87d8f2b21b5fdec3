/* The block layer's start: its lock's era, the disks, the flusher (drivers/block/block.c). */
#ifndef DRIVERS_BLOCK_BLOCK_H
#define DRIVERS_BLOCK_BLOCK_H

void block_init(void);

#endif
