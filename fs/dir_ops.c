/*
 * The calls that change directories: mkdir, mknod, unlink, rmdir, link,
 * symlink, rename (and their *at forms), and readlink. Each walks to the
 * parent directory, locks it (i_mutex), looks the last name up again under
 * the lock, checks what Linux checks, and calls the file system.
 */
#include "fs/file.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mutex.h"
#include "kernel/syscalls.h"
#include "kernel/task.h"
#include "kernel/uapi/dirent.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/stat.h"

/*
 * Serializes renames between two directories, so that while one runs no
 * directory changes parent: its ancestry test (no directory moves below
 * itself) and its choice of lock order stay true until it is done.
 * Linux calls it s_vfs_rename_sem. Taken before any i_mutex.
 */
static struct mutex vfs_rename_mutex = { .lock = SPINLOCK_INIT("vfs_rename_mutex"),
	.waiters = { SPINLOCK_INIT("vfs_rename_mutex"), LIST_HEAD_INIT(vfs_rename_mutex.waiters.waiters) },
	.name = "vfs_rename_mutex" };

/* A user path split into its parent directory (referenced) and last name (in *path). */
struct parent {
	char *path;
	struct inode *dir;
	struct qstr last;
	bool slash;                     /* the path ended in '/' */
};

static int parent_get(int dirfd, const char *upath, struct parent *p)
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
		kfree(p->path);
	return r;
}

static void parent_put(struct parent *p)
{
	iput(p->dir);
	kfree(p->path);
}

/* "." or ".." or "" (the path was "/"): a name that cannot be made, removed or moved. */
static bool last_is_special(const struct qstr *q)
{
	return q->len == 0 || (q->name[0] == '.' && (q->len == 1 || (q->len == 2 && q->name[1] == '.')));
}

/* Look the last name up in p->dir, whose i_mutex the caller holds (no mount crossing: we act on this name). */
static int lookup_locked(struct parent *p, struct inode **out)
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
	iput(dir);
	if (out && r == 0)
		*out = inode;
	else
		iput(inode);
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
	kfree(path);
	return r;
}

