/*
 * stat64, lstat64, fstat64, fstatat64: an inode described in Linux i386's
 * struct stat64. statx is not here: its number answers -ENOSYS, and real
 * libcs then fall back to fstatat64.
 */
#include "fs/fdtable.h"
#include "fs/file.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/stat.h"

static void fill_stat(struct inode *inode, struct stat64 *st)
{
	memset(st, 0, sizeof(*st));
	spin_lock(&inode->i_lock);      /* one consistent view of mode, links and times */
	st->st_mode = inode->i_mode;
	st->st_nlink = inode->i_nlink;
	st->st_atime = inode->i_atime;
	st->st_mtime = inode->i_mtime;
	st->st_ctime = inode->i_ctime;
	spin_unlock(&inode->i_lock);
	st->st_dev = inode->i_mnt ? inode->i_mnt->dev : 0;
	st->st_ino = inode->i_ino;
	st->__st_ino = inode->i_ino;
	st->st_uid = inode->i_uid;
	st->st_gid = inode->i_gid;
	st->st_rdev = inode->i_rdev;
	st->st_size = READ_ONCE(inode->i_size);
	st->st_blksize = 4096;
	st->st_blocks = S_ISREG(st->st_mode) ? ((uint64_t)st->st_size + 511) / 512 : 0;
}

static long stat_to_user(struct inode *inode, void *ubuf)
{
	struct stat64 st;

	fill_stat(inode, &st);
	return copy_to_user(ubuf, &st, sizeof(st)) < 0 ? -EFAULT : 0;
}

long sys_fstat64(int fd, void *ubuf)
{
	struct file *f = fd_get(fd);
	long r;

	if (!f)
		return -EBADF;
	r = stat_to_user(f->f_inode, ubuf);
	fput(f);
	return r;
}

long sys_fstatat64(int dirfd, const char *upath, void *ubuf, int flags)
{
	struct inode *inode;
	int r = user_walk_at(dirfd, upath, flags, &inode);

	if (r < 0)
		return r;
	r = stat_to_user(inode, ubuf);
	iput(inode);
	return r;
}

long sys_stat64(const char *upath, void *ubuf)
{
	return sys_fstatat64(AT_FDCWD, upath, ubuf, 0);
}

long sys_lstat64(const char *upath, void *ubuf)
{
	return sys_fstatat64(AT_FDCWD, upath, ubuf, AT_SYMLINK_NOFOLLOW);
}
