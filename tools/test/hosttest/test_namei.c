// TESTS: fs/namei.c fs/inode.c fs/mount.c fs/ramfs/ramfs.c
/* The path walk on a real ramfs tree: ., .., slashes, mounts, symlinks, limits, getcwd's names. */
#include "hosttest.h"
#include "stubs.h"

#include <stdint.h>

#include "fs/file.h"
#include "fs/inode.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/ramfs/ramfs.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/pmm.h"
#include "kernel/locking/mutex.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/stat.h"

/* ramfs keeps linked inodes for good, as the kernel does: not a leak. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

/* ---- stand-ins for the kernel services these files use ------------------------------- */

void *kmalloc(size_t n) { return malloc(n); }
void *kzalloc(size_t n) { return calloc(1, n); }
void kfree(void *p) { free(p); }
void spin_lock_init_class(spinlock_t *l, const char *name, struct lock_class *c) { memset(l, 0, sizeof(*l)); l->name = name; l->class = c; }
physaddr_t pmm_alloc_pages(unsigned n) { (void)n; return 0; }  /* no file data in these tests */
void pmm_free_pages(physaddr_t pa, unsigned n) { (void)pa; (void)n; abort(); }
/* ramfs's file pages are reference-counted frames (kernel/mm/filemap.c): none in these tests either. */
physaddr_t page_cache_alloc(void) { return 0; }
void page_cache_get(physaddr_t pa) { (void)pa; abort(); }
void page_cache_put(physaddr_t pa) { (void)pa; abort(); }
size_t strlcpy(char *d, const char *s, size_t size)
{
	size_t n = strlen(s);

	if (size) {
		size_t k = n < size - 1 ? n : size - 1;

		memcpy(d, s, k);
		d[k] = '\0';
	}
	return n;
}
int copy_to_user(void *d, const void *s, size_t n) { memcpy(d, s, n); return 0; }
int copy_from_user(void *d, const void *s, size_t n) { memcpy(d, s, n); return 0; }

/* One thread here: a mutex taken twice is a lock-order bug the walk must never have. */
static int mutexes_held;
void mutex_init_class(struct mutex *m, const char *name, struct lock_class *c) { memset(m, 0, sizeof(*m)); m->name = name; m->class = c; }
void mutex_lock(struct mutex *m)
{
	if (m->owner)
		panic("mutex %s taken twice", m->name);
	m->owner = (struct task *)1;
	mutexes_held++;
}
bool mutex_is_mine(const struct mutex *m) { return m->owner != NULL; }
void mutex_unlock(struct mutex *m)
{
	if (!m->owner)
		panic("mutex %s unlocked but not held", m->name);
	m->owner = NULL;
	mutexes_held--;
}
/* ramfs names the VFS's llseek in its file_operations; these tests never seek. */
loff_t generic_file_llseek(struct file *f, loff_t offset, int whence) { (void)f; (void)offset; (void)whence; abort(); }

/* ---- building a tree ------------------------------------------------------------------- */

static struct walk_start root_start;

static struct inode *walk(const char *path, unsigned flags, int *err)
{
	struct inode *out = NULL;

	*err = path_walk(&root_start, path, flags, &out);
	return *err ? NULL : out;
}

/* Make path (its parent must exist) as mode; symlinks with target. */
static void make(const char *path, uint32_t mode, const char *target)
{
	struct inode *dir, *made;
	struct qstr last;
	bool slash;
	int r = path_walk_parent(&root_start, path, &dir, &last, &slash);

	CHECK(r == 0);
	if (r)
		return;
	mutex_lock(&dir->i_mutex);
	if (target) {
		r = dir->i_op->symlink(dir, &last, target);
	} else {
		r = dir->i_op->create(dir, &last, mode, 0, &made);
		if (r == 0)
			iput(made);
	}
	mutex_unlock(&dir->i_mutex);
	CHECK(r == 0);
	iput(dir);
}

