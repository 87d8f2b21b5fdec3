/*
 * ramfs: a file system that lives only in memory. A directory is a list of
 * names; a regular file is an array of page pointers (NULL: a hole that
 * reads as zeros); a symlink is its target string. Nothing is ever written
 * back: the inode and its pages are the file. Directory methods run with the
 * directory's i_mutex held by the VFS; file data is guarded by i_mutex here.
 *
 * A file's pages are its page cache: a private mapping of the file maps
 * them (kernel/mm/filemap.c), read-only and copy-on-write, so every process
 * running a program shares its text. So each page is a reference-counted
 * frame (page_cache_alloc()): ramfs holds one reference, each mapping one
 * more, and truncating or freeing the file drops only ramfs's. The fault
 * path looks pages up without i_mutex (write() holds it while its copy from
 * user memory faults): pages_lock, a spinlock, guards the array for that.
 *
 * mount -o ro, or remount,ro (fs/mount.c): every change below answers
 * -EROFS (mount_rdonly(): Linux's mnt_want_write(), which is the VFS's
 * there; here each file system asks, as ext2 does too). Nothing is to be
 * written back first; a file open for writing keeps the remount away
 * (-EBUSY), so write() needs no check.
 */
#include "fs/ramfs/ramfs.h"

#include "fs/file.h"
#include "fs/inode.h"
#include "kernel/locking/atomic.h"
#include "kernel/lib/string.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/panic.h"
#include "kernel/uapi/dirent.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/stat.h"
#include "kernel/uapi/statfs.h"

#define RAMFS_MAX_FILE (64ll * 1024 * 1024)     /* a file's size limit: -EFBIG beyond */

struct ramfs_dirent {
	struct list_head link;
	struct inode *inode;            /* not referenced: the link count keeps it */
	size_t len;
	char name[];
};

/* i_private of every ramfs inode. */
struct ramfs_node {
	struct list_head entries;       /* directories: of struct ramfs_dirent */
	struct inode *parent;           /* directories: what ".." names (the root: itself) */
	char **pages;                   /* regular files: npages slots, NULL = a hole */
	uint32_t npages;
	spinlock_t pages_lock;          /* changes of pages and npages (under i_mutex too): for the fault path */
	char *target;                   /* symlinks */
};

/* Pages held by file data, in every ramfs instance: lock-free, for the leak check. */
static atomic_t file_pages;

static const struct inode_operations ramfs_dir_iops, ramfs_file_iops, ramfs_link_iops,
	ramfs_other_iops;
static const struct file_operations ramfs_dir_fops, ramfs_file_fops;

static struct ramfs_node *node_of(struct inode *inode)
{
	return inode->i_private;
}

/* Directory methods run with the directory's i_mutex held by the VFS: say so, and check it. */
static void need_i_mutex(struct inode *dir, const char *fn)
{
	if (!mutex_is_mine(&dir->i_mutex))
		panic("ramfs: %s without the directory's i_mutex", fn);
}

int ramfs_page_count(void)
{
	return atomic_read(&file_pages);
}

/* ---- inodes -------------------------------------------------------------------- */

static struct inode *ramfs_new_inode(struct mount *m, uint32_t mode, uint32_t rdev)
{
	struct inode *inode = inode_alloc(m, mode);
	struct ramfs_node *n = kzalloc(sizeof(*n));

	if (!inode || !n) {
		kfree(n);
		if (inode) {
			inode->i_count = 0;
			inode_free(inode);
			mount_ref_put(m);       /* inode_alloc's, without an iput */
		}
		return NULL;
	}
	list_init(&n->entries);
	spin_lock_init(&n->pages_lock, "ramfs_pages");
	inode->i_private = n;
	inode->i_ino = mount_new_ino(m);
	inode->i_rdev = rdev;
	switch (mode & S_IFMT) {
	case S_IFDIR:
		inode->i_op = &ramfs_dir_iops;
		inode->i_fop = &ramfs_dir_fops;
		inode->i_nlink = 2;             /* its name and its own "." */
		break;
	case S_IFREG:
		inode->i_op = &ramfs_file_iops;
		inode->i_fop = &ramfs_file_fops;
		break;
	case S_IFLNK:
		inode->i_op = &ramfs_link_iops;
		break;
	default:                        /* device nodes, FIFOs, sockets: open() finds their fops */
		inode->i_op = &ramfs_other_iops;
		break;
	}
	return inode;
}

