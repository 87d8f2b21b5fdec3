/*
 * ioctl(2), the first step of sys_ioctl -> vfs_ioctl -> f_op->ioctl, one
 * file each: here the descriptor becomes a file; fs/ioctl/vfs_ioctl.c answers the
 * generic commands and decides whether the driver's ioctl runs under the
 * BKL (the May 2004 mail's question); the driver does the rest.
 */
#include "fs/fdtable.h"
#include "fs/file.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"

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
