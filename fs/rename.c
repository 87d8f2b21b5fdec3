/*
 * rename and renameat: move a name, maybe into another directory, maybe over
 * an existing name. The hard part is locking two directories without
 * deadlock and without a directory moving below itself; see the plan below.
 */
#include "fs/dir_ops.h"
#include "fs/inode.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "kernel/locking/mutex.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/stat.h"

/*
 * Serializes renames between two directories, so that while one runs no
 * directory changes parent: its ancestry test (no directory moves below
 * itself) and its choice of lock order stay true until it is done.
 * Linux calls it s_vfs_rename_sem. Taken before any i_mutex.
 */
static struct mutex vfs_rename_mutex = { .lock = SPINLOCK_INIT("vfs_rename_mutex"),
	.waiters = { SPINLOCK_INIT("vfs_rename_mutex"), LIST_HEAD_INIT(vfs_rename_mutex.waiters.waiters) },
	.name = "vfs_rename_mutex", .class = LOCK_CLASS_HERE("vfs_rename_mutex", LOCK_MUTEX), .last_cpu = -1 };

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
		mutex_lock_nested(&a->i_mutex, I_MUTEX_PARENT);
		return;
	}
	if (is_ancestor(b, a) || (!is_ancestor(a, b) && (uintptr_t)b < (uintptr_t)a)) {
		struct inode *t = a;

		a = b;
		b = t;
	}
	mutex_lock_nested(&a->i_mutex, I_MUTEX_PARENT);
	mutex_lock_nested(&b->i_mutex, I_MUTEX_PARENT2);
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
	bool victim_locked;             /* we hold victim's i_mutex (a directory to be replaced) */
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
	pl->victim_locked = false;
	return 0;
}

static void rename_plan_put(struct rename_plan *pl)
{
	iput(pl->victim);               /* a replaced file that is open lives until its last close */
	iput(pl->old);
}

/*
 * With both directories locked: Linux's checks for moving old over victim.
 * A directory victim is locked here and stays locked until the rename is
 * done (pl->victim_locked): otherwise a file could be made in it between
 * "it is empty" and its removal, and be lost with it.
 */
static int rename_checks(struct parent *op, struct parent *np, struct rename_plan *pl)
{
	struct inode *old = pl->old, *victim = pl->victim;

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
	pl->victim_locked = true;
	return dir_is_empty(victim) ? 0 : -ENOTEMPTY;
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
	if (pl.victim_locked)
		mutex_unlock(&pl.victim->i_mutex);
	unlock_two(op->dir, np->dir);
	rename_plan_put(&pl);
	if (r == 0)
		dirsync_after(np->dir);         /* one mount: both directories go with it */
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
