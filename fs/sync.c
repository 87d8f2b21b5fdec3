/* sync and fsync: ramfs has nothing to write back, so both succeed at once (fsync checks its fd). */
#include "fs/fdtable.h"
#include "fs/file.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"

long sys_sync(void)
{
	return 0;
}

long sys_fsync(int fd)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	fput(f);
	return 0;
}

long sys_fdatasync(int fd)
{
	return sys_fsync(fd);
}
