/*
 * The calls that change directories: mkdir, mknod, unlink, rmdir, link,
 * symlink (and their *at forms), and readlink; rename has fs/rename.c. Each
 * walks to the parent directory, locks it (i_mutex), looks the last name up
 * again under the lock, checks what Linux checks, and calls the file system.
 */
#include "fs/dir_ops.h"

#include "fs/file.h"
#include "fs/fs_struct.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/locking/mutex.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/dirent.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/stat.h"

int parent_get(int dirfd, const char *upath, struct parent *p)
{
	struct walk_start s;
	int r;

	r = getname(upath, &p->path);
	if (r < 0)
		return r;
	r = walk_start_get(dirfd, p->path, &s);
	if (r == 0) {
		r = path_walk_parent(&s, p->path, &p->dir, &p->last, &p->slash);
		walk_start_put(&s);
	}
	if (r < 0)
		putname(p->path);
	return r;
}

void parent_put(struct parent *p)
{
	iput(p->dir);
	putname(p->path);
}

/* "." or ".." or "" (the path was "/"): a name that cannot be made, removed or moved. */
bool last_is_special(const struct qstr *q)
{
	return q->len == 0 || (q->name[0] == '.' && (q->len == 1 || (q->len == 2 && q->name[1] == '.')));
}

/* Look the last name up in p->dir, whose i_mutex the caller holds (no mount crossing: we act on this name). */
int lookup_locked(struct parent *p, struct inode **out)
{
	if (!p->dir->i_op || !p->dir->i_op->lookup)
		return -ENOTDIR;
	return p->dir->i_op->lookup(p->dir, &p->last, out);
}

int vfs_make_node(const struct walk_start *s, const char *path, uint32_t mode, uint32_t rdev,
		  const char *target, struct inode **out)
{
	struct inode *dir, *inode = NULL;
	struct qstr last;
	bool slash;
	int r = path_walk_parent(s, path, &dir, &last, &slash);

	if (r < 0)
		return r;
	if (last_is_special(&last)) {
		iput(dir);
		return -EEXIST;
	}
	if (slash && !S_ISDIR(mode)) {
		iput(dir);
		return -ENOENT;         /* "file/" for a non-directory: Linux answers ENOENT */
	}
	mutex_lock(&dir->i_mutex);
	r = dir->i_op && dir->i_op->lookup ? dir->i_op->lookup(dir, &last, &inode) : -ENOTDIR;
	if (r == 0) {
		iput(inode);
		inode = NULL;
		r = -EEXIST;
	} else if (r == -ENOENT) {
		if (target)
			r = dir->i_op->symlink ? dir->i_op->symlink(dir, &last, target) : -EPERM;
		else
			r = dir->i_op->create ? dir->i_op->create(dir, &last, mode, rdev, &inode) : -EPERM;
	}
	mutex_unlock(&dir->i_mutex);
	if (r == 0)
		dirsync_after(dir);
	iput(dir);
	if (out && r == 0)
		*out = inode;
	else
		iput(inode);
	return r;
}

int vfs_link_node(const struct walk_start *s, const char *path, struct inode *old)
{
	struct inode *dir, *existing;
	struct qstr last;
	bool slash;
	int r = path_walk_parent(s, path, &dir, &last, &slash);

	if (r < 0)
		return r;
	if (S_ISDIR(old->i_mode))
		r = -EPERM;             /* no hard links to directories */
	else if (last_is_special(&last))
		r = -EEXIST;
	else if (slash)
		r = -ENOENT;
	else if (old->i_mnt != dir->i_mnt)
		r = -EXDEV;
	if (r == 0) {
		mutex_lock(&dir->i_mutex);
		r = dir->i_op && dir->i_op->lookup ? dir->i_op->lookup(dir, &last, &existing) : -ENOTDIR;
		if (r == 0) {
			iput(existing);
			r = -EEXIST;
		} else if (r == -ENOENT) {
			r = dir->i_op->link ? dir->i_op->link(dir, &last, old) : -EPERM;
		}
		mutex_unlock(&dir->i_mutex);
		if (r == 0)
			dirsync_after(dir);
	}
	iput(dir);
	return r;
}

