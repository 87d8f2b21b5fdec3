/*
 * The PC's partition table, the MBR: four entries in the disk's first sector.
 * Only primary partitions (an extended one is skipped); an entry that does
 * not fit on the disk is ignored with a message, never trusted: the table is
 * whatever the image's maker wrote.
 */
#include "drivers/block/genhd.h"

#include "kernel/printk.h"
#include "kernel/uapi/errno.h"

#define MBR_TABLE 446           /* the four 16-byte entries */
#define MBR_SIGNATURE 510       /* 0x55, 0xAA */

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool is_extended(uint8_t type)
{
	return type == 0x05 || type == 0x0f || type == 0x85;
}

int msdos_partition(struct gendisk *disk)
{
	struct buffer_head *bh = bread(disk_devt(disk, 0), 0, 1024);
	const uint8_t *mbr;
	uint32_t cap = disk->part[0].nr_sects;

	if (!bh)
		return -EIO;
	mbr = (const uint8_t *)bh->b_data;
	if (mbr[MBR_SIGNATURE] != 0x55 || mbr[MBR_SIGNATURE + 1] != 0xAA) {
		brelse(bh);
		return -ENOENT;         /* no table: the whole disk is one device */
	}
	for (int i = 0; i < DISK_MAX_PARTS; i++) {
		const uint8_t *e = mbr + MBR_TABLE + 16 * i;
		uint32_t start = le32(e + 8), n = le32(e + 12);

		if (e[4] == 0 || is_extended(e[4]) || n == 0)
			continue;
		if (start == 0 || start >= cap || n > cap - start) {
			printk("block: %s%d: sectors %u+%u do not fit on the disk (%u): ignored\n",
			       disk->name, i + 1, start, n, cap);
			continue;
		}
		disk->part[i + 1].start_sect = start;
		disk->part[i + 1].nr_sects = n;
	}
	brelse(bh);
	return 0;
}