/*
 * Let go of the pages from index first on. Needs i_mutex (or the last
 * reference). A page some process maps lives on until it is unmapped.
 */
static void free_pages_from(struct ramfs_node *n, uint32_t first)
{
	for (uint32_t i = first; i < n->npages; i++) {
		char *page;

		spin_lock(&n->pages_lock);
		page = n->pages[i];
		n->pages[i] = NULL;
		spin_unlock(&n->pages_lock);
		if (page) {
			page_cache_put(V2P((uintptr_t)page));
			atomic_dec(&file_pages);
		}
	}
}

bool ramfs_file_frame(struct inode *inode, uint32_t idx, physaddr_t *pa)
{
	struct ramfs_node *n;
	bool found = false;

	if (inode->i_fop != &ramfs_file_fops)
		return false;
	n = node_of(inode);
	spin_lock(&n->pages_lock);
	if (idx < n->npages && n->pages[idx]) {
		*pa = V2P((uintptr_t)n->pages[idx]);
		page_cache_get(*pa);    /* before the lock goes: a truncate cannot free it now */
		found = true;
	}
	spin_unlock(&n->pages_lock);
	return found;
}

static void ramfs_evict(struct inode *inode)
{
	struct ramfs_node *n = node_of(inode);

	free_pages_from(n, 0);
	kfree(n->pages);
	kfree(n->target);
	kfree(n);
	inode_free(inode);
}

/* ---- directories ------------------------------------------------------------------ */

static struct ramfs_dirent *find_entry(struct inode *dir, const struct qstr *name)
{
	struct list_head *pos;

	list_for_each(pos, &node_of(dir)->entries) {
		struct ramfs_dirent *d = list_entry(pos, struct ramfs_dirent, link);

		if (d->len == name->len && memcmp(d->name, name->name, name->len) == 0)
			return d;
	}
	return NULL;
}

static int add_entry(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	struct ramfs_dirent *d = kmalloc(sizeof(*d) + name->len + 1);

	if (!d)
		return -ENOMEM;
	d->inode = inode;
	d->len = name->len;
	memcpy(d->name, name->name, name->len);
	d->name[name->len] = '\0';
	list_add_tail(&d->link, &node_of(dir)->entries);
	dir->i_size++;
	inode_touch(dir, true, true);
	return 0;
}

static void remove_entry(struct inode *dir, struct ramfs_dirent *d)
{
	list_del(&d->link);
	kfree(d);
	dir->i_size--;
	inode_touch(dir, true, true);
}

static int ramfs_lookup(struct inode *dir, const struct qstr *name, struct inode **out)
{
	struct ramfs_dirent *d;

	need_i_mutex(dir, __func__);
	if (name->len == 1 && name->name[0] == '.') {
		*out = igrab(dir);
		return 0;
	}
	if (name->len == 2 && name->name[0] == '.' && name->name[1] == '.') {
		*out = igrab(node_of(dir)->parent);
		return 0;
	}
	d = find_entry(dir, name);
	if (!d)
		return -ENOENT;
	*out = igrab(d->inode);
	return 0;
}

static int ramfs_create(struct inode *dir, const struct qstr *name, uint32_t mode, uint32_t rdev,
			struct inode **out)
{
	struct inode *inode;
	int r;

	need_i_mutex(dir, __func__);
	if (mount_rdonly(dir))
		return -EROFS;
	if (dir->i_nlink == 0)
		return -ENOENT;         /* the directory was removed while we walked to it */
	inode = ramfs_new_inode(dir->i_mnt, mode, rdev);
	if (!inode)
		return -ENOMEM;
	r = add_entry(dir, name, inode);
	if (r < 0) {
		inode->i_nlink = 0;
		iput(inode);
		return r;
	}
	if (S_ISDIR(mode)) {
		node_of(inode)->parent = dir;
		inode_inc_link(dir);            /* the child's ".." */
	}
	*out = inode;
	return 0;
}

static int ramfs_symlink(struct inode *dir, const struct qstr *name, const char *target)
{
	size_t len = strlen(target);
	struct inode *inode;
	char *copy = kmalloc(len + 1);
	int r;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, target, len + 1);
	r = ramfs_create(dir, name, S_IFLNK | 0777, 0, &inode);
	if (r < 0) {
		kfree(copy);
		return r;
	}
	node_of(inode)->target = copy;
	inode->i_size = (loff_t)len;
	iput(inode);
	return 0;
}