/* Create a name of mode from a user path: mkdir, mknod, and symlink (target != NULL). */
static long make_node(int dirfd, const char *upath, uint32_t mode, uint32_t rdev, const char *target)
{
	struct walk_start s;
	char *path;
	int r = getname(upath, &path);

	if (r < 0)
		return r;
	r = walk_start_get(dirfd, path, &s);
	if (r == 0) {
		r = vfs_make_node(&s, path, mode, rdev, target, NULL);
		walk_start_put(&s);
	}
	putname(path);
	return r;
}

long sys_mkdirat(int dirfd, const char *upath, uint32_t mode)
{
	return make_node(dirfd, upath, S_IFDIR | (mode & 01777 & ~READ_ONCE(current->fs->umask)), 0, NULL);
}

long sys_mkdir(const char *upath, uint32_t mode)
{
	return sys_mkdirat(AT_FDCWD, upath, mode);
}

long sys_mknodat(int dirfd, const char *upath, uint32_t mode, uint32_t dev)
{
	uint32_t type = mode & S_IFMT;

	if (type == 0)
		type = S_IFREG;
	if (type == S_IFDIR)
		return -EPERM;
	if (type != S_IFREG && type != S_IFCHR && type != S_IFBLK && type != S_IFIFO && type != S_IFSOCK)
		return -EINVAL;
	return make_node(dirfd, upath, type | (mode & 07777 & ~READ_ONCE(current->fs->umask)),
			 type == S_IFCHR || type == S_IFBLK ? dev : 0, NULL);
}

long sys_mknod(const char *upath, uint32_t mode, uint32_t dev)
{
	return sys_mknodat(AT_FDCWD, upath, mode, dev);
}

long sys_symlinkat(const char *utarget, int dirfd, const char *upath)
{
	char *target;
	long r = getname(utarget, &target);

	if (r < 0)
		return r;
	r = make_node(dirfd, upath, S_IFLNK | 0777, 0, target);
	putname(target);
	return r;
}

long sys_symlink(const char *utarget, const char *upath)
{
	return sys_symlinkat(utarget, AT_FDCWD, upath);
}

/* unlink(): remove a name that is not a directory. */
static long do_unlink(int dirfd, const char *upath)
{
	struct parent p;
	struct inode *inode = NULL;
	int r = parent_get(dirfd, upath, &p);

	if (r < 0)
		return r;
	if (last_is_special(&p.last)) {
		r = -EISDIR;
		goto out;
	}
	mutex_lock(&p.dir->i_mutex);
	r = lookup_locked(&p, &inode);
	if (r == 0) {
		if (S_ISDIR(inode->i_mode))
			r = -EISDIR;
		else if (p.slash)
			r = -ENOTDIR;
		else
			r = p.dir->i_op->unlink ? p.dir->i_op->unlink(p.dir, &p.last, inode) : -EPERM;
	}
	mutex_unlock(&p.dir->i_mutex);
	/* An unlinked file that is still open lives on: this iput evicts it only if nothing else holds it. */
	iput(inode);
	if (r == 0)
		dirsync_after(p.dir);
out:
	parent_put(&p);
	return r;
}

/* Is a directory empty but for "." and ".."? Needs its i_mutex. */
struct empty_check {
	struct dir_context ctx;
	bool empty;
};

static bool empty_emit(struct dir_context *ctx, const char *name, size_t len, uint32_t ino,
		       unsigned dtype, loff_t next_pos)
{
	struct empty_check *e = container_of(ctx, struct empty_check, ctx);

	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	e->empty = false;
	return false;
}

bool dir_is_empty(struct inode *dir)
{
	struct empty_check e = { { empty_emit }, true };
	struct file f;

	if (!dir->i_fop || !dir->i_fop->readdir)
		return false;
	memset(&f, 0, sizeof(f));
	f.f_inode = dir;
	f.f_op = dir->i_fop;
	dir->i_fop->readdir(&f, &e.ctx);
	return e.empty;
}

/* Is this directory the root of a mount, or covered by one? Then it is busy. */
bool is_mount_busy(struct inode *inode)
{
	return (READ_ONCE(inode->i_flags) & I_MOUNTPOINT) ||
	       (inode->i_mnt && inode == inode->i_mnt->root);
}

