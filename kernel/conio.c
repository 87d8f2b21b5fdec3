/*
 * read() and write() until the VFS exists: fds 1 and 2 write to the console,
 * nothing reads. And readlink(), which glibc calls at start-up (for
 * /proc/self/exe): with no files at all, every path is missing.
 */
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/syscalls.h"
#include "kernel/uapi/errno.h"

#define CONIO_CHUNK 256

long sys_write(int fd, const void *ubuf, size_t count)
{
	char buf[CONIO_CHUNK + 1];
	size_t done = 0;

	if (fd != 1 && fd != 2)
		return -EBADF;
	if (!access_ok(ubuf, count))
		return -EFAULT;
	while (done < count) {
		size_t n = MIN(count - done, (size_t)CONIO_CHUNK), k = 0;

		if (copy_from_user(buf, (const char *)ubuf + done, n) < 0)
			return done ? (long)done : -EFAULT;
		/* One printk per chunk keeps a line whole even when other CPUs print. NULs are dropped. */
		for (size_t i = 0; i < n; i++)
			if (buf[i])
				buf[k++] = buf[i];
		buf[k] = '\0';
		printk("%s", buf);
		done += n;
	}
	return (long)done;
}

long sys_read(int fd, void *ubuf, size_t count)
{
	return -EBADF;                  /* no file descriptors yet: the VFS issue adds them */
}

long sys_readlink(const char *upath, char *ubuf, int size)
{
	char path[256];
	int r = strncpy_from_user(path, upath, sizeof(path));

	if (r < 0)
		return r;
	if (size <= 0)
		return -EINVAL;
	return -ENOENT;                 /* no file system yet: nothing exists, as Linux says of a missing file */
}
