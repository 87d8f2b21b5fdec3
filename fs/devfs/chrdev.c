/* The character-device registry: (major, minor) to a driver's file_operations (see fs/devfs/chrdev.h). */
#include "fs/devfs/chrdev.h"

#include "fs/devfs/devfs.h"
#include "fs/file.h"
#include "kernel/locking/bkl.h"
#include "kernel/lib/string.h"
#include "kernel/locking/spinlock.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

#define CHRDEV_NAME_LEN 32

struct chrdev {
	uint32_t rdev;                  /* SMPIX_MKDEV(major, minor) */
	uint32_t mode;
	char name[CHRDEV_NAME_LEN];
	const struct file_operations *fops;
};

/* Protects devices[] and ndevices. Entries are never removed, so a fops pointer read under it stays good. */
static spinlock_t chrdev_lock = SPINLOCK_INIT("chrdev");
static struct chrdev devices[CHRDEV_MAX];
static int ndevices;

int chrdev_register_mode(unsigned major, unsigned minor, const char *name, uint32_t mode,
			 const struct file_operations *fops)
{
	uint32_t rdev = SMPIX_MKDEV(major, minor);
	struct chrdev *d;
	int r;

	if (!name || !name[0] || name[0] == '/' || strlen(name) >= CHRDEV_NAME_LEN || !fops ||
	    major > 0xfff || minor > 0xff)
		return -EINVAL;
	mode = S_IFCHR | (mode ? mode & 07777 : 0600);
	spin_lock(&chrdev_lock);
	for (int i = 0; i < ndevices; i++) {
		if (devices[i].rdev == rdev || strcmp(devices[i].name, name) == 0) {
			spin_unlock(&chrdev_lock);
			return -EBUSY;
		}
	}
	if (ndevices == CHRDEV_MAX) {
		spin_unlock(&chrdev_lock);
		return -ENOMEM;
	}
	d = &devices[ndevices];
	d->rdev = rdev;
	d->mode = mode;
	strlcpy(d->name, name, sizeof(d->name));
	d->fops = fops;
	ndevices++;
	spin_unlock(&chrdev_lock);
	/* The node is made without the lock: creating it may sleep (i_mutex). */
	r = devfs_add_node(name, mode, rdev);
	return r == -EEXIST ? 0 : r;
}

int chrdev_register(unsigned major, unsigned minor, const char *name, const struct file_operations *fops)
{
	return chrdev_register_mode(major, minor, name, 0, fops);
}

const struct file_operations *chrdev_lookup(uint32_t rdev)
{
	const struct file_operations *fops = NULL;

	spin_lock(&chrdev_lock);
	for (int i = 0; i < ndevices; i++)
		if (devices[i].rdev == rdev)
			fops = devices[i].fops;
	spin_unlock(&chrdev_lock);
	return fops;
}

/*
 * make ERA=2.6.39: the BKL around a driver's open() became this mutex of the
 * chrdev layer's own, which serializes the same opens and nothing else. (In
 * Linux the BKL went from chrdev_open() into each driver's open() in 2008,
 * then into each driver's own mutex.) Unlike the BKL it is not let go while
 * an open() sleeps.
 */
DEFINE_OWN_MUTEX(chrdev_open_mutex);

/*
 * The open() of every character-device node, wherever it lives: find the
 * driver by the node's number, make its file_operations the file's own, and
 * let it open. Linux 2.6 does the same in chrdev_open() (fs/char_dev.c).
 * The driver's open() runs under the BKL, as it did in 2.6.6 ("The Big
 * Kernel Lock lives on", 2004: char drivers' open() was called with it held,
 * their release() was not; smpix's release path takes no BKL either), or
 * in make ERA=2.6.39 under chrdev_open_mutex.
 */
static int chrdev_open(struct inode *inode, struct file *f)
{
	const struct file_operations *fops = chrdev_lookup(inode->i_rdev);
	int r = 0;

	if (!fops)
		return -ENXIO;
	f->f_op = fops;
	if (fops->open) {
		lock_kernel_or(&chrdev_open_mutex);
		r = fops->open(inode, f);
		unlock_kernel_or(&chrdev_open_mutex);
	}
	return r;
}

const struct file_operations chrdev_fops = {
	.name = "chrdev",
	.open = chrdev_open,
};

unsigned chrdev_minor(const struct file *f)
{
	return SMPIX_MINOR(f->f_inode->i_rdev);
}

int chrdev_for_each(int (*fn)(unsigned major, unsigned minor, const char *name, uint32_t mode,
			      void *arg), void *arg)
{
	for (int i = 0; ; i++) {
		struct chrdev d;
		int r;

		spin_lock(&chrdev_lock);
		if (i >= ndevices) {
			spin_unlock(&chrdev_lock);
			return 0;
		}
		d = devices[i];
		spin_unlock(&chrdev_lock);
		r = fn(SMPIX_MAJOR(d.rdev), SMPIX_MINOR(d.rdev), d.name, d.mode, arg);
		if (r)
			return r;
	}
}