/* The inode number path walks to (following the last link), or -errno. */
static long ino_of(const char *path)
{
	int err;
	struct inode *i = walk(path, LOOKUP_FOLLOW, &err);
	long ino;

	if (!i)
		return err;
	ino = i->i_ino;
	iput(i);
	return ino;
}

static long ino_nofollow(const char *path)
{
	int err;
	struct inode *i = walk(path, 0, &err);
	long ino;

	if (!i)
		return err;
	ino = i->i_ino;
	iput(i);
	return ino;
}

static long ino_from(struct inode *cwd, const char *path)
{
	struct walk_start s = { root_start.root, cwd };
	struct inode *i;
	long ino;
	int r = path_walk(&s, path, LOOKUP_FOLLOW, &i);

	if (r)
		return r;
	ino = i->i_ino;
	iput(i);
	return ino;
}

static void build_tree(void)
{
	vfs_mount_root(&ramfs_type);
	root_start.root = root_start.cwd = mount_root()->root;
	make("/a", S_IFDIR | 0755, NULL);
	make("/a/b", S_IFDIR | 0755, NULL);
	make("/a/b/c", S_IFDIR | 0755, NULL);
	make("/a/file", S_IFREG | 0644, NULL);
	make("/mnt", S_IFDIR | 0755, NULL);
	make("/a/abs", 0, "/a/b");              /* absolute symlink to a directory */
	make("/a/rel", 0, "b/c");               /* relative: from /a */
	make("/a/up", 0, "../mnt");             /* relative with .. */
	make("/a/tofile", 0, "file");
	make("/a/dangling", 0, "nowhere");
	make("/a/self", 0, "self");
	make("/a/empty-ish", 0, "./");
}

/* ---- the tests ---------------------------------------------------------------------------- */

static void test_basic_and_slashes(void)
{
	long a = ino_of("/a"), b = ino_of("/a/b"), root = ino_of("/");

	CHECK(a > 0 && b > 0 && root > 0 && a != b);
	CHECK(ino_of("//a") == a);
	CHECK(ino_of("/a//b///") == b);
	CHECK(ino_of("/./a/./b/.") == b);
	CHECK(ino_of("/a/b/..") == a);
	CHECK(ino_of("/a/b/../..") == root);
	CHECK(ino_of("/..") == root);                           /* ".." of the root is the root */
	CHECK(ino_of("/../../a") == a);
	CHECK(ino_of("") == -ENOENT);
	CHECK(ino_of("/nope") == -ENOENT);
	CHECK(ino_of("/a/nope/b") == -ENOENT);
	CHECK(ino_of("/a/file") > 0);
	CHECK(ino_of("/a/file/") == -ENOTDIR);                  /* a trailing slash wants a directory */
	CHECK(ino_of("/a/file/.") == -ENOTDIR);
	CHECK(ino_of("/a/file/x") == -ENOTDIR);
	{
		int err;
		struct inode *i = walk("/a/file", LOOKUP_DIRECTORY, &err);

		CHECK(!i && err == -ENOTDIR);
	}
	CHECK(mutexes_held == 0);
}

static void test_relative(void)
{
	int err;
	struct inode *a = walk("/a", LOOKUP_FOLLOW, &err);

	CHECK(ino_from(a, "b") == ino_of("/a/b"));
	CHECK(ino_from(a, "./b/c") == ino_of("/a/b/c"));
	CHECK(ino_from(a, "..") == ino_of("/"));
	CHECK(ino_from(a, "../a/b") == ino_of("/a/b"));
	CHECK(ino_from(a, "/mnt") == ino_of("/mnt"));           /* absolute ignores the start */
	CHECK(ino_from(a, "nope") == -ENOENT);
	iput(a);
}

