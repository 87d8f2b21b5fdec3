/* Block device files: /dev/hda and its partitions opened, read and written through the buffer cache. */
#ifndef FS_BLOCK_DEV_H
#define FS_BLOCK_DEV_H

/* What an open of a block-device node (S_IFBLK) uses (fs/open.c). */
extern const struct file_operations blkdev_fops;

#endif