static int ramfs_link(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	int r;

	need_i_mutex(dir, __func__);
	if (mount_rdonly(dir))
		return -EROFS;
	if (dir->i_nlink == 0)
		return -ENOENT;
	r = add_entry(dir, name, inode);
	if (r == 0)
		inode_inc_link(inode);
	return r;
}

static int ramfs_unlink(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	struct ramfs_dirent *d = find_entry(dir, name);

	need_i_mutex(dir, __func__);
	if (mount_rdonly(dir))
		return -EROFS;
	if (!d || d->inode != inode)
		return -ENOENT;
	remove_entry(dir, d);
	inode_dec_link(inode);
	return 0;
}

/* Called with the child's i_mutex held too (parent before child). */
static int ramfs_rmdir(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	struct ramfs_dirent *d = find_entry(dir, name);

	need_i_mutex(dir, __func__);
	need_i_mutex(inode, __func__);          /* the child's too: its list is read */
	if (mount_rdonly(dir))
		return -EROFS;
	if (!d || d->inode != inode)
		return -ENOENT;
	if (!list_empty(&node_of(inode)->entries))
		return -ENOTEMPTY;
	remove_entry(dir, d);
	inode_dec_link(inode);          /* its name */
	inode_dec_link(inode);          /* its "." */
	inode_dec_link(dir);            /* its ".." */
	return 0;
}

/*
 * The VFS has checked everything that can fail but memory: both names'
 * types match, a directory replaced is empty, no directory moves below
 * itself, and it holds what it replaces (so the eviction is its iput()).
 */
static int ramfs_rename(struct inode *old_dir, const struct qstr *old_name,
			struct inode *new_dir, const struct qstr *new_name)
{
	struct ramfs_dirent *d = find_entry(old_dir, old_name), *victim, *moved;
	struct inode *inode;

	need_i_mutex(old_dir, __func__);
	need_i_mutex(new_dir, __func__);
	if (mount_rdonly(old_dir))
		return -EROFS;         /* one mount: the VFS refused a rename across two */
	if (!d)
		return -ENOENT;
	if (new_dir->i_nlink == 0)
		return -ENOENT;         /* removed while we walked to it: nothing may be put there */
	inode = d->inode;
	victim = find_entry(new_dir, new_name);
	if (victim && victim->inode == inode)
		return 0;               /* two names of one file: POSIX says do nothing */
	moved = kmalloc(sizeof(*moved) + new_name->len + 1);
	if (!moved)
		return -ENOMEM;
	if (victim) {
		struct inode *v = victim->inode;

		remove_entry(new_dir, victim);
		inode_dec_link(v);
		if (S_ISDIR(v->i_mode)) {
			inode_dec_link(v);
			inode_dec_link(new_dir);
		}
	}
	moved->inode = inode;
	moved->len = new_name->len;
	memcpy(moved->name, new_name->name, new_name->len);
	moved->name[new_name->len] = '\0';
	remove_entry(old_dir, d);
	list_add_tail(&moved->link, &node_of(new_dir)->entries);
	new_dir->i_size++;
	inode_touch(new_dir, true, true);
	if (S_ISDIR(inode->i_mode) && old_dir != new_dir) {
		node_of(inode)->parent = new_dir;
		inode_dec_link(old_dir);
		inode_inc_link(new_dir);
	}
	inode_touch(inode, false, true);
	return 0;
}

/*
 * Positions: 0 is ".", 1 is "..", 2 + k is the k-th entry of the list. A name
 * removed before the reader's position shifts the rest down by one, so a
 * reader listing while others unlink may miss a name (POSIX allows it).
 */
static int ramfs_readdir(struct file *f, struct dir_context *ctx)
{
	struct inode *dir = f->f_inode;
	struct ramfs_node *n = node_of(dir);
	struct list_head *pos;
	loff_t i = 2;

	need_i_mutex(dir, __func__);
	if (f->f_pos == 0) {
		if (!ctx->emit(ctx, ".", 1, dir->i_ino, DT_DIR, 1))
			return 0;
		f->f_pos = 1;
	}
	if (f->f_pos == 1) {
		struct inode *up = dir;

		/*
		 * A mounted instance's root names itself: its real parent is in another
		 * file system, and finding it here would take a second i_mutex.
		 */
		if (!(dir->i_mnt && dir == dir->i_mnt->root && dir->i_mnt->covered))
			up = n->parent;
		if (!ctx->emit(ctx, "..", 2, up->i_ino, DT_DIR, 2))
			return 0;
		f->f_pos = 2;
	}
	list_for_each(pos, &n->entries) {
		struct ramfs_dirent *d = list_entry(pos, struct ramfs_dirent, link);

		if (i++ < f->f_pos)
			continue;
		if (!ctx->emit(ctx, d->name, d->len, d->inode->i_ino, (d->inode->i_mode & S_IFMT) >> 12, i))
			return 0;
		f->f_pos = i;
	}
	return 0;
}