long sys_mkdirat(int dirfd, const char *upath, uint32_t mode)
{
	return make_node(dirfd, upath, S_IFDIR | (mode & 01777 & ~current->umask), 0, NULL);
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
	return make_node(dirfd, upath, type | (mode & 07777 & ~current->umask),
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
	kfree(target);
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

static bool dir_is_empty(struct inode *dir)
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
static bool is_mount_busy(struct inode *inode)
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
	mutex_lock(&p.dir->i_mutex);
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
	iput(inode);
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
	struct inode *old, *existing;
	struct parent p;
	char *oldpath;
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
	kfree(oldpath);
	if (r < 0)
		return r;
	r = parent_get(newdirfd, unew, &p);
	if (r < 0) {
		iput(old);
		return r;
	}
	if (S_ISDIR(old->i_mode))
		r = -EPERM;             /* no hard links to directories */
	else if (last_is_special(&p.last))
		r = -EEXIST;
	else if (p.slash)
		r = -ENOENT;
	else if (old->i_mnt != p.dir->i_mnt)
		r = -EXDEV;
	if (r == 0) {
		mutex_lock(&p.dir->i_mutex);
		r = lookup_locked(&p, &existing);
		if (r == 0) {
			iput(existing);
			r = -EEXIST;
		} else if (r == -ENOENT) {
			r = p.dir->i_op->link ? p.dir->i_op->link(p.dir, &p.last, old) : -EPERM;
		}
		mutex_unlock(&p.dir->i_mutex);
	}
	parent_put(&p);
	iput(old);
	return r;
}

long sys_link(const char *uold, const char *unew)
{
	return sys_linkat(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}

/* Is anc an ancestor of (or the same as) d, in one mount? Parents are stable under vfs_rename_mutex. */
static bool is_ancestor(struct inode *anc, struct inode *d)
{
	static const struct qstr dotdot = { "..", 2 };
	struct inode *cur = igrab(d), *up;
	bool found = false;

	for (;;) {
		if (cur == anc) {
			found = true;
			break;
		}
		if (cur->i_mnt != anc->i_mnt || cur == cur->i_mnt->root)
			break;
		if (lookup_one(cur, &dotdot, &up) < 0)
			break;
		iput(cur);
		cur = up;
	}
	iput(cur);
	return found;
}

/* Lock two directories for rename: an ancestor before its descendant, else by address. */
static void lock_two(struct inode *a, struct inode *b)
{
	if (a == b) {
		mutex_lock(&a->i_mutex);
		return;
	}
	if (is_ancestor(b, a) || (!is_ancestor(a, b) && (uintptr_t)b < (uintptr_t)a)) {
		struct inode *t = a;

		a = b;
		b = t;
	}
	mutex_lock(&a->i_mutex);
	mutex_lock(&b->i_mutex);
}

static void unlock_two(struct inode *a, struct inode *b)
{
	mutex_unlock(&a->i_mutex);
	if (a != b)
		mutex_unlock(&b->i_mutex);
}

/* Look the last name up under a short hold of the parent's i_mutex (no mount crossing). */
static int lookup_briefly(struct parent *p, struct inode **out)
{
	int r;

	mutex_lock(&p->dir->i_mutex);
	r = lookup_locked(p, out);
	mutex_unlock(&p->dir->i_mutex);
	if (r == -ENOENT)
		*out = NULL;
	return r == -ENOENT ? 0 : r;
}

/*
 * What rename must know about the tree, found before any i_mutex is taken
 * (finding it takes i_mutexes of its own, one at a time).
 */
struct rename_plan {
	struct inode *old, *victim;     /* referenced; victim may be NULL */
	bool old_above_new_dir;         /* old is a directory that contains the new parent */
	bool victim_above_old_dir;      /* victim is a directory that contains the old parent */
};

static int rename_plan(struct parent *op, struct parent *np, struct rename_plan *pl)
{
	int r = lookup_briefly(op, &pl->old);

	if (r == 0 && !pl->old)
		r = -ENOENT;
	if (r < 0)
		return r;
	r = lookup_briefly(np, &pl->victim);
	if (r < 0) {
		iput(pl->old);
		return r;
	}
	pl->old_above_new_dir = S_ISDIR(pl->old->i_mode) && is_ancestor(pl->old, np->dir);
	pl->victim_above_old_dir = pl->victim && S_ISDIR(pl->victim->i_mode) &&
				   is_ancestor(pl->victim, op->dir);
	return 0;
}

static void rename_plan_put(struct rename_plan *pl)
{
	iput(pl->victim);               /* a replaced file that is open lives until its last close */
	iput(pl->old);
}

/* With both directories locked: Linux's checks for moving old over victim. */
static int rename_checks(struct parent *op, struct parent *np, struct rename_plan *pl)
{
	struct inode *old = pl->old, *victim = pl->victim;
	bool empty;

	if (is_mount_busy(old) || (victim && is_mount_busy(victim)))
		return -EBUSY;
	if (!S_ISDIR(old->i_mode) && (op->slash || np->slash))
		return -ENOTDIR;
	if (victim == old)
		return 0;
	if (!S_ISDIR(old->i_mode))
		return victim && S_ISDIR(victim->i_mode) ? -EISDIR : 0;
	if (pl->old_above_new_dir)
		return -EINVAL;         /* a directory cannot move below itself */
	if (!victim)
		return 0;
	if (!S_ISDIR(victim->i_mode))
		return -ENOTDIR;
	if (pl->victim_above_old_dir)
		return -ENOTEMPTY;      /* it contains old, and locking it now would break the order */
	mutex_lock(&victim->i_mutex);   /* a child of the new parent: parent before child */
	empty = dir_is_empty(victim);
	mutex_unlock(&victim->i_mutex);
	return empty ? 0 : -ENOTEMPTY;
}

/* Under vfs_rename_mutex: plan, lock, check that the plan still holds, rename. -EAGAIN: plan again. */
static int rename_locked(struct parent *op, struct parent *np)
{
	struct inode *old, *victim;
	struct rename_plan pl;
	int r = rename_plan(op, np, &pl);

	if (r < 0)
		return r;
	lock_two(op->dir, np->dir);
	r = lookup_locked(op, &old);
	if (r == 0) {
		iput(old);
		if (old != pl.old)
			r = -EAGAIN;    /* the name changed hands since we looked: plan again */
	}
	if (r == 0) {
		r = lookup_locked(np, &victim);
		if (r == 0)
			iput(victim);
		else if (r == -ENOENT)
			victim = NULL, r = 0;
		if (r == 0 && victim != pl.victim)
			r = -EAGAIN;
	}
	if (r == 0)
		r = rename_checks(op, np, &pl);
	if (r == 0 && pl.victim != pl.old)
		r = op->dir->i_op->rename ? op->dir->i_op->rename(op->dir, &op->last, np->dir, &np->last)
					  : -EPERM;
	unlock_two(op->dir, np->dir);
	rename_plan_put(&pl);
	return r;
}

long sys_renameat(int olddirfd, const char *uold, int newdirfd, const char *unew)
{
	struct parent op, np;
	int r;

	r = parent_get(olddirfd, uold, &op);
	if (r < 0)
		return r;
	r = parent_get(newdirfd, unew, &np);
	if (r < 0) {
		parent_put(&op);
		return r;
	}
	if (last_is_special(&op.last) || last_is_special(&np.last))
		r = -EBUSY;
	else if (op.dir->i_mnt != np.dir->i_mnt)
		r = -EXDEV;
	else {
		mutex_lock(&vfs_rename_mutex);
		do
			r = rename_locked(&op, &np);
		while (r == -EAGAIN);
		mutex_unlock(&vfs_rename_mutex);
	}
	parent_put(&np);
	parent_put(&op);
	return r;
}

long sys_rename(const char *uold, const char *unew)
{
	return sys_renameat(AT_FDCWD, uold, AT_FDCWD, unew);
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
	kfree(path);
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
