/*
 * read, write and seek: the checks every file gets, then its f_op.
 * sys_read() -> vfs_read() -> f_op->read(), one step each. And sendfile,
 * which is a read and a write inside the kernel (here, as in Linux).
 */
#include "fs/atime.h"
#include "fs/file.h"
#include "fs/mount.h"
#include "kernel/locking/bkl.h"

#include "fs/fdtable.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/stat.h"
#include "kernel/uapi/uio.h"

#define RW_MAX 0x7FFFF000u      /* Linux's MAX_RW_COUNT: longer calls are cut to this */
#define LOFF_MAX 0x7FFFFFFFFFFFFFFFll

/* Regular files and directories keep a position that every sharer of the file sees move by whole calls. */
static bool has_pos_lock(struct file *f)
{
	uint32_t m = f->f_inode->i_mode;

	return S_ISREG(m) || S_ISDIR(m);
}

static void pos_lock(struct file *f)
{
	if (has_pos_lock(f))
		mutex_lock(&f->f_pos_lock);
}

static void pos_unlock(struct file *f)
{
	if (has_pos_lock(f))
		mutex_unlock(&f->f_pos_lock);
}

ssize_t vfs_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	ssize_t r;

	if ((f->f_flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (S_ISDIR(f->f_inode->i_mode))
		return -EISDIR;
	if (!f->f_op || !f->f_op->read)
		return -EINVAL;
	/* Before the position and the length, as Linux: even an empty buffer above user space faults. */
	if (!access_ok(ubuf, n))
		return -EFAULT;
	if (*pos < 0)
		return -EINVAL;
	if (n == 0)
		return 0;
	if (n > RW_MAX)
		n = RW_MAX;
	r = f->f_op->read(f, ubuf, n, pos);
	if (r >= 0)
		file_accessed(f);       /* even at the end of the file, as Linux's generic read */
	return r;
}

/*
 * A file opened O_SYNC or O_DSYNC, or any regular file on a mount -o sync:
 * its data is on the disk when write() returns. The file's own fsync() (its
 * inode and the device's dirty buffers) after each write, as Linux's
 * generic_write_sync() (O_DSYNC, which O_SYNC includes, or IS_SYNC()). An
 * error there is the write's. (O_DSYNC need not write the inode; smpix's
 * fsync always does, which is more than it asks, never less.)
 */
static ssize_t write_sync(struct file *f, ssize_t written)
{
	int r;

	if (written <= 0 || !S_ISREG(f->f_inode->i_mode) || !f->f_op->fsync)
		return written;
	if (!(f->f_flags & O_DSYNC) && !mount_sync(f->f_inode))
		return written;
	r = f->f_op->fsync(f);
	return r < 0 ? r : written;
}

ssize_t vfs_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	if ((f->f_flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (!f->f_op || !f->f_op->write)
		return -EINVAL;
	/* Before the position and the length, as Linux: even an empty buffer above user space faults. */
	if (!access_ok(ubuf, n))
		return -EFAULT;
	if (*pos < 0)
		return -EINVAL;
	if (n == 0)
		return 0;
	if (n > RW_MAX)
		n = RW_MAX;
	return write_sync(f, f->f_op->write(f, ubuf, n, pos));
}

ssize_t kernel_read(struct file *f, void *buf, size_t n, loff_t pos)
{
	struct task *t = current;
	bool was = t->uaccess_kernel;
	ssize_t r;

	t->uaccess_kernel = true;
	r = vfs_read(f, buf, n, &pos);
	t->uaccess_kernel = was;
	return r;
}

ssize_t kernel_write(struct file *f, const void *buf, size_t n, loff_t pos)
{
	struct task *t = current;
	bool was = t->uaccess_kernel;
	ssize_t r;

	t->uaccess_kernel = true;
	r = vfs_write(f, buf, n, &pos);
	t->uaccess_kernel = was;
	return r;
}

loff_t generic_file_llseek(struct file *f, loff_t offset, int whence)
{
	loff_t base;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = f->f_pos;
		break;
	case SEEK_END:
		base = f->f_inode->i_size;
		break;
	default:
		return -EINVAL;
	}
	if ((offset > 0 && base > LOFF_MAX - offset) || base + offset < 0)
		return -EINVAL;
	return base + offset;
}

/*
 * The llseek of a file whose driver has none. In Linux 2.6.6 this
 * default_llseek() took the BKL, while a driver's or file system's own
 * llseek ran without it ("The Big Kernel Lock lives on", 2004); smpix
 * keeps that site. The position itself is protected by f_pos_lock.
 */
static loff_t default_llseek(struct file *f, loff_t offset, int whence)
{
	loff_t r;

	lock_kernel_or(&f->f_inode->i_mutex);   /* make ERA=2.6.39: the inode's lock, as Linux's did */
	r = generic_file_llseek(f, offset, whence);
	unlock_kernel_or(&f->f_inode->i_mutex);
	return r;
}

/* Seek f: the new position, stored in f_pos, or -errno. */
static loff_t vfs_llseek(struct file *f, loff_t offset, int whence)
{
	loff_t r;

	if (f->f_op && (f->f_op->flags & FOP_STREAM))
		return -ESPIPE;
	pos_lock(f);
	if (f->f_op && f->f_op->llseek)
		r = f->f_op->llseek(f, offset, whence);
	else
		r = default_llseek(f, offset, whence);
	if (r >= 0)
		f->f_pos = r;
	pos_unlock(f);
	return r;
}

/* read/write at the file's position, moving it. */
static ssize_t rw_at_pos(struct file *f, char *ubuf, size_t n, bool write)
{
	loff_t pos;
	ssize_t r;

	pos_lock(f);
	pos = f->f_pos;
	r = write ? vfs_write(f, ubuf, n, &pos) : vfs_read(f, ubuf, n, &pos);
	f->f_pos = pos;
	pos_unlock(f);
	return r;
}

long sys_read(int fd, void *ubuf, size_t count)
{
	struct file *f = fd_get(fd);
	ssize_t r;

	if (!f)
		return -EBADF;
	r = rw_at_pos(f, ubuf, count, false);
	fput(f);
	return r;
}

long sys_write(int fd, const void *ubuf, size_t count)
{
	struct file *f = fd_get(fd);
	ssize_t r;

	if (!f)
		return -EBADF;
	r = rw_at_pos(f, (char *)ubuf, count, true);
	fput(f);
	return r;
}

/*
 * pread64/pwrite64: at an explicit offset, leaving the position alone. The
 * 64-bit offset comes in two registers, low word first (Linux i386). No
 * f_pos_lock: nothing here reads or writes f->f_pos.
 */
static long rw_at(int fd, char *ubuf, size_t count, uint32_t lo, uint32_t hi, bool write)
{
	/* LAB4: BEGIN pread-pwrite */
	loff_t pos = (loff_t)(((uint64_t)hi << 32) | lo);
	struct file *f = fd_get(fd);
	ssize_t r;

	if (!f)
		return -EBADF;
	if ((f->f_op && (f->f_op->flags & FOP_STREAM)) || S_ISFIFO(f->f_inode->i_mode))
		r = -ESPIPE;
	else if (pos < 0)
		r = -EINVAL;
	else
		r = write ? vfs_write(f, ubuf, count, &pos) : vfs_read(f, ubuf, count, &pos);
	fput(f);
	return r;
	/* LAB4: END */
}

long sys_pread64(int fd, void *ubuf, size_t count, uint32_t pos_lo, uint32_t pos_hi)
{
	return rw_at(fd, ubuf, count, pos_lo, pos_hi, false);
}

long sys_pwrite64(int fd, const void *ubuf, size_t count, uint32_t pos_lo, uint32_t pos_hi)
{
	return rw_at(fd, (char *)ubuf, count, pos_lo, pos_hi, true);
}

/* readv/writev: each buffer in turn at the file's position, stopping at the first short transfer. */
static long rw_vector(int fd, const struct iovec *uiov, int iovcnt, bool write)
{
	struct file *f;
	struct iovec *iov;
	uint32_t total = 0;
	long done = 0;

	if (iovcnt < 0 || iovcnt > UIO_MAXIOV)
		return -EINVAL;
	f = fd_get(fd);
	if (!f)
		return -EBADF;
	iov = kmalloc(iovcnt * sizeof(*iov) + 1);
	if (!iov) {
		fput(f);
		return -ENOMEM;
	}
	if (copy_from_user(iov, uiov, iovcnt * sizeof(*iov)) < 0) {
		done = -EFAULT;
		goto out;
	}
	for (int i = 0; i < iovcnt; i++) {
		if (iov[i].iov_len > 0x7FFFFFFFu - total) {
			done = -EINVAL;         /* the total must fit in ssize_t */
			goto out;
		}
		total += iov[i].iov_len;
	}
	for (int i = 0; i < iovcnt; i++) {
		ssize_t r;

		if (iov[i].iov_len == 0)
			continue;
		r = rw_at_pos(f, (char *)(uintptr_t)iov[i].iov_base, iov[i].iov_len, write);
		if (r < 0) {
			if (done == 0)
				done = r;
			break;
		}
		done += r;
		if ((uint32_t)r < iov[i].iov_len)
			break;
	}
out:
	kfree(iov);
	fput(f);
	return done;
}

long sys_readv(int fd, const void *uiov, int iovcnt)
{
	return rw_vector(fd, uiov, iovcnt, false);
}

long sys_writev(int fd, const void *uiov, int iovcnt)
{
	return rw_vector(fd, uiov, iovcnt, true);
}

long sys_lseek(int fd, long offset, int whence)
{
	struct file *f = fd_get(fd);
	loff_t r;

	if (!f)
		return -EBADF;
	r = vfs_llseek(f, offset, whence);
	/* 32-bit lseek cannot report a position past 2 GiB (and leaves it set, as Linux does). */
	if (r > 0x7FFFFFFF)
		r = -EOVERFLOW;
	fput(f);
	return (long)r;
}

long sys__llseek(int fd, uint32_t offset_high, uint32_t offset_low, void *uresult, int whence)
{
	loff_t offset = (loff_t)(((uint64_t)offset_high << 32) | offset_low);
	struct file *f = fd_get(fd);
	loff_t r;

	if (!f)
		return -EBADF;
	r = vfs_llseek(f, offset, whence);
	fput(f);
	if (r < 0)
		return (long)r;
	if (copy_to_user(uresult, &r, sizeof(r)) < 0)
		return -EFAULT;
	return 0;
}

/* ---- sendfile ---------------------------------------------------------------------------- */

#define MAX_NON_LFS 0x7FFFFFFFll        /* the largest position the 32-bit sendfile may reach */

/* A file's position may be given (pread-like): not a pipe, a FIFO or a stream device. */
static bool is_stream(struct file *f)
{
	return (f->f_op && (f->f_op->flags & FOP_STREAM)) || S_ISFIFO(f->f_inode->i_mode);
}

/*
 * What Linux can splice from (it needs ->splice_read): files and devices, not
 * pipes, FIFOs or directories. Linux also refuses some procfs files; smpix
 * takes any file that has a read method.
 */
static bool can_send_from(struct file *f)
{
	uint32_t m = f->f_inode->i_mode;

	return !S_ISFIFO(m) && !S_ISDIR(m) && f->f_op && f->f_op->read;
}

/* Write a kernel buffer at f's position, moving it (sendfile's output side). */
static ssize_t kernel_write_at_pos(struct file *f, const void *buf, size_t n)
{
	struct task *t = current;
	bool was = t->uaccess_kernel;
	ssize_t r;

	t->uaccess_kernel = true;
	r = rw_at_pos(f, (char *)buf, n, true);
	t->uaccess_kernel = was;
	return r;
}

static loff_t get_pos(struct file *f)
{
	loff_t pos;

	pos_lock(f);
	pos = f->f_pos;
	pos_unlock(f);
	return pos;
}

static void set_pos(struct file *f, loff_t pos)
{
	pos_lock(f);
	f->f_pos = pos;
	pos_unlock(f);
}

/*
 * Copy up to count bytes from in_fd to out_fd without a trip through user
 * memory: Linux splices through a pipe, smpix through one page. ppos NULL:
 * from in's position, which moves; else from *ppos, which is moved instead.
 * max: how far the position may go (MAX_NON_LFS for the 32-bit call).
 * The checks in Linux's order (fs/read_write.c's do_sendfile): in, then the
 * position, then out, then what the files are. Bytes already sent win over
 * a later error, as in a short write.
 */
static long do_sendfile(int out_fd, int in_fd, loff_t *ppos, size_t count, loff_t max)
{
	struct file *in, *out = NULL;
	char *buf = NULL;
	size_t done = 0;
	loff_t pos;
	long r = 0;

	in = fd_get(in_fd);
	if (!in)
		return -EBADF;
	if ((in->f_flags & O_ACCMODE) == O_WRONLY) {
		r = -EBADF;
		goto out;
	}
	if (ppos && is_stream(in)) {
		r = -ESPIPE;
		goto out;
	}
	pos = ppos ? *ppos : get_pos(in);
	if (pos < 0 || (loff_t)count > LOFF_MAX - pos) {
		r = -EINVAL;
		goto out;
	}
	out = fd_get(out_fd);
	if (!out || (out->f_flags & O_ACCMODE) == O_RDONLY) {
		r = -EBADF;
		goto out;
	}
	if (count > RW_MAX)
		count = RW_MAX;
	if (pos + (loff_t)count > max) {
		if (pos >= max) {
			r = -EOVERFLOW;
			goto out;
		}
		count = (size_t)(max - pos);
	}
	if ((out->f_flags & O_APPEND) || !can_send_from(in)) {
		r = -EINVAL;
		goto out;
	}
	if (count > 0) {
		buf = kmalloc(PAGE_SIZE);
		if (!buf) {
			r = -ENOMEM;
			goto out;
		}
	}
	while (done < count) {
		size_t chunk = MIN(count - done, (size_t)PAGE_SIZE);
		ssize_t n, w;

		/* 2 GiB from /dev/zero is a long loop: a signal ends it (what was sent is the answer). */
		if (done > 0 && task_signal_pending())
			break;
		n = kernel_read(in, buf, chunk, pos);
		if (n <= 0) {
			r = n;
			break;
		}
		w = kernel_write_at_pos(out, buf, (size_t)n);
		if (w <= 0) {
			r = w;
			break;
		}
		pos += w;
		done += (size_t)w;
		if (w < n || (size_t)n < chunk)
			break;          /* the end of in, or out is full: what was sent is the answer */
	}
	if (done > 0)
		r = (long)done;
	if (ppos)
		*ppos = pos;
	else
		set_pos(in, pos);
out:
	kfree(buf);
	if (out)
		fput(out);
	fput(in);
	return r;
}

long sys_sendfile64(int out_fd, int in_fd, void *uoffset, size_t count)
{
	loff_t pos;
	long r;

	if (!uoffset)
		return do_sendfile(out_fd, in_fd, NULL, count, LOFF_MAX);
	if (copy_from_user(&pos, uoffset, sizeof(pos)) < 0)
		return -EFAULT;
	r = do_sendfile(out_fd, in_fd, &pos, count, LOFF_MAX);
	if (copy_to_user(uoffset, &pos, sizeof(pos)) < 0)
		return -EFAULT;
	return r;
}

/* The original call: a 32-bit offset, and no position past 2 GiB - 1 (-EOVERFLOW). */
long sys_sendfile(int out_fd, int in_fd, void *uoffset, size_t count)
{
	int32_t off;
	loff_t pos;
	long r;

	if (!uoffset)
		return do_sendfile(out_fd, in_fd, NULL, count, LOFF_MAX);
	if (copy_from_user(&off, uoffset, sizeof(off)) < 0)
		return -EFAULT;
	pos = off;
	r = do_sendfile(out_fd, in_fd, &pos, count, MAX_NON_LFS);
	off = (int32_t)pos;
	if (copy_to_user(uoffset, &off, sizeof(off)) < 0)
		return -EFAULT;
	return r;
}
