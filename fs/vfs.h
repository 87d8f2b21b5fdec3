/*
 * The VFS's doors to the rest of the kernel: boot, and the per-process state
 * (descriptor table, current directory, umask) that fork, exec and exit
 * copy, trim and drop.
 */
#ifndef FS_VFS_H
#define FS_VFS_H

#include "fs/inode.h"
#include "kernel/types.h"

struct file;
struct task;
struct walk_start;

/* Mount ramfs as /, fill it from the initrd, mount devfs on /dev. Boot CPU, once. */
void vfs_init(void);

/* Give init its fds 0, 1, 2 (/dev/console, through the VFS) and / as its directory. */
int vfs_proc_init(struct task *t);
/* fork(): the child gets a copy of the parent's table (same files), directory and umask. */
int vfs_proc_fork(struct task *parent, struct task *child);
/* execve(), past its point of no return: close the close-on-exec descriptors. */
void vfs_proc_exec(struct task *t);
/* exit: close every descriptor, drop the directory. */
void vfs_proc_exit(struct task *t);

/* Open path (a kernel string, relative to the current directory) from inside the kernel. */
int vfs_open_kernel(const char *path, unsigned flags, struct file **out);
/*
 * Where a walk of path for the current process starts: "/" and, for a
 * relative path, dirfd's directory (AT_FDCWD: the current directory). Both
 * referenced: walk_start_put() when done. -EBADF, -ENOTDIR.
 */
int walk_start_get(int dirfd, const char *path, struct walk_start *s);
void walk_start_put(struct walk_start *s);
/*
 * Make path (a kernel string) as a node of mode: a directory, a regular file,
 * a device node (rdev), or a symlink to target (target != NULL). With out, the
 * new inode, referenced (not for symlinks). -EEXIST if the name exists.
 */
int vfs_make_node(const struct walk_start *s, const char *path, uint32_t mode, uint32_t rdev,
		  const char *target, struct inode **out);
/* Give old (a non-directory) one more name, path (a kernel string): -EEXIST, -EXDEV, -EPERM... */
int vfs_link_node(const struct walk_start *s, const char *path, struct inode *old);
/* Copy a path from user space into a PATH_MAX kernel buffer (kmalloc'd; kfree it): -EFAULT, -ENAMETOOLONG, -ENOENT for "". */
int getname(const char *upath, char **out);

#endif