static void test_symlinks(void)
{
	long b = ino_of("/a/b"), c = ino_of("/a/b/c");

	CHECK(ino_of("/a/abs") == b);
	CHECK(ino_of("/a/abs/c") == c);
	CHECK(ino_of("/a/rel") == c);                           /* relative to the link's directory */
	CHECK(ino_of("/a/up") == ino_of("/mnt"));
	CHECK(ino_of("/a/tofile") == ino_of("/a/file"));
	CHECK(ino_of("/a/tofile/") == -ENOTDIR);
	CHECK(ino_nofollow("/a/abs") != b);                     /* the link itself */
	CHECK(ino_nofollow("/a/abs/") == b);                    /* a trailing slash follows it */
	CHECK(ino_nofollow("/a/abs/c") == c);                   /* inside a path: always followed */
	CHECK(ino_of("/a/dangling") == -ENOENT);
	CHECK(ino_nofollow("/a/dangling") > 0);
	CHECK(ino_of("/a/self") == -ELOOP);
	CHECK(ino_of("/a/self/x") == -ELOOP);
	CHECK(ino_of("/a/empty-ish") == ino_of("/a"));
	/* SYMLINK_MAX (40) links are followed in one walk, one more is -ELOOP. */
	make("/chain0", S_IFREG | 0644, NULL);
	for (int i = 1; i <= SYMLINK_MAX + 1; i++) {
		char from[32], to[32];

		snprintf(from, sizeof(from), "/chain%d", i);
		snprintf(to, sizeof(to), "chain%d", i - 1);
		make(from, 0, to);
	}
	CHECK(ino_of("/chain40") == ino_of("/chain0"));
	CHECK(ino_of("/chain41") == -ELOOP);
	CHECK(mutexes_held == 0);
}

static void test_limits(void)
{
	static char path[PATH_MAX + 8];
	char name[NAME_MAX + 3];

	memset(name, 'x', NAME_MAX + 1);
	name[0] = '/';
	name[NAME_MAX + 1] = '\0';                              /* "/" and 255 x's */
	make(name, S_IFREG | 0644, NULL);
	CHECK(ino_of(name) > 0);
	name[NAME_MAX + 1] = 'x';
	name[NAME_MAX + 2] = '\0';                              /* 256 */
	CHECK(ino_of(name) == -ENAMETOOLONG);
	/* PATH_MAX counts the NUL: 4095 bytes walk, 4096 do not. */
	path[0] = '/';
	for (int i = 1; i < PATH_MAX - 1; i += 2)
		path[i] = '.', path[i + 1] = '/';
	path[PATH_MAX - 1] = '\0';
	CHECK(strlen(path) == PATH_MAX - 1);
	CHECK(ino_of(path) == ino_of("/"));
	path[PATH_MAX - 1] = '.';
	path[PATH_MAX] = '\0';
	CHECK(ino_of(path) == -ENAMETOOLONG);
}

/* A second ramfs mounted on /mnt: the walk steps in, and ".." steps back out. */
static void test_mounts(void)
{
	long mnt_covered = ino_nofollow("/mnt"), root = ino_of("/"), a = ino_of("/a");
	int err;
	struct inode *in;

	CHECK(vfs_mount(&ramfs_type, "/mnt") == 0);
	CHECK(vfs_mount(&ramfs_type, "/a/file") == -ENOTDIR);
	CHECK(vfs_mount(&ramfs_type, "/nope") == -ENOENT);
	in = walk("/mnt", LOOKUP_FOLLOW, &err);
	CHECK(in && in == in->i_mnt->root && in->i_mnt != mount_root());
	make("/mnt/inside", S_IFDIR | 0755, NULL);
	CHECK(ino_of("/mnt/inside") > 0);
	CHECK(ino_of("/mnt/..") == root);
	CHECK(ino_of("/mnt/inside/../..") == root);
	CHECK(ino_of("/mnt/../a") == a);
	CHECK(ino_of("/a/up/inside/../../a") == a);             /* through a symlink into the mount */
	CHECK(ino_from(in, "..") == root);
	CHECK(ino_from(in, "../mnt/inside") == ino_of("/mnt/inside"));
	(void)mnt_covered;
	iput(in);
	CHECK(mutexes_held == 0);
}

