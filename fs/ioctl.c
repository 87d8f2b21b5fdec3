/*
 * ioctl: sys_ioctl -> vfs_ioctl -> f_op->ioctl, one job per step.
 * sys_ioctl finds the file; vfs_ioctl answers the commands every file has
 * (close-on-exec, non-blocking mode, bytes readable) and hands the rest to
 * the driver. This is the path the May 2004 mail was about: in Linux 2.6.6
 * the driver's ioctl ran under the BKL. The drivers issue adds that decision
 * (FOP_UNLOCKED_IOCTL and the ioctl= policy) here, in vfs_ioctl.
 */
#include "fs/fdtable.h"
#include "fs/file.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscalls.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/ioctls.h"
#include "kernel/uapi/stat.h"

/* FIONREAD: what a read would return now. */
static long ioctl_fionread(struct file *f, unsigned long arg)
{
	struct inode *inode = f->f_inode;
	loff_t n;

	if (f->f_op && f->f_op->nread)
		n = f->f_op->nread(f);
	else if (S_ISREG(inode->i_mode))
		n = READ_ONCE(inode->i_size) - f->f_pos;
	else
		return -ENOTTY;
	if (n < 0)
		n = 0;
	if (n > 0x7FFFFFFF)
		n = 0x7FFFFFFF;
	return put_user_u32((void *)arg, (uint32_t)n);
}

/* FIONBIO: set or clear O_NONBLOCK, as fcntl(F_SETFL) would. */
static long ioctl_fionbio(struct file *f, unsigned long arg)
{
	uint32_t on;

	if (get_user_u32(&on, (const void *)arg) < 0)
		return -EFAULT;
	if (on)
		__atomic_fetch_or(&f->f_flags, O_NONBLOCK, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&f->f_flags, ~(unsigned)O_NONBLOCK, __ATOMIC_RELAXED);
	return 0;
}

long vfs_ioctl(struct file *f, int fd, unsigned cmd, unsigned long arg)
{
	switch (cmd) {
	case FIOCLEX:
		return fd_set_cloexec(fd, true);
	case FIONCLEX:
		return fd_set_cloexec(fd, false);
	case FIONBIO:
		return ioctl_fionbio(f, arg);
	case FIONREAD:
		if (!f->f_op || !f->f_op->ioctl || f->f_op->nread || S_ISREG(f->f_inode->i_mode))
			return ioctl_fionread(f, arg);
		break;
	}
	if (!f->f_op || !f->f_op->ioctl)
		return -ENOTTY;
	return f->f_op->ioctl(f, cmd, arg);
}

long sys_ioctl(int fd, unsigned cmd, unsigned long arg)
{
	struct file *f = fd_get(fd);
	long r;

	if (!f)
		return -EBADF;
	r = vfs_ioctl(f, fd, cmd, arg);
	fput(f);
	return r;
}
