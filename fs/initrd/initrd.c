/*
 * The initrd: each Multiboot module is a cpio "newc" archive; fs/initrd/cpio.c
 * parses it and we make each member in the root ramfs: directories, regular
 * files (their bytes copied into ramfs pages), symlinks and device nodes,
 * with the archive's modes, owners and times. A bad archive stops the
 * unpacking at the bad member with a message saying why; what came before stays.
 */
#include "fs/initrd/initrd.h"

#include "fs/initrd/cpio.h"
#include "fs/file.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/multiboot.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/stat.h"

/*
 * Hard links. newc gives each name of a multiply linked file a header of its
 * own, all with the same inode number, and the data with only one of them
 * (GNU cpio: the last). As Linux's initramfs does, the first name of such a
 * file is made, each later one with the same (dev, ino, mode) becomes a link
 * to it, and the data goes into the shared inode whichever header carries it.
 */
struct link_seen {
	struct link_seen *next;
	uint32_t ino, dev_major, dev_minor, mode;
	char *path;
};

struct unpack {
	struct walk_start s;            /* "/" for both root and start */
	int made, skipped;
	struct link_seen *links;        /* names of files with nlink >= 2 made so far */
};

static struct link_seen *link_find(const struct unpack *u, const struct cpio_entry *e)
{
	for (struct link_seen *l = u->links; l; l = l->next)
		if (l->ino == e->ino && l->dev_major == e->dev_major && l->dev_minor == e->dev_minor &&
		    l->mode == e->mode)
			return l;
	return NULL;
}

/* Remember path as the first name of e's file; out of memory, later names become copies. */
static void link_remember(struct unpack *u, const struct cpio_entry *e, const char *path)
{
	struct link_seen *l = kzalloc(sizeof(*l));
	size_t n = strlen(path) + 1;

	if (!l || !(l->path = kmalloc(n))) {
		kfree(l);
		return;
	}
	memcpy(l->path, path, n);
	l->ino = e->ino;
	l->dev_major = e->dev_major;
	l->dev_minor = e->dev_minor;
	l->mode = e->mode;
	l->next = u->links;
	u->links = l;
}

static void links_forget(struct unpack *u)
{
	while (u->links) {
		struct link_seen *l = u->links;

		u->links = l->next;
		kfree(l->path);
		kfree(l);
	}
}


/* A regular file's bytes, written through the VFS like any other write. */
static int fill_file(struct inode *inode, const struct cpio_entry *e)
{
	struct file *f;
	ssize_t n;
	int r = 0;

	if (e->size == 0) {
		iput(inode);
		return 0;
	}
	f = file_open_inode(inode, inode->i_fop, O_WRONLY, &r);
	if (!f)
		return r;
	n = kernel_write(f, e->data, e->size, 0);
	fput(f);
	if (n < 0)
		return (int)n;
	return (size_t)n == e->size ? 0 : -ENOSPC;
}

/* Another name of a file made before: link it, and write the data if this header has it. */
static int make_link(const struct unpack *u, const struct cpio_entry *e, const struct link_seen *l,
		     const char *path)
{
	struct inode *inode;
	int r = path_walk(&u->s, l->path, 0, &inode);

	if (r < 0)
		return r;
	r = vfs_link_node(&u->s, path, inode);
	if (r < 0) {
		iput(inode);
		return r;
	}
	return fill_file(inode, e);     /* takes the reference */
}

static void set_attributes(struct inode *inode, const struct cpio_entry *e)
{
	spin_lock(&inode->i_lock);
	inode->i_mode = e->mode;
	inode->i_uid = e->uid;
	inode->i_gid = e->gid;
	inode->i_mtime = inode->i_ctime = e->mtime;
	spin_unlock(&inode->i_lock);
}

/* Make one member. Errors on one member are reported, and the next one is tried. */
static int make_entry(struct unpack *u, const struct cpio_entry *e, char *path)
{
	uint32_t type = e->mode & S_IFMT;
	struct inode *inode = NULL;
	int r;

	switch (type) {
	case S_IFLNK: {
		char *target = kmalloc(e->size + 1);

		if (!target)
			return -ENOMEM;
		memcpy(target, e->data, e->size);
		target[e->size] = '\0';
		r = e->size && e->size < PATH_MAX ? vfs_make_node(&u->s, path, e->mode, 0, target, NULL) : -EINVAL;
		kfree(target);
		return r;
	}
	case S_IFDIR:
		r = vfs_make_node(&u->s, path, e->mode, 0, NULL, &inode);
		if (r == -EEXIST)       /* made before (e.g. /dev by the kernel): take the archive's mode */
			r = path_walk(&u->s, path, 0, &inode);
		if (r == 0) {
			if (S_ISDIR(inode->i_mode))
				set_attributes(inode, e);
			iput(inode);
		}
		return r;
	case S_IFREG:
		if (e->nlink >= 2 && link_find(u, e))
			return make_link(u, e, link_find(u, e), path);
		r = vfs_make_node(&u->s, path, e->mode, 0, NULL, &inode);
		if (r < 0)
			return r;
		if (e->nlink >= 2)
			link_remember(u, e, path);
		set_attributes(inode, e);
		return fill_file(inode, e);
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		r = vfs_make_node(&u->s, path, e->mode, SMPIX_MKDEV(e->rdev_major, e->rdev_minor), NULL, &inode);
		if (r == 0) {
			set_attributes(inode, e);
			iput(inode);
		}
		return r;
	default:
		return -EINVAL;
	}
}

static int unpack_one(const struct cpio_entry *e, void *arg)
{
	struct unpack *u = arg;
	char *path;
	int r;

	if (e->namelen == 0 || e->namelen + 2 > PATH_MAX) {
		u->skipped++;
		return 0;
	}
	path = kmalloc(e->namelen + 2);
	if (!path)
		return -ENOMEM;
	path[0] = '/';
	memcpy(path + 1, e->name, e->namelen);
	path[e->namelen + 1] = '\0';
	r = make_entry(u, e, path);
	if (r < 0) {
		printk("initrd: cannot make %s (mode %o): error %d\n", path, e->mode, r);
		u->skipped++;
	} else {
		u->made++;
	}
	kfree(path);
	return 0;
}

void initrd_unpack(void)
{
	struct inode *root = mount_root()->root;
	struct unpack u = { { root, root }, 0, 0, NULL };

	if (boot_info.nmodules == 0)
		printk("initrd: no initrd module: / is empty\n");
	for (int i = 0; i < boot_info.nmodules; i++) {
		const struct boot_module *m = &boot_info.modules[i];
		const char *why = NULL;
		int r;

		if (m->end > DIRECT_MAP_MAX || m->end < m->start) {
			printk("initrd: module %d at %x-%x is out of reach: ignored\n", i, m->start, m->end);
			continue;
		}
		r = cpio_parse(P2V(m->start), m->end - m->start, unpack_one, &u, &why);
		if (r == -EINVAL)
			printk("initrd: bad archive (module %d): %s; keeping the %d entries before it\n",
			       i, why ? why : "?", u.made);
		else if (r < 0)
			printk("initrd: unpacking module %d failed: error %d\n", i, r);
	}
	links_forget(&u);
	printk("initrd: %d entries unpacked into /%s\n", u.made, u.skipped ? " (some skipped: see above)" : "");
}
