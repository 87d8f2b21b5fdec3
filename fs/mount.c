/* Mounts: the registered file system types, the list of mounted instances, mounting and unmounting. */
#include "fs/mount.h"

#include "fs/inode.h"
#include "fs/namei.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/panic.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/spinlock.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

#define MAX_FS_TYPES 8

/* Written at boot, before any process runs; read-only after, so read without a lock. */
static const struct filesystem_type *fs_types[MAX_FS_TYPES];

/*
 * Protects the mount list, each mount's detached, enters and expiry mark, and each
 * covered directory's I_MOUNTPOINT bit. A walk enters a mount only under it
 * (mount_enter), and vfs_umount() detaches under it, so after the detach no
 * new reference into the instance can appear.
 */
static spinlock_t mount_lock = SPINLOCK_INIT("mounts");
static struct list_head mounts = LIST_HEAD_INIT(mounts);
static struct mount *root_mount;
static uint32_t mounts_made;            /* for st_dev: atomic */

void register_filesystem(const struct filesystem_type *type)
{
	for (int i = 0; i < MAX_FS_TYPES; i++) {
		if (!fs_types[i]) {
			fs_types[i] = type;
			return;
		}
	}
	panic("register_filesystem: no room for %s", type->name);
}

void for_each_fs_type(void (*fn)(const struct filesystem_type *type, void *arg), void *arg)
{
	for (int i = 0; i < MAX_FS_TYPES && fs_types[i]; i++)
		fn(fs_types[i], arg);
}

const struct filesystem_type *get_fs_type(const char *name)
{
	for (int i = 0; i < MAX_FS_TYPES && fs_types[i]; i++)
		if (strcmp(fs_types[i]->name, name) == 0)
			return fs_types[i];
	return NULL;
}

static struct mount *mount_new(const struct filesystem_type *type, const char *path, const char *source,
			       bool rdonly, int *err)
{
	struct mount *m = kzalloc(sizeof(*m));
	int r;

	*err = -ENOMEM;
	if (!m)
		return NULL;
	m->rdonly = rdonly;
	m->mnt_flags = MNT_RELATIME;    /* Linux's default since 2.6.30; mount(2) may say otherwise */
	m->type = type;
	m->next_ino = 1;
	m->dev = SMPIX_MKDEV(0, __atomic_add_fetch(&mounts_made, 1, __ATOMIC_RELAXED));
	strlcpy(m->path, path, sizeof(m->path));
	strlcpy(m->source, source, sizeof(m->source));
	r = type->fill(m);
	if (r < 0 || !m->root) {
		kfree(m);
		*err = r < 0 ? r : -ENOMEM;
		return NULL;
	}
	return m;
}

/* Free a detached instance nobody uses: its inodes, then the mount, then its hold on the covered directory. */
static void mount_kill(struct mount *m)
{
	struct inode *covered = m->covered;

	if (atomic_read(&m->refs) != 1)
		panic("mount_kill: %s on %s still has %d references", m->type->name, m->path,
		      atomic_read(&m->refs));
	m->type->kill(m);
	kfree(m);
	iput(covered);                  /* may in turn free the mount it lives on, if detached too */
}

void mount_ref_get(struct mount *m)
{
	atomic_inc(&m->refs);
}

/*
 * Called after the inode's own count went down (and after any eviction), so
 * when a detached mount's refs reaches 1, every other inode of it is gone or
 * unreferenced, and nothing can take a new reference: kill it. Exactly one
 * caller sees the fall to 1.
 */
void mount_ref_put(struct mount *m)
{
	if (atomic_add_return(&m->refs, -1) == 1 && READ_ONCE(m->detached))
		mount_kill(m);
}

void vfs_mount_root(const struct filesystem_type *type)
{
	int err;
	struct mount *m = mount_new(type, "/", type->name, false, &err);

	if (!m)
		panic("vfs: cannot make the root file system (%s)", type->name);
	spin_lock(&mount_lock);
	list_add_tail(&m->link, &mounts);
	root_mount = m;
	spin_unlock(&mount_lock);
}

