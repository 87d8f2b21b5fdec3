/* devfs: /dev, a ramfs whose device nodes appear as drivers register (fs/devfs/chrdev.c). */
#ifndef FS_DEVFS_H
#define FS_DEVFS_H

#include "kernel/types.h"

/* Mount devfs on /dev and make the nodes of the devices registered so far. */
int devfs_mount(void);
/* Make /dev/name ("cpu/0/cpuid": with its directories) as a device node; nothing before devfs_mount(). */
int devfs_add_node(const char *name, uint32_t mode, uint32_t rdev);

#endif
