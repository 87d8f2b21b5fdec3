/*
 * statfs64 and fstatfs64: what a file system says about itself (busybox's df).
 * tmpfs and devtmpfs, like Linux's, report the RAM they may fill; ramfs and
 * proc report no blocks at all, as Linux's ramfs and procfs do.
 */
#include "fs/fdtable.h"
#include "fs/file.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/statfs.h"

static long statfs_to_user(struct inode *inode, void *ubuf)
{
	struct mount *m = inode->i_mnt;
	struct statfs64 st;

	memset(&st, 0, sizeof(st));
	st.f_type = m ? m->type->magic : PIPEFS_MAGIC;
	st.f_bsize = PAGE_SIZE;
	st.f_frsize = PAGE_SIZE;
	st.f_namelen = NAME_MAX;
	st.f_flags = ST_VALID;
	if (st.f_type == TMPFS_MAGIC) {
		st.f_blocks = pmm_usable_count();
		st.f_bfree = st.f_bavail = pmm_free_count();
	}
	if (m && m->type->statfs)
		m->type->statfs(m, &st);        /* a disk file system counts its own blocks (ext2) */
	return copy_to_user(ubuf, &st, sizeof(st)) < 0 ? -EFAULT : 0;
}

long sys_statfs64(const char *upath, size_t size, void *ubuf)
{
	struct walk_start s;
	struct inode *inode;
	char *path;
	int r;

	if (size != sizeof(struct statfs64))
		return -EINVAL;
	r = getname(upath, &path);
	if (r < 0)
		return r;
	r = walk_start_get(AT_FDCWD, path, &s);
	if (r == 0) {
		r = path_walk(&s, path, LOOKUP_FOLLOW, &inode);
		walk_start_put(&s);
	}
	putname(path);
	if (r < 0)
		return r;
	r = statfs_to_user(inode, ubuf);
	iput(inode);
	return r;
}

long sys_fstatfs64(int fd, size_t size, void *ubuf)
{
	struct file *f;
	long r;

	if (size != sizeof(struct statfs64))
		return -EINVAL;
	f = fd_get(fd);
	if (!f)
		return -EBADF;
	r = statfs_to_user(f->f_inode, ubuf);
	fput(f);
	return r;
}
