/*
 * Disks and their partitions: the registry that turns a device number
 * (/dev/hda1 is 3:1) into a disk, its request queue and a range of sectors.
 * A driver fills a struct gendisk and calls add_disk(), which reads the MBR
 * (drivers/block/partitions.c) and makes /dev nodes. Linux 2.6's
 * include/linux/genhd.h, smaller. See docs/block.md.
 */
#ifndef DRIVERS_BLOCK_GENHD_H
#define DRIVERS_BLOCK_GENHD_H

#include "fs/buffer.h"
#include "kernel/types.h"

struct procbuf;
struct request_queue;

#define DISK_MAX_PARTS 4        /* the MBR's primary partitions: minors 1..4 after the disk's */
#define DISK_NAME_LEN 8
#define MAX_DISKS 8

struct hd_struct {
	uint32_t start_sect;    /* from the start of the whole disk */
	uint32_t nr_sects;      /* 0: no such partition */
	int opens;              /* open files of it; under the BKL (or bdev_mutex), fs/block_dev.c */
};

struct gendisk {
	unsigned major, first_minor;    /* the disk is (major, first_minor), its partitions the next minors */
	char name[DISK_NAME_LEN];       /* "hda"; its partitions "hda1".. */
	struct request_queue *queue;
	void *private_data;             /* the driver's */
	/* part[0] is the whole disk; set its nr_sects (the capacity) before add_disk(). */
	struct hd_struct part[1 + DISK_MAX_PARTS];
};

/* Register disk, read its partition table. 0, -EBUSY (numbers taken) or -ENOMEM (too many disks). */
int add_disk(struct gendisk *disk);
/* Forget it again (the ktests' RAM disk); nobody may have it open. */
void del_disk(struct gendisk *disk);
/* Make /dev/NAME and /dev/NAMEn, block devices, for disk and its partitions. */
void disk_make_nodes(struct gendisk *disk);
/* The disk holding dev, and which part of it (0: all of it); NULL if none. */
struct gendisk *get_gendisk(dev_t dev, int *partno);
/* Read the MBR of disk into disk->part[1..] (drivers/block/partitions.c). 0 or -errno. */
int msdos_partition(struct gendisk *disk);
/* /proc/partitions, in Linux's format. */
void proc_show_partitions(struct procbuf *pb, void *arg);
/* The device number of disk's part partno. */
dev_t disk_devt(const struct gendisk *disk, int partno);

#endif