static void test_parent(void)
{
	struct inode *dir;
	struct qstr last;
	bool slash;

	CHECK(path_walk_parent(&root_start, "/a/b/newname", &dir, &last, &slash) == 0);
	CHECK((long)dir->i_ino == ino_of("/a/b") && last.len == 7 && memcmp(last.name, "newname", 7) == 0 && !slash);
	iput(dir);
	CHECK(path_walk_parent(&root_start, "/a/b//", &dir, &last, &slash) == 0);
	CHECK((long)dir->i_ino == ino_of("/a") && last.len == 1 && last.name[0] == 'b' && slash);
	iput(dir);
	CHECK(path_walk_parent(&root_start, "/", &dir, &last, &slash) == 0);
	CHECK((long)dir->i_ino == ino_of("/") && last.len == 0);
	iput(dir);
	CHECK(path_walk_parent(&root_start, "plain", &dir, &last, &slash) == 0);
	CHECK(dir == root_start.cwd && last.len == 5);
	iput(dir);
	CHECK(path_walk_parent(&root_start, "/a/abs/x", &dir, &last, &slash) == 0);    /* via a link */
	CHECK((long)dir->i_ino == ino_of("/a/b"));
	iput(dir);
	CHECK(path_walk_parent(&root_start, "/a/file/x", &dir, &last, &slash) == -ENOTDIR);
	CHECK(path_walk_parent(&root_start, "/nope/x", &dir, &last, &slash) == -ENOENT);
	CHECK(path_walk_parent(&root_start, "", &dir, &last, &slash) == -ENOENT);
	CHECK(mutexes_held == 0);
}

static void test_path_of_dir(void)
{
	char buf[256];
	int err;
	struct inode *c = walk("/a/b/c", LOOKUP_FOLLOW, &err), *in = walk("/mnt/inside", 0, &err);

	CHECK(path_of_dir(root_start.root, c, buf, sizeof(buf)) == 7);
	CHECK_STR(buf, "/a/b/c");
	CHECK(path_of_dir(root_start.root, root_start.root, buf, sizeof(buf)) == 2);
	CHECK_STR(buf, "/");
	CHECK(path_of_dir(root_start.root, in, buf, sizeof(buf)) == 12);        /* across the mount */
	CHECK_STR(buf, "/mnt/inside");
	CHECK(path_of_dir(root_start.root, in->i_mnt->root, buf, sizeof(buf)) == 5);
	CHECK_STR(buf, "/mnt");
	CHECK(path_of_dir(root_start.root, c, buf, 5) == -ERANGE);
	iput(c);
	iput(in);
	CHECK(mutexes_held == 0);
}

/* Every walk gave back what it took: the references left are the mounts' and nothing else. */
static void test_references_balance(void)
{
	int err;
	struct inode *b = walk("/a/b", 0, &err);

	CHECK(b && b->i_count == 1);                            /* only ours: nothing leaked a reference */
	iput(b);
	CHECK(b->i_count == 0);
	CHECK(mount_root()->root->i_count == 1 + 0);           /* the mount's own */
}

