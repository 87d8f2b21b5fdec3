/*
 * devfs: the /dev directory. It is a ramfs instance of its own (so /proc/mounts
 * shows it), filled not from the initrd but by the character-device registry:
 * each chrdev_register() adds a node here. Nodes may also be made, renamed
 * and removed by hand, as in any ramfs.
 *
 * mount(2) makes more instances under Linux's name for it, devtmpfs: each
 * starts with a node for every device registered by then (all of them: the
 * drivers register at boot). Linux shows one shared instance wherever
 * devtmpfs is mounted; in smpix a node made or removed by hand in one is not
 * seen in another.
 */
#include "fs/devfs/devfs.h"

#include "fs/devfs/chrdev.h"
#include "fs/inode.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/ramfs/ramfs.h"
#include "kernel/locking/atomic.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"
#include "kernel/uapi/statfs.h"

/* The root of the devfs on /dev; NULL until devfs_mount(). Written once. */
static struct inode *devfs_root;

static int add_registered(unsigned major, unsigned minor, const char *name, uint32_t mode, void *arg);

/* A ramfs instance with a node for every registered device. */
static int devfs_fill(struct mount *m)
{
	int r = ramfs_type.fill(m);

	if (r == 0)
		chrdev_for_each(add_registered, m->root);
	return r;
}

static const struct filesystem_type devfs_type = {
	.name = "devfs", .magic = TMPFS_MAGIC, .fill = devfs_fill, .kill = ramfs_kill,
};
static const struct filesystem_type devtmpfs_type = {
	.name = "devtmpfs", .magic = TMPFS_MAGIC, .fill = devfs_fill, .kill = ramfs_kill,
};

/* Find or make the directory or node name in dir; a referenced inode in *out. */
static int get_or_make(struct inode *dir, const struct qstr *name, uint32_t mode, uint32_t rdev,
		       struct inode **out)
{
	int r;

	mutex_lock(&dir->i_mutex);
	r = dir->i_op->lookup(dir, name, out);
	if (r == -ENOENT)
		r = dir->i_op->create(dir, name, mode, rdev, out);
	else if (r == 0 && !S_ISDIR(mode)) {
		iput(*out);
		r = -EEXIST;
	}
	mutex_unlock(&dir->i_mutex);
	return r;
}

/* Make name ("cpu/0/cpuid": with its directories) under the directory root. */
static int add_node_under(struct inode *root, const char *name, uint32_t mode, uint32_t rdev)
{
	struct inode *dir = igrab(root), *next;
	const char *p = name;
	int r = 0;

	for (;;) {
		const char *q = p;
		struct qstr part;

		while (*q && *q != '/')
			q++;
		part.name = p;
		part.len = (size_t)(q - p);
		if (part.len == 0) {
			r = -EINVAL;
			break;
		}
		if (*q == '\0') {       /* the last part: the node itself */
			r = get_or_make(dir, &part, mode, rdev, &next);
			if (r == 0)
				iput(next);
			break;
		}
		r = get_or_make(dir, &part, S_IFDIR | 0755, 0, &next);
		if (r < 0)
			break;
		iput(dir);
		dir = next;
		p = q + 1;
	}
	iput(dir);
	return r;
}

int devfs_add_node(const char *name, uint32_t mode, uint32_t rdev)
{
	struct inode *root = READ_ONCE(devfs_root);

	if (!root)
		return 0;               /* devfs_mount() will make it */
	return add_node_under(root, name, mode, rdev);
}

static int add_registered(unsigned major, unsigned minor, const char *name, uint32_t mode, void *arg)
{
	int r = add_node_under(arg, name, mode, SMPIX_MKDEV(major, minor));

	if (r < 0)
		printk("devfs: cannot make /dev/%s: error %d\n", name, r);
	return 0;
}

int devfs_mount(void)
{
	struct walk_start s = { mount_root()->root, mount_root()->root };
	struct inode *dev;
	int r;

	register_filesystem(&devtmpfs_type);
	r = vfs_mount(&devfs_type, "/dev");    /* its fill makes the nodes registered so far */
	if (r < 0)
		return r;
	r = path_walk(&s, "/dev", LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dev);
	if (r < 0)
		return r;
	WRITE_ONCE(devfs_root, dev);    /* keeps the walk's reference for good: /dev stays busy */
	return 0;
}
