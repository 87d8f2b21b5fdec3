/* Mounts: the list of file system instances and the directories they cover. */
#include "fs/mount.h"

#include "fs/inode.h"
#include "fs/namei.h"
#include "kernel/locking/atomic.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/panic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

/*
 * Protects the mount list and each covered directory's I_MOUNTPOINT bit.
 * Mounts are never removed (no umount yet), so a struct mount found under
 * the lock stays valid after it is dropped.
 */
static spinlock_t mount_lock = SPINLOCK_INIT("mounts");
static struct list_head mounts = LIST_HEAD_INIT(mounts);
static struct mount *root_mount;
static uint32_t mounts_made;            /* for st_dev: atomic */

static struct mount *mount_new(const struct filesystem_type *type, const char *path)
{
	struct mount *m = kzalloc(sizeof(*m));
	int r;

	if (!m)
		return NULL;
	m->type = type;
	m->next_ino = 1;
	m->dev = SMPIX_MKDEV(0, __atomic_add_fetch(&mounts_made, 1, __ATOMIC_RELAXED));
	strlcpy(m->path, path, sizeof(m->path));
	r = type->fill(m);
	if (r < 0 || !m->root) {
		kfree(m);
		return NULL;
	}
	return m;
}

void vfs_mount_root(const struct filesystem_type *type)
{
	struct mount *m = mount_new(type, "/");

	if (!m)
		panic("vfs: cannot make the root file system (%s)", type->name);
	spin_lock(&mount_lock);
	list_add_tail(&m->link, &mounts);
	root_mount = m;
	spin_unlock(&mount_lock);
}

int vfs_mount(const struct filesystem_type *type, const char *path)
{
	struct walk_start s = { mount_root()->root, mount_root()->root };
	struct inode *dir;
	struct mount *m;
	int r;

	r = path_walk(&s, path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir);
	if (r < 0)
		return r;
	m = mount_new(type, path);
	if (!m) {
		iput(dir);
		return -ENOMEM;
	}
	spin_lock(&mount_lock);
	if (dir->i_flags & I_MOUNTPOINT) {
		spin_unlock(&mount_lock);
		iput(m->root);          /* a fresh instance nobody else has seen */
		kfree(m);
		iput(dir);
		return -EBUSY;
	}
	m->covered = dir;               /* the walk's reference is the mount's now */
	m->parent = dir->i_mnt;
	spin_lock(&dir->i_lock);
	dir->i_flags |= I_MOUNTPOINT;
	spin_unlock(&dir->i_lock);
	list_add_tail(&m->link, &mounts);
	spin_unlock(&mount_lock);
	return 0;
}

struct mount *mount_on(struct inode *dir)
{
	struct list_head *pos;
	struct mount *found = NULL;

	if (!(READ_ONCE(dir->i_flags) & I_MOUNTPOINT))
		return NULL;
	spin_lock(&mount_lock);
	list_for_each(pos, &mounts) {
		struct mount *m = list_entry(pos, struct mount, link);

		if (m->covered == dir) {
			found = m;
			break;
		}
	}
	spin_unlock(&mount_lock);
	return found;
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

	/* Safe without the lock held across fn: mounts are only ever added, at the tail. */
	spin_lock(&mount_lock);
	pos = mounts.next;
	spin_unlock(&mount_lock);
	while (pos != &mounts && r == 0) {
		r = fn(list_entry(pos, struct mount, link), arg);
		spin_lock(&mount_lock);
		pos = pos->next;
		spin_unlock(&mount_lock);
	}
	return r;
}
