/* Open files: making one for an inode, sharing it (dup, fork), and the last close. */
#include "fs/file.h"

#include "fs/flock.h"
#include "fs/inode.h"
#include "fs/mount.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/panic.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/stat.h"

/* Open files in the whole system, for -ENFILE at FILES_MAX: lock-free, checked by atomic increment. */
static atomic_t files_open;

/*
 * A regular file opened for writing counts among its mount's writers from
 * open to last close, so that a remount read-only can refuse (fs/mount.c).
 * Device nodes and FIFOs do not: writing them does not write the file system.
 */
static bool counts_as_writer(const struct inode *inode, unsigned flags)
{
	return inode->i_mnt && S_ISREG(inode->i_mode) && (flags & O_ACCMODE) != O_RDONLY;
}

struct file *file_open_inode(struct inode *inode, const struct file_operations *fop,
			     unsigned flags, int *err)
{
	struct file *f;
	int r;

	if (atomic_add_return(&files_open, 1) > FILES_MAX) {
		r = -ENFILE;
		goto out_count;
	}
	f = kzalloc(sizeof(*f));
	if (!f) {
		r = -ENOMEM;
		goto out_count;
	}
	f->f_inode = inode;
	f->f_op = fop;
	f->f_flags = flags;
	mutex_init(&f->f_pos_lock, "f_pos_lock");
	atomic_set(&f->f_count, 1);
	if (counts_as_writer(inode, flags)) {
		r = mount_want_write(inode->i_mnt);
		if (r < 0)
			goto out_free;
	}
	if (fop && fop->open) {
		r = fop->open(inode, f);
		if (r < 0)
			goto out_writer;
	}
	return f;

out_writer:
	if (counts_as_writer(inode, flags))
		mount_drop_write(inode->i_mnt);
out_free:
	kfree(f);
out_count:
	atomic_dec(&files_open);
	iput(inode);
	*err = r;
	return NULL;
}

struct file *fget_ref(struct file *f)
{
	if (atomic_add_return(&f->f_count, 1) <= 1)
		panic("fget_ref: file %p was already released", f);
	return f;
}

void fput(struct file *f)
{
	int left = atomic_add_return(&f->f_count, -1);

	if (left < 0)
		panic("fput: file %p released twice", f);
	if (left > 0)
		return;
	flock_release_file(f);          /* the last close drops a flock() lock */
	if (f->f_op && f->f_op->release)
		f->f_op->release(f->f_inode, f);
	if (counts_as_writer(f->f_inode, f->f_flags))
		mount_drop_write(f->f_inode->i_mnt);
	iput(f->f_inode);
	kfree(f);
	atomic_dec(&files_open);
}

int file_count(void)
{
	return atomic_read(&files_open);
}
