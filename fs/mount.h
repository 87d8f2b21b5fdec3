/*
 * Mounts: file system instances and where they hang in the tree.
 *
 * A file system type (ramfs, devfs, procfs) is a name and a fill() function
 * that builds a new instance's root inode. vfs_mount() makes the instance and
 * covers a directory with it; the path walk (fs/namei.c) then steps from the
 * covered directory into the instance's root, and from that root's ".." back
 * out to the covered directory's parent. There are no bind mounts: each
 * instance is mounted exactly once, so an inode's i_mnt says where it is.
 */
#ifndef FS_MOUNT_H
#define FS_MOUNT_H

#include "kernel/list.h"
#include "kernel/types.h"

struct inode;
struct mount;

struct filesystem_type {
	const char *name;               /* as /proc/mounts shows it: "ramfs", "devfs", "proc" */
	/* Build the instance: set m->root to a referenced directory inode (i_mnt = m), m->fs_private. */
	int (*fill)(struct mount *m);
};

struct mount {
	const struct filesystem_type *type;
	struct inode *root;             /* referenced while mounted */
	struct inode *covered;          /* the directory it is mounted on (referenced); NULL for / */
	struct mount *parent;           /* the mount covered lives on; NULL for / */
	char path[64];                  /* where, for /proc/mounts */
	uint32_t dev;                   /* st_dev of its files: SMPIX_MKDEV(0, n), n counting mounts from 1 */
	void *fs_private;               /* the file system's per-instance data */
	uint32_t next_ino;              /* inode numbers handed out by mount_new_ino() */
	struct list_head link;          /* on the mount list */
};

/* Mount the root file system (ramfs). Once, at boot. */
void vfs_mount_root(const struct filesystem_type *type);
/* Mount a new instance of type on the directory at path (absolute): 0 or -errno (ENOENT, ENOTDIR, EBUSY). */
int vfs_mount(const struct filesystem_type *type, const char *path);
/* The mount whose covered directory is dir (I_MOUNTPOINT set), or NULL. */
struct mount *mount_on(struct inode *dir);
/* The root mount and its root directory (referenced by the mount). */
struct mount *mount_root(void);
/* A fresh inode number in m. */
uint32_t mount_new_ino(struct mount *m);
/* Call fn for each mount, root first, in mount order (for /proc/mounts). Stops at non-zero. */
int mount_for_each(int (*fn)(const struct mount *m, void *arg), void *arg);

#endif