/* ---- regular files ------------------------------------------------------------------- */

/* Make sure the page array has room for index idx. Needs i_mutex. */
static int grow_page_array(struct ramfs_node *n, uint32_t idx)
{
	uint32_t cap = n->npages ? n->npages : 4;
	char **pages, **old;

	if (idx < n->npages)
		return 0;
	while (cap <= idx)
		cap *= 2;
	pages = kzalloc(cap * sizeof(char *));
	if (!pages)
		return -ENOMEM;
	spin_lock(&n->pages_lock);
	if (n->pages)
		memcpy(pages, n->pages, n->npages * sizeof(char *));
	old = n->pages;
	n->pages = pages;
	n->npages = cap;
	spin_unlock(&n->pages_lock);
	kfree(old);
	return 0;
}

static char *page_for_write(struct ramfs_node *n, uint32_t idx)
{
	physaddr_t pa;

	if (grow_page_array(n, idx) < 0)
		return NULL;
	if (!n->pages[idx]) {
		pa = page_cache_alloc();        /* zeroed */
		if (!pa)
			return NULL;
		spin_lock(&n->pages_lock);
		n->pages[idx] = P2V(pa);
		spin_unlock(&n->pages_lock);
		atomic_inc(&file_pages);
	}
	return n->pages[idx];
}

static const char zero_page[PAGE_SIZE];

static ssize_t ramfs_read(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	struct inode *inode = f->f_inode;
	struct ramfs_node *n = node_of(inode);
	size_t done = 0;
	int r = 0;

	mutex_lock(&inode->i_mutex);
	if (*pos < inode->i_size && count > (uint64_t)(inode->i_size - *pos))
		count = (size_t)(inode->i_size - *pos);
	while (*pos < inode->i_size && done < count) {
		uint32_t idx = (uint32_t)(*pos / PAGE_SIZE), off = (uint32_t)(*pos % PAGE_SIZE);
		size_t chunk = MIN(count - done, (size_t)(PAGE_SIZE - off));
		const char *src = idx < n->npages && n->pages[idx] ? n->pages[idx] + off : zero_page;

		r = copy_to_user(ubuf + done, src, chunk);
		if (r < 0)
			break;
		done += chunk;
		*pos += chunk;
	}
	mutex_unlock(&inode->i_mutex);
	return done ? (ssize_t)done : r;
}

static ssize_t ramfs_write(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	struct inode *inode = f->f_inode;
	struct ramfs_node *n = node_of(inode);
	size_t done = 0;
	int r = 0;

	mutex_lock(&inode->i_mutex);
	if (f->f_flags & O_APPEND)
		*pos = inode->i_size;   /* under i_mutex: two appenders never overwrite each other */
	if (*pos >= RAMFS_MAX_FILE && count) {
		mutex_unlock(&inode->i_mutex);
		return -EFBIG;
	}
	if (count > (uint64_t)(RAMFS_MAX_FILE - *pos))
		count = (size_t)(RAMFS_MAX_FILE - *pos);
	while (done < count) {
		uint32_t idx = (uint32_t)(*pos / PAGE_SIZE), off = (uint32_t)(*pos % PAGE_SIZE);
		size_t chunk = MIN(count - done, (size_t)(PAGE_SIZE - off));
		char *page = page_for_write(n, idx);

		if (!page) {
			r = -ENOSPC;
			break;
		}
		r = copy_from_user(page + off, ubuf + done, chunk);
		if (r < 0)
			break;
		done += chunk;
		*pos += chunk;
		if (*pos > inode->i_size)
			inode->i_size = *pos;
	}
	mutex_unlock(&inode->i_mutex);
	if (done)
		inode_touch(inode, true, true);
	return done ? (ssize_t)done : r;
}

