/* The block layer's start at boot: the era's lock, plugging, the IDE and RAM disks, and the write-back of their buffers. */
#include "drivers/block/block.h"

#include "drivers/block/blk_lock.h"
#include "drivers/block/blk_queue.h"
#include "drivers/block/ide.h"
#include "drivers/block/rd.h"
#include "fs/flusher.h"
#include "kernel/x86/power.h"

void block_init(void)
{
	blk_lock_init();        /* before the first queue: it takes the era's lock */
	blk_plug_init();        /* blk_plug=, and kblockd, before the first buffer is submitted */
	ide_init();             /* /dev/hda.. and their partitions */
	rd_init();              /* /dev/ram0.., if rd_nr= asks */
	flusher_start();
	power_off_set_prepare(flusher_sync_before_power_off);
}