/* umount: refused while anything inside is in use; then every inode of the instance is freed. */
static void test_umount(void)
{
	int err, before;
	struct inode *top, *f, *d, *first;

	make("/u", S_IFDIR | 0755, NULL);
	before = inode_count();
	CHECK(vfs_mount(&ramfs_type, "/u") == 0);
	make("/u/d", S_IFDIR | 0755, NULL);
	make("/u/d/e", S_IFDIR | 0755, NULL);
	make("/u/d/e/file", S_IFREG | 0644, NULL);
	make("/u/d/link", 0, "e/file");
	make("/u/x", S_IFREG | 0644, NULL);
	CHECK(inode_count() == before + 6);
	top = walk("/u", LOOKUP_FOLLOW, &err);
	f = walk("/u/d/e/file", 0, &err);
	CHECK(top && f && top->i_mnt->root == top);
	CHECK(vfs_umount(top, 0) == -EBUSY);                    /* a file inside is held */
	iput(f);
	d = walk("/u/d", 0, &err);
	CHECK(vfs_umount(d, 0) == -EINVAL);                     /* not the root of a mount */
	iput(d);
	CHECK(vfs_umount(mount_root()->root, 0) == -EBUSY);     /* the root file system */
	CHECK(vfs_umount(top, MNT_EXPIRE | MNT_DETACH) == -EINVAL);
	CHECK(vfs_umount(top, 0) == 0);
	CHECK(inode_count() == before + 6);                     /* freed at the last reference: ours */
	iput(top);
	CHECK(inode_count() == before);
	CHECK(ino_of("/u/d") == -ENOENT);
	CHECK(ino_of("/u") == ino_nofollow("/u"));              /* the plain directory again */

	/* Stacked: the second instance covers the first one's root; they come off top first. */
	CHECK(vfs_mount(&ramfs_type, "/u") == 0);
	first = walk("/u", LOOKUP_FOLLOW, &err);
	CHECK(vfs_mount(&ramfs_type, "/u") == 0);
	make("/u/top", S_IFREG | 0644, NULL);
	top = walk("/u", LOOKUP_FOLLOW, &err);
	CHECK(top != first && top->i_mnt->covered == first);
	CHECK(vfs_umount(first, 0) == -EBUSY);                  /* a mount on it */
	iput(first);
	CHECK(vfs_umount(top, 0) == 0);
	iput(top);
	CHECK(ino_of("/u/top") == -ENOENT);
	top = walk("/u", LOOKUP_FOLLOW, &err);
	CHECK(vfs_umount(top, 0) == 0);
	iput(top);
	CHECK(inode_count() == before);

	/* MNT_DETACH: out of the tree at once, freed when the file held inside is let go. */
	CHECK(vfs_mount(&ramfs_type, "/u") == 0);
	make("/u/held", S_IFREG | 0644, NULL);
	f = walk("/u/held", 0, &err);
	top = walk("/u", LOOKUP_FOLLOW, &err);
	CHECK(vfs_umount(top, 0) == -EBUSY);
	CHECK(vfs_umount(top, MNT_DETACH) == 0);
	iput(top);
	CHECK(ino_of("/u/held") == -ENOENT);
	CHECK(inode_count() == before + 2);                     /* the held file and its root live on */
	iput(f);
	CHECK(inode_count() == before);

	/* MNT_EXPIRE: the first call marks, a second one unmounts if nothing walked in since. */
	CHECK(vfs_mount(&ramfs_type, "/u") == 0);
	top = walk("/u", LOOKUP_FOLLOW, &err);
	CHECK(vfs_umount(top, MNT_EXPIRE) == -EAGAIN);
	iput(top);
	CHECK(ino_of("/u/nothing") == -ENOENT);                 /* a walk in: the mark is gone */
	top = walk("/u", LOOKUP_FOLLOW, &err);
	CHECK(vfs_umount(top, MNT_EXPIRE) == -EAGAIN);
	iput(top);
	top = walk("/u", LOOKUP_FOLLOW, &err);
	CHECK(vfs_umount(top, MNT_EXPIRE) == 0);
	iput(top);
	CHECK(inode_count() == before);
	CHECK(mutexes_held == 0);
}

int main(void)
{
	build_tree();
	test_basic_and_slashes();
	test_relative();
	test_symlinks();
	test_limits();
	test_mounts();
	test_parent();
	test_path_of_dir();
	test_references_balance();
	test_umount();
	return hosttest_finish("test_namei");
}
