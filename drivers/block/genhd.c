/* The registry of disks and partitions: device number -> disk, queue, sectors (see drivers/block/genhd.h). */
#include "drivers/block/genhd.h"

#include "fs/devfs/devfs.h"
#include "fs/proc/procbuf.h"
#include "kernel/lib/format.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

/*
 * Serializes the writers of disks[]. A disk is registered once at boot and
 * stays (but for the ktests' RAM disk, removed when no file has it open), so
 * a pointer read from disks[], with or without the lock, stays good.
 */
static spinlock_t genhd_lock = SPINLOCK_INIT("genhd_lock");
static struct gendisk *disks[MAX_DISKS];

dev_t disk_devt(const struct gendisk *disk, int partno)
{
	return SMPIX_MKDEV(disk->major, disk->first_minor + (unsigned)partno);
}

/*
 * Without genhd_lock: every submit_bh() looks its disk up here, and with the
 * lock this was the most contended lock of a two-disk run once the heap's
 * was split (1,499 contentions in 50,000 lookups). A slot is written once
 * (and cleared only for the ktests' RAM disk, whose struct is static), so a
 * pointer read from it always points at a whole gendisk.
 */
struct gendisk *get_gendisk(dev_t dev, int *partno)
{
	unsigned major = SMPIX_MAJOR(dev), minor = SMPIX_MINOR(dev);
	struct gendisk *found = NULL;

	for (int i = 0; i < MAX_DISKS && !found; i++) {
		struct gendisk *d = READ_ONCE(disks[i]);

		if (d && d->major == major && minor >= d->first_minor &&
		    minor <= d->first_minor + DISK_MAX_PARTS && d->part[minor - d->first_minor].nr_sects) {
			found = d;
			*partno = (int)(minor - d->first_minor);
		}
	}
	return found;
}

static int register_disk(struct gendisk *disk)
{
	int free = -1;

	spin_lock(&genhd_lock);
	for (int i = 0; i < MAX_DISKS; i++) {
		if (!disks[i]) {
			if (free < 0)
				free = i;
		} else if (disks[i]->major == disk->major && disks[i]->first_minor == disk->first_minor) {
			spin_unlock(&genhd_lock);
			return -EBUSY;
		}
	}
	if (free >= 0)
		WRITE_ONCE(disks[free], disk);    /* whole before it is seen: get_gendisk() reads without the lock */
	spin_unlock(&genhd_lock);
	return free >= 0 ? 0 : -ENOMEM;
}

int add_disk(struct gendisk *disk)
{
	int r;

	disk->part[0].start_sect = 0;
	for (int i = 1; i <= DISK_MAX_PARTS; i++)
		disk->part[i].nr_sects = 0;
	r = register_disk(disk);
	if (r < 0)
		return r;
	/* The table is read through the queue, so the disk must be registered (and its queue work) first. */
	r = msdos_partition(disk);
	if (r < 0 && r != -ENOENT)
		printk("block: %s: cannot read its partition table: error %d\n", disk->name, r);
	return 0;
}

void del_disk(struct gendisk *disk)
{
	spin_lock(&genhd_lock);
	for (int i = 0; i < MAX_DISKS; i++)
		if (disks[i] == disk)
			WRITE_ONCE(disks[i], NULL);
	spin_unlock(&genhd_lock);
}

void disk_make_nodes(struct gendisk *disk)
{
	char name[DISK_NAME_LEN + 4];

	for (int i = 0; i <= DISK_MAX_PARTS; i++) {
		if (!disk->part[i].nr_sects)
			continue;
		if (i == 0)
			snprintf(name, sizeof(name), "%s", disk->name);
		else
			snprintf(name, sizeof(name), "%s%d", disk->name, i);
		if (devfs_add_node(name, S_IFBLK | 0660, disk_devt(disk, i)) < 0)
			printk("block: cannot make /dev/%s\n", name);
	}
}

void proc_show_partitions(struct procbuf *pb, void *arg)
{
	(void)arg;
	procbuf_printf(pb, "major minor  #blocks  name\n\n");
	for (int i = 0; i < MAX_DISKS; i++) {
		struct gendisk *d = READ_ONCE(disks[i]);

		if (!d)
			continue;
		for (int p = 0; p <= DISK_MAX_PARTS; p++) {
			if (!d->part[p].nr_sects)
				continue;
			if (p == 0)
				procbuf_printf(pb, "%4u  %7u %10u %s\n", d->major, d->first_minor,
					       d->part[p].nr_sects / 2, d->name);
			else
				procbuf_printf(pb, "%4u  %7u %10u %s%d\n", d->major, d->first_minor + p,
					       d->part[p].nr_sects / 2, d->name, p);
		}
	}
}
