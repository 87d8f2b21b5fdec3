/* getdents64: a directory's entries as Linux's struct linux_dirent64 records. */
#include "fs/atime.h"
#include "fs/fdtable.h"
#include "fs/file.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/dirent.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

/* The sink that packs records into the user's buffer. */
struct getdents_ctx {
	struct dir_context ctx;
	char *ubuf;
	size_t size, used;
	int error;
};

static bool getdents_emit(struct dir_context *ctx, const char *name, size_t len, uint32_t ino,
			  unsigned dtype, loff_t next_pos)
{
	struct getdents_ctx *g = container_of(ctx, struct getdents_ctx, ctx);
	size_t reclen = ALIGN_UP(offsetof(struct linux_dirent64, d_name) + len + 1, 8);
	char rec[ALIGN_UP(offsetof(struct linux_dirent64, d_name) + 256, 8)];
	struct linux_dirent64 *d = (struct linux_dirent64 *)rec;

	if (reclen > g->size - g->used) {
		if (g->used == 0)
			g->error = -EINVAL;     /* not even one record fits: Linux says EINVAL */
		return false;
	}
	memset(rec, 0, reclen);
	d->d_ino = ino;
	d->d_off = next_pos;
	d->d_reclen = (uint16_t)reclen;
	d->d_type = (uint8_t)dtype;
	memcpy(d->d_name, name, len);
	if (copy_to_user(g->ubuf + g->used, rec, reclen) < 0) {
		g->error = -EFAULT;
		return false;
	}
	g->used += reclen;
	return true;
}

long sys_getdents64(int fd, void *ubuf, unsigned count)
{
	struct getdents_ctx g = { { getdents_emit }, ubuf, count, 0, 0 };
	struct file *f = fd_get(fd);
	struct inode *dir;
	int r;

	if (!f)
		return -EBADF;
	dir = f->f_inode;
	if (!S_ISDIR(dir->i_mode) || !f->f_op || !f->f_op->readdir) {
		fput(f);
		return -ENOTDIR;
	}
	if (!access_ok(ubuf, count)) {
		fput(f);
		return -EFAULT;
	}
	mutex_lock(&f->f_pos_lock);
	mutex_lock(&dir->i_mutex);
	r = f->f_op->readdir(f, &g.ctx);
	file_accessed(f);               /* a listing is a read of the directory (Linux's iterate_dir) */
	mutex_unlock(&dir->i_mutex);
	mutex_unlock(&f->f_pos_lock);
	fput(f);
	if (g.used)
		return (long)g.used;
	return g.error ? g.error : r;
}
