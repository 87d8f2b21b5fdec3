/*
 * The character-device registry: (major, minor) -> a driver's
 * file_operations. Registering a device also makes its node in devfs
 * (/dev/NAME, "cpu/0/cpuid" makes the directories too); a device node made
 * with mknod anywhere opens through this same table, so the two kinds of
 * node behave alike. Opening a node with no driver answers -ENXIO.
 */
#ifndef FS_CHRDEV_H
#define FS_CHRDEV_H

#include "kernel/types.h"

struct file_operations;
struct file;

#define CHRDEV_MAX 64           /* registered devices */

/*
 * Register fops for (major, minor) and make /dev/name (mode 0600 | S_IFCHR
 * unless mode says otherwise: pass 0 for the default). -EBUSY if the number or
 * the name is taken, -ENOMEM, -EINVAL for a bad name. May be called before
 * devfs is mounted: the node appears when it is.
 */
int chrdev_register(unsigned major, unsigned minor, const char *name,
		    const struct file_operations *fops);
int chrdev_register_mode(unsigned major, unsigned minor, const char *name, uint32_t mode,
			 const struct file_operations *fops);
/* What a character-device node's open() starts with: chrdev_open() finds the driver and hands over. */
extern const struct file_operations chrdev_fops;
/* The driver registered for rdev (SMPIX_MKDEV), or NULL. */
const struct file_operations *chrdev_lookup(uint32_t rdev);
/* The minor number of an open device file (for drivers with several minors). */
unsigned chrdev_minor(const struct file *f);
/* devfs (fs/devfs/devfs.c) asks for the nodes of devices registered before it was mounted. */
int chrdev_for_each(int (*fn)(unsigned major, unsigned minor, const char *name, uint32_t mode,
			      void *arg), void *arg);

#endif