static long do_rmdir(int dirfd, const char *upath)
{
	struct parent p;
	struct inode *inode = NULL;
	int r = parent_get(dirfd, upath, &p);

	if (r < 0)
		return r;
	if (p.last.len == 0) {
		r = -EBUSY;             /* rmdir("/") */
		goto out;
	}
	if (last_is_special(&p.last)) {
		r = p.last.len == 1 ? -EINVAL : -ENOTEMPTY;
		goto out;
	}
	mutex_lock_nested(&p.dir->i_mutex, I_MUTEX_PARENT);
	r = lookup_locked(&p, &inode);
	if (r == 0) {
		if (!S_ISDIR(inode->i_mode)) {
			r = -ENOTDIR;
		} else if (is_mount_busy(inode)) {
			r = -EBUSY;
		} else {
			mutex_lock(&inode->i_mutex);    /* parent before child */
			r = p.dir->i_op->rmdir ? p.dir->i_op->rmdir(p.dir, &p.last, inode) : -EPERM;
			mutex_unlock(&inode->i_mutex);
		}
	}
	mutex_unlock(&p.dir->i_mutex);
	iput(inode);            /* the last reference frees the directory's blocks and inode */
	if (r == 0)
		dirsync_after(p.dir);
out:
	parent_put(&p);
	return r;
}

long sys_unlinkat(int dirfd, const char *upath, int flags)
{
	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	return flags & AT_REMOVEDIR ? do_rmdir(dirfd, upath) : do_unlink(dirfd, upath);
}

long sys_unlink(const char *upath)
{
	return do_unlink(AT_FDCWD, upath);
}

long sys_rmdir(const char *upath)
{
	return do_rmdir(AT_FDCWD, upath);
}

long sys_linkat(int olddirfd, const char *uold, int newdirfd, const char *unew, int flags)
{
	struct walk_start s;
	struct inode *old;
	char *oldpath, *newpath;
	int r;

	if (flags & ~AT_SYMLINK_FOLLOW)
		return -EINVAL;
	r = getname(uold, &oldpath);
	if (r < 0)
		return r;
	r = walk_start_get(olddirfd, oldpath, &s);
	if (r == 0) {
		r = path_walk(&s, oldpath, flags & AT_SYMLINK_FOLLOW ? LOOKUP_FOLLOW : 0, &old);
		walk_start_put(&s);
	}
	putname(oldpath);
	if (r < 0)
		return r;
	r = getname(unew, &newpath);
	if (r == 0) {
		r = walk_start_get(newdirfd, newpath, &s);
		if (r == 0) {
			r = vfs_link_node(&s, newpath, old);
			walk_start_put(&s);
		}
		putname(newpath);
	}
	iput(old);
	return r;
}

long sys_link(const char *uold, const char *unew)
{
	return sys_linkat(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}

long sys_readlinkat(int dirfd, const char *upath, char *ubuf, int size)
{
	struct walk_start s;
	struct inode *inode;
	char *path, *buf;
	int r;

	if (size <= 0)
		return -EINVAL;
	r = getname(upath, &path);
	if (r < 0)
		return r;
	r = walk_start_get(dirfd, path, &s);
	if (r == 0) {
		r = path_walk(&s, path, 0, &inode);
		walk_start_put(&s);
	}
	putname(path);
	if (r < 0)
		return r;
	if (!S_ISLNK(inode->i_mode) || !inode->i_op || !inode->i_op->readlink) {
		iput(inode);
		return -EINVAL;
	}
	buf = kmalloc(PATH_MAX);
	if (!buf) {
		iput(inode);
		return -ENOMEM;
	}
	r = inode->i_op->readlink(inode, buf, PATH_MAX);
	iput(inode);
	if (r > size)
		r = size;               /* truncated, without a NUL, as readlink(2) says */
	if (r > 0 && copy_to_user(ubuf, buf, (size_t)r) < 0)
		r = -EFAULT;
	kfree(buf);
	return r;
}

long sys_readlink(const char *upath, char *ubuf, int size)
{
	return sys_readlinkat(AT_FDCWD, upath, ubuf, size);
}
