/*
 * sync, fsync, fdatasync and syncfs: write the buffer cache back (fs/buffer.c).
 * sync(2) writes every dirty buffer and waits for them, as Linux has done since
 * 1.3.20 (it only started the writes before). fsync(2) asks the file's own
 * fsync(): a block device writes its dirty buffers; ramfs has none (NULL:
 * nothing to do). syncfs(2) writes the buffers of the file's file system; the
 * file systems on disks that would name their device are yet to come, so for
 * now it writes all of them, which is more than it must and never less.
 */
#include "fs/buffer.h"
#include "fs/fdtable.h"
#include "fs/file.h"
#include "fs/mount.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"

long sys_sync(void)
{
	sync_filesystems();     /* dirty inodes (atimes) into their buffers first */
	sync_all_buffers();     /* sync(2) reports nothing, as Linux's */
	return 0;
}

/*
 * mount -o dirsync (or sync): a directory change is on the disk when its call
 * returns, as Linux's IS_DIRSYNC() paths write the directory's page and
 * inode. smpix writes every dirty inode and buffer: more than the one
 * directory (and the inode it names), never less, and a directory change is
 * rare enough on such a mount that the whole cache is a small price.
 */
void dirsync_after(struct inode *dir)
{
	if (!mount_dirsync(dir))
		return;
	sync_filesystems();
	sync_all_buffers();
}

long sys_fsync(int fd)
{
	struct file *f = fd_get(fd);
	long r = 0;

	if (!f)
		return -EBADF;
	if (f->f_op && f->f_op->fsync)
		r = f->f_op->fsync(f);
	fput(f);
	return r;
}

long sys_fdatasync(int fd)
{
	return sys_fsync(fd);
}

long sys_syncfs(int fd)
{
	struct file *f = fd_get(fd);
	long r;

	if (!f)
		return -EBADF;
	sync_filesystems();
	r = sync_all_buffers();
	fput(f);
	return r;
}