static int ramfs_truncate(struct inode *inode, loff_t size)
{
	struct ramfs_node *n = node_of(inode);
	uint32_t keep;

	if (mount_rdonly(inode))
		return -EROFS;
	if (size > RAMFS_MAX_FILE)
		return -EFBIG;
	mutex_lock(&inode->i_mutex);
	keep = (uint32_t)((size + PAGE_SIZE - 1) / PAGE_SIZE);
	free_pages_from(n, keep);
	/* The part of the last page past the new end must read as zero if the file grows again. */
	if (size % PAGE_SIZE && keep - 1 < n->npages && n->pages[keep - 1])
		memset(n->pages[keep - 1] + size % PAGE_SIZE, 0, PAGE_SIZE - size % PAGE_SIZE);
	inode->i_size = size;
	mutex_unlock(&inode->i_mutex);
	inode_touch(inode, true, true);
	return 0;
}

/* ---- symlinks ------------------------------------------------------------------------- */

static int ramfs_readlink(struct inode *inode, char *buf, size_t size)
{
	const char *t = node_of(inode)->target;
	size_t len = t ? strlen(t) : 0;

	len = MIN(len, size);
	memcpy(buf, t, len);
	return (int)len;
}

/* ---- the tables and the file system type ---------------------------------------------------- */

static const struct inode_operations ramfs_dir_iops = {
	.lookup = ramfs_lookup,
	.create = ramfs_create,
	.symlink = ramfs_symlink,
	.link = ramfs_link,
	.unlink = ramfs_unlink,
	.rmdir = ramfs_rmdir,
	.rename = ramfs_rename,
	.evict = ramfs_evict,
};

static const struct inode_operations ramfs_file_iops = {
	.truncate = ramfs_truncate,
	.evict = ramfs_evict,
};

static const struct inode_operations ramfs_link_iops = {
	.readlink = ramfs_readlink,
	.evict = ramfs_evict,
};

static const struct inode_operations ramfs_other_iops = {
	.evict = ramfs_evict,
};

static const struct file_operations ramfs_dir_fops = {
	.llseek = generic_file_llseek,   /* its own llseek: no BKL (the default takes it) */
	.name = "ramfs",
	.readdir = ramfs_readdir,
};

static const struct file_operations ramfs_file_fops = {
	.llseek = generic_file_llseek,   /* its own llseek: no BKL (the default takes it) */
	.name = "ramfs",
	.read = ramfs_read,
	.write = ramfs_write,
};

static int ramfs_fill(struct mount *m)
{
	struct inode *root = ramfs_new_inode(m, S_IFDIR | 0755, 0);

	if (!root)
		return -ENOMEM;
	node_of(root)->parent = root;   /* ".." of the root is the root (the VFS steps out of mounts) */
	m->root = root;
	return 0;
}

/*
 * Free an unmounted instance, whose inodes nobody refers to (fs/mount.h):
 * depth first without recursion (a deep tree must not overrun the kernel
 * stack), each directory after its entries, each file with its last name.
 */
void ramfs_kill(struct mount *m)
{
	struct inode *root = m->root, *cur = root;

	for (;;) {
		struct ramfs_node *n = node_of(cur);
		struct ramfs_dirent *d;
		struct inode *child;

		if (list_empty(&n->entries)) {
			if (cur == root)
				break;
			cur = n->parent;        /* whose first entry is cur, now empty: freed next */
			continue;
		}
		d = list_entry(n->entries.next, struct ramfs_dirent, link);
		child = d->inode;
		if (S_ISDIR(child->i_mode) && !list_empty(&node_of(child)->entries)) {
			cur = child;
			continue;
		}
		list_del(&d->link);
		kfree(d);
		if (S_ISDIR(child->i_mode) || --child->i_nlink == 0)
			ramfs_evict(child);
	}
	root->i_count = 0;              /* the mount's reference, the last */
	ramfs_evict(root);
}

const struct filesystem_type ramfs_type = {
	.name = "ramfs", .magic = RAMFS_MAGIC, .fill = ramfs_fill, .kill = ramfs_kill, .rdonly_ok = true,
};
/* tmpfs is ramfs under the name Linux programs ask for (smpix has no swap to make it differ). */
const struct filesystem_type tmpfs_type = {
	.name = "tmpfs", .magic = TMPFS_MAGIC, .fill = ramfs_fill, .kill = ramfs_kill, .rdonly_ok = true,
};