int vfs_mount_on(const struct walk_start *s, struct inode *dir, const struct filesystem_type *type,
		 const char *source, bool rdonly, unsigned mnt_flags)
{
	char path[sizeof(((struct mount *)0)->path)];
	struct mount *m;
	int r;

	if (!S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	r = path_of_dir(s->root, dir, path, sizeof(path));
	if (r == -ERANGE)
		strlcpy(path, "(a long path)", sizeof(path));
	else if (r < 0)
		return r;
	m = mount_new(type, path, source, rdonly, &r);
	if (!m)
		return r;
	m->mnt_flags = mnt_flags;
	spin_lock(&mount_lock);
	/* The walk stepped down to the top of any stack, so only a mount made meanwhile is here. */
	if (dir->i_flags & I_MOUNTPOINT) {
		spin_unlock(&mount_lock);
		m->detached = true;
		mount_kill(m);          /* a fresh instance nobody else has seen */
		return -EBUSY;
	}
	m->covered = igrab(dir);
	m->parent = dir->i_mnt;
	spin_lock(&dir->i_lock);
	dir->i_flags |= I_MOUNTPOINT;
	spin_unlock(&dir->i_lock);
	list_add_tail(&m->link, &mounts);
	spin_unlock(&mount_lock);
	return 0;
}

int vfs_mount(const struct filesystem_type *type, const char *path)
{
	struct walk_start s = { mount_root()->root, mount_root()->root };
	struct inode *dir;
	int r;

	r = path_walk(&s, path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir);
	if (r < 0)
		return r;
	r = vfs_mount_on(&s, dir, type, type->name, false, MNT_RELATIME);
	iput(dir);
	return r;
}

/* Take m out of the tree: no walk finds it from now on. Needs mount_lock. */
static void detach(struct mount *m)
{
	struct inode *covered = m->covered;

	assert_spin_held(&mount_lock);
	list_del(&m->link);
	spin_lock(&covered->i_lock);
	covered->i_flags &= ~I_MOUNTPOINT;
	spin_unlock(&covered->i_lock);
	m->detached = true;
}

/* MNT_DETACH: m and, first, every mount below it (they live on through m only). Needs mount_lock. */
static void detach_tree(struct mount *m)
{
	struct list_head *pos, *tmp;

	list_for_each_safe(pos, tmp, &mounts) {
		struct mount *c = list_entry(pos, struct mount, link);

		if (c->parent == m && !c->detached) {
			detach_tree(c);
			tmp = mounts.next;      /* the list changed under us: start over */
		}
	}
	detach(m);
}

static bool has_mounts_below(struct mount *m)
{
	struct list_head *pos;

	list_for_each(pos, &mounts)
		if (list_entry(pos, struct mount, link)->parent == m)
			return true;
	return false;
}

int vfs_umount(struct inode *top, int flags)
{
	struct mount *m = top->i_mnt;
	int r = 0;

	if (!m || top != m->root)
		return -EINVAL;                 /* not the root of a mount */
	if (!m->covered)
		return -EBUSY;                  /* the root file system */
	if ((flags & MNT_EXPIRE) && (flags & (MNT_FORCE | MNT_DETACH)))
		return -EINVAL;
	spin_lock(&mount_lock);
	if (m->detached) {
		r = -EINVAL;                    /* lost a race with another umount */
	} else if (flags & MNT_DETACH) {
		detach_tree(m);
	} else if (atomic_read(&m->refs) != 2 || has_mounts_below(m)) {
		r = -EBUSY;                     /* 2: the mount's hold on its root, and the caller's */
	} else if ((flags & MNT_EXPIRE) && !(m->expiry_mark && m->enters == m->enters_at_mark + 1)) {
		/* Not marked, or entered since by a walk other than this call's own: mark it (again). */
		m->expiry_mark = true;
		m->enters_at_mark = m->enters;
		r = -EAGAIN;
	} else {
		detach(m);
	}
	spin_unlock(&mount_lock);
	/* The instance is killed when the caller lets go of top (or later, for MNT_DETACH). */
	return r;
}

/*
 * Writers and a remount read-only meet here without a lock, as Linux's
 * mnt_want_write() and MNT_WRITE_HOLD: each first announces itself (writers
 * + 1, or rdonly set), then looks at the other's mark; a full barrier
 * between, so at least one of the two sees the other and backs off.
 */
int mount_want_write(struct mount *m)
{
	atomic_inc(&m->writers);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (READ_ONCE(m->rdonly)) {
		atomic_dec(&m->writers);
		return -EROFS;
	}
	return 0;
}

void mount_drop_write(struct mount *m)
{
	atomic_dec(&m->writers);
}

/* The flags are read without a lock: a remount replaces them whole (WRITE_ONCE). */
static unsigned flags_of(const struct inode *inode)
{
	return inode->i_mnt ? READ_ONCE(inode->i_mnt->mnt_flags) : 0;
}

bool mount_nodev(const struct inode *inode)
{
	return flags_of(inode) & MNT_NODEV;
}

bool mount_noexec(const struct inode *inode)
{
	return flags_of(inode) & MNT_NOEXEC;
}

bool mount_sync(const struct inode *inode)
{
	return flags_of(inode) & MNT_SYNCHRONOUS;
}

bool mount_dirsync(const struct inode *inode)
{
	return flags_of(inode) & (MNT_SYNCHRONOUS | MNT_DIRSYNC);
}

bool mount_rdonly(const struct inode *inode)
{
	return inode->i_mnt && READ_ONCE(inode->i_mnt->rdonly);
}

/* Set m read-only unless a file is open for writing: 0 or -EBUSY (fs_may_remount_ro()). */
static int hold_writers(struct mount *m)
{
	WRITE_ONCE(m->rdonly, true);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (atomic_read(&m->writers) == 0)
		return 0;
	WRITE_ONCE(m->rdonly, false);
	return -EBUSY;
}

/* Serializes remounts: one instance changes between read-only and writable once at a time. */
static DEFINE_MUTEX(remount_mutex);

int vfs_remount(struct inode *top, bool rdonly, unsigned mnt_flags)
{
	struct mount *m = top->i_mnt;
	int r = 0;

	if (!m || top != m->root)
		return -EINVAL;                 /* Linux: only the root of a mount is remounted */
	if (rdonly && !m->type->rdonly_ok)
		return -EINVAL;
	mutex_lock(&remount_mutex);
	if (rdonly && !m->rdonly) {
		r = hold_writers(m);            /* from here on, no new writer: the file system can flush */
		if (r == 0 && m->type->remount)
			r = m->type->remount(m, true);
		if (r < 0)
			WRITE_ONCE(m->rdonly, false);
	} else if (!rdonly && m->rdonly) {
		r = m->type->remount ? m->type->remount(m, false) : 0;
		if (r == 0)
			WRITE_ONCE(m->rdonly, false);   /* after the file system is ready for writes */
	}
	if (r == 0)
		WRITE_ONCE(m->mnt_flags, mnt_flags);
	mutex_unlock(&remount_mutex);
	return r;
}

/*
 * sync_fs may sleep, so it cannot run under mount_lock: take a reference on
 * the roots of up to SYNC_BATCH mounts under it, then call each without it.
 * A mount made after the snapshot is a mount the next sync catches.
 */
#define SYNC_BATCH 16

void sync_filesystems(void)
{
	struct inode *roots[SYNC_BATCH];
	struct list_head *pos;
	int n = 0;

	spin_lock(&mount_lock);
	list_for_each(pos, &mounts) {
		struct mount *m = list_entry(pos, struct mount, link);

		if (m->type->sync_fs && n < SYNC_BATCH)
			roots[n++] = igrab(m->root);
	}
	spin_unlock(&mount_lock);
	for (int i = 0; i < n; i++) {
		roots[i]->i_mnt->type->sync_fs(roots[i]->i_mnt);
		iput(roots[i]);         /* may free an instance unmounted meanwhile (MNT_DETACH) */
	}
}

struct inode *mount_enter(struct inode *dir)
{
	struct list_head *pos;
	struct inode *root = NULL;

	if (!(READ_ONCE(dir->i_flags) & I_MOUNTPOINT))
		return NULL;
	spin_lock(&mount_lock);
	list_for_each(pos, &mounts) {
		struct mount *m = list_entry(pos, struct mount, link);

		if (m->covered == dir) {
			m->enters++;            /* for MNT_EXPIRE: it was used */
			root = igrab(m->root);
			break;
		}
	}
	spin_unlock(&mount_lock);
	return root;
}

struct mount *mount_root(void)
{
	return root_mount;
}

uint32_t mount_new_ino(struct mount *m)
{
	return (uint32_t)__atomic_fetch_add(&m->next_ino, 1, __ATOMIC_RELAXED);
}

int mount_for_each(int (*fn)(const struct mount *m, void *arg), void *arg)
{
	struct list_head *pos;
	int r = 0;

	spin_lock(&mount_lock);
	for (pos = mounts.next; pos != &mounts && r == 0; pos = pos->next)
		r = fn(list_entry(pos, struct mount, link), arg);
	spin_unlock(&mount_lock);
	return r;
}
