/* RAM disks, /dev/ram0.. (see drivers/block/rd.c). */
#ifndef DRIVERS_BLOCK_RD_H
#define DRIVERS_BLOCK_RD_H

/* Make the RAM disks rd_nr= asks for, rd_size= KiB each: at boot, after the block lock's era is set. */
void rd_init(void);

#endif
