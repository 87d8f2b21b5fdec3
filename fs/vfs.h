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
/*
 * fork() and clone(): the child gets a copy of the parent's table (same
 * files), directory and umask; or, with share_files / share_fs (CLONE_FILES,
 * CLONE_FS), the very same table, or directory and umask.
 */
int vfs_proc_fork(struct task *parent, struct task *child, bool share_files, bool share_fs);
/*
 * execve(), before its point of no return, once the other threads are gone:
 * a table still shared with another process (clone with CLONE_FILES) becomes
 * t's own copy, as Linux's unshare_files(). 0 or -ENOMEM.
 */
int vfs_unshare_files(struct task *t);
/* execve(), past its point of no return: close the close-on-exec descriptors. */
void vfs_proc_exec(struct task *t);
/* exit: let go of the table (the last user closes every descriptor) and the directory. */
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
/* The inode path (a kernel string) names from dirfd, referenced: the walk of the *at() calls. */
int walk_at(int dirfd, const char *path, bool follow, struct inode **out);
/*
 * The start of the *at() calls that take AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH:
 * -EINVAL for other flags, the user's path copied in and walked from dirfd;
 * with AT_EMPTY_PATH, "" names dirfd's own file (the current directory for
 * AT_FDCWD), as Linux's user_path_at_empty(). The inode, referenced.
 */
int user_walk_at(int dirfd, const char *upath, int flags, struct inode **out);
/*
 * Make path (a kernel string) as a node of mode: a directory, a regular file,
 * a device node (rdev), or a symlink to target (target != NULL). With out, the
 * new inode, referenced (not for symlinks). -EEXIST if the name exists.
 */
int vfs_make_node(const struct walk_start *s, const char *path, uint32_t mode, uint32_t rdev,
		  const char *target, struct inode **out);
/* Give old (a non-directory) one more name, path (a kernel string): -EEXIST, -EXDEV, -EPERM... */
int vfs_link_node(const struct walk_start *s, const char *path, struct inode *old);
/* Copy a path from user space into a PATH_MAX kernel buffer (a page; putname() it): -EFAULT, -ENAMETOOLONG, -ENOENT for "". */
int getname(const char *upath, char **out);
void putname(char *name);

#endif
