/*
 * Opening files, and the calls that change a file or a process's place in
 * the tree by name: open, openat, creat, access, faccessat, truncate,
 * ftruncate, chmod, fchmod, chdir, fchdir, getcwd, umask.
 */
#include "fs/block_dev.h"
#include "fs/devfs/chrdev.h"
#include "fs/fdtable.h"
#include "fs/file.h"
#include "fs/fs_struct.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/pipe/pipe.h"
#include "fs/vfs.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/stat.h"

/* Flags that only matter while opening: open() keeps the rest in f_flags, as Linux does. */
#define OPEN_ONLY_FLAGS (O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC)

/*
 * A path from user space gets a page of its own: PATH_MAX bytes with the
 * NUL are a page, and a kmalloc() block (with its 16-byte header) would be
 * two, a run found in the frame bitmap under pmm_lock by every system call
 * that takes a path. A single page comes from this CPU's frame list
 * (kernel/mm/pmm_percpu.c). Linux keeps names in a slab cache of their own,
 * names_cachep, for the same reason.
 */
_Static_assert(PATH_MAX <= PAGE_SIZE, "a name fits in a page");

int getname(const char *upath, char **out)
{
	physaddr_t pa = pmm_alloc_page();
	char *buf;
	int r;

	if (!pa)
		return -ENOMEM;
	buf = P2V(pa);
	r = strncpy_from_user(buf, upath, PATH_MAX);
	if (r == 0)
		r = -ENOENT;            /* "" names nothing */
	if (r < 0) {
		putname(buf);
		return r;
	}
	*out = buf;
	return 0;
}

void putname(char *name)
{
	if (name)
		pmm_free_page(V2P(name));
}

int walk_start_get(int dirfd, const char *path, struct walk_start *s)
{
	struct inode *root = mount_root()->root;
	struct file *f;

	s->root = igrab(root);
	/* An absolute path ignores dirfd, even a bad one, as Linux does. */
	if (path[0] == '/' || dirfd == AT_FDCWD) {
		s->cwd = fs_cwd_get(current);
		if (!s->cwd)
			s->cwd = igrab(root);
		return 0;
	}
	f = fd_get(dirfd);
	if (!f) {
		iput(s->root);
		return -EBADF;
	}
	if (!S_ISDIR(f->f_inode->i_mode)) {
		fput(f);
		iput(s->root);
		return -ENOTDIR;
	}
	s->cwd = igrab(f->f_inode);
	fput(f);
	return 0;
}

void walk_start_put(struct walk_start *s)
{
	iput(s->cwd);
	iput(s->root);
}

int walk_at(int dirfd, const char *path, bool follow, struct inode **out)
{
	struct walk_start s;
	int r = walk_start_get(dirfd, path, &s);

	if (r < 0)
		return r;
	r = path_walk(&s, path, follow ? LOOKUP_FOLLOW : 0, out);
	walk_start_put(&s);
	return r;
}

/* The inode of the file fd is open on, referenced: -EBADF. */
static int fd_inode(int fd, struct inode **out)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	*out = igrab(f->f_inode);
	fput(f);
	return 0;
}

int user_walk_at(int dirfd, const char *upath, int flags, struct inode **out)
{
	char *path;
	int r;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	r = getname(upath, &path);
	if (r == -ENOENT && (flags & AT_EMPTY_PATH))
		return dirfd == AT_FDCWD ? walk_at(AT_FDCWD, ".", true, out) : fd_inode(dirfd, out);
	if (r < 0)
		return r;
	r = walk_at(dirfd, path, !(flags & AT_SYMLINK_NOFOLLOW), out);
	putname(path);
	return r;
}

/* Which file_operations an open of inode uses: its own, or its driver's for a device node. */
static int fops_for(struct inode *inode, const struct file_operations **fops)
{
	switch (inode->i_mode & S_IFMT) {
	case S_IFCHR:
		*fops = &chrdev_fops;   /* its open() finds the driver (fs/devfs/chrdev.c) */
		return 0;
	case S_IFIFO:
		*fops = &fifo_fops;     /* the ends meet in its open() (fs/pipe/pipe.c) */
		return 0;
	case S_IFBLK:
		*fops = &blkdev_fops;   /* its open() finds the disk (fs/block_dev.c) */
		return 0;
	case S_IFSOCK:                  /* no sockets: Linux too answers ENXIO here */
		return -ENXIO;
	case S_IFLNK:
		return -ELOOP;
	default:
		*fops = inode->i_fop;
		return 0;
	}
}

/*
 * Find or create what an open() names: a referenced inode. With O_CREAT,
 * a symlink at the end is followed, and if it dangles, what it names is
 * created (relative to the link's directory), as Linux does; depth counts
 * the links followed that way.
 */
static int open_lookup(const struct walk_start *s, const char *path, int flags, uint32_t mode,
		       struct inode **out, int depth)
{
	unsigned lf = (flags & O_NOFOLLOW ? 0 : LOOKUP_FOLLOW) | (flags & O_DIRECTORY ? LOOKUP_DIRECTORY : 0);
	struct inode *dir, *inode;
	struct qstr last;
	bool slash, created;
	char *target;
	int r;

	if (!(flags & O_CREAT))
		return path_walk(s, path, lf, out);
	r = path_walk_parent(s, path, &dir, &last, &slash);
	if (r < 0)
		return r;
	if (slash || last.len == 0 || (last.len <= 2 && last.name[0] == '.' &&
				       (last.len == 1 || last.name[1] == '.'))) {
		iput(dir);              /* "dir/", "/", "." and "..": directories, not files to create */
		return -EISDIR;
	}
	r = lookup_create(dir, &last, S_IFREG | (mode & 07777 & ~READ_ONCE(current->fs->umask)), flags & O_EXCL,
			  &inode, &created);
	if (r == 0 && created)
		dirsync_after(dir);
	if (r < 0 || created || !S_ISLNK(inode->i_mode)) {
		iput(dir);
		*out = inode;
		return r;
	}
	/* An existing symlink: open what it points to, or create it if it dangles. */
	r = -ELOOP;
	if (!(flags & O_NOFOLLOW) && depth < SYMLINK_MAX) {
		r = path_walk(s, path, LOOKUP_FOLLOW, out);
		if (r == -ENOENT && vfs_read_link(inode, &target) > 0) {
			struct walk_start from_link = { s->root, dir };

			r = open_lookup(&from_link, target, flags, mode, out, depth + 1);
			kfree(target);
		}
	}
	iput(inode);
	iput(dir);
	return r;
}

static int open_inode_checks(struct inode *inode, int flags)
{
	int acc = flags & O_ACCMODE;

	if (S_ISLNK(inode->i_mode))
		return -ELOOP;          /* O_NOFOLLOW on a symlink */
	/* A directory opens for reading only; O_CREAT names a file to make, never a directory (Linux). */
	if (S_ISDIR(inode->i_mode) && (acc != O_RDONLY || (flags & (O_TRUNC | O_CREAT))))
		return -EISDIR;
	if (acc == O_ACCMODE)
		return -EINVAL;         /* 3 is not an access mode (Linux's "ioctl-only" mode aside) */
	/* mount -o nodev: the node names a device its mount may not reach (Linux's may_open_dev()). */
	if ((S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode)) && mount_nodev(inode))
		return -EACCES;
	/*
	 * A read-only mount: a file there is not opened to be changed. Checked
	 * here, before O_TRUNC truncates (do_open()); a device node or a FIFO
	 * on it may still be written: that does not change the file system.
	 */
	if (S_ISREG(inode->i_mode) && (acc != O_RDONLY || (flags & O_TRUNC)) && mount_rdonly(inode))
		return -EROFS;
	return 0;
}

/* Open path relative to s: the new struct file, or NULL with *err. */
static struct file *do_open(const struct walk_start *s, const char *path, int flags, uint32_t mode,
			    int *err)
{
	const struct file_operations *fops;
	struct inode *inode;
	int r;

	r = open_lookup(s, path, flags, mode, &inode, 0);
	if (r < 0) {
		*err = r;
		return NULL;
	}
	r = open_inode_checks(inode, flags);
	if (r == 0)
		r = fops_for(inode, &fops);
	if (r == 0 && (flags & O_TRUNC) && S_ISREG(inode->i_mode) && (flags & O_ACCMODE) != O_RDONLY)
		r = inode->i_op && inode->i_op->truncate ? inode->i_op->truncate(inode, 0) : 0;
	if (r < 0) {
		iput(inode);
		*err = r;
		return NULL;
	}
	return file_open_inode(inode, fops, flags & ~OPEN_ONLY_FLAGS, err);
}

long sys_openat(int dirfd, const char *upath, int flags, uint32_t mode)
{
	struct walk_start s;
	struct file *f;
	char *path;
	int r, fd;

	r = getname(upath, &path);
	if (r < 0)
		return r;
	r = walk_start_get(dirfd, path, &s);
	if (r < 0)
		goto out_name;
	f = do_open(&s, path, flags, mode, &r);
	walk_start_put(&s);
	if (!f)
		goto out_name;
	fd = fd_install(f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		fput(f);
	r = fd;
out_name:
	putname(path);
	return r;
}

long sys_open(const char *upath, int flags, uint32_t mode)
{
	return sys_openat(AT_FDCWD, upath, flags, mode);
}

long sys_creat(const char *upath, uint32_t mode)
{
	return sys_openat(AT_FDCWD, upath, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

int vfs_open_kernel(const char *path, unsigned flags, struct file **out)
{
	struct walk_start s;
	int r = walk_start_get(AT_FDCWD, path, &s);

	if (r < 0)
		return r;
	*out = do_open(&s, path, (int)flags, 0, &r);
	walk_start_put(&s);
	return *out ? 0 : r;
}

/* Look up a user path relative to dirfd: a referenced inode. */
static int user_lookup(int dirfd, const char *upath, unsigned lookup_flags, struct inode **out)
{
	struct walk_start s;
	char *path;
	int r;

	r = getname(upath, &path);
	if (r < 0)
		return r;
	r = walk_start_get(dirfd, path, &s);
	if (r == 0) {
		r = path_walk(&s, path, lookup_flags, out);
		walk_start_put(&s);
	}
	putname(path);
	return r;
}

long sys_faccessat(int dirfd, const char *upath, int mode)
{
	struct inode *inode;
	int r;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	r = user_lookup(dirfd, upath, LOOKUP_FOLLOW, &inode);
	if (r < 0)
		return r;
	/* The only user is root: reading and writing are allowed; executing needs an x bit or a directory. */
	if ((mode & X_OK) && !S_ISDIR(inode->i_mode) && !(inode->i_mode & 0111))
		r = -EACCES;
	/* Nor does a file of a noexec mount run, and access() says so (Linux's do_faccessat()). */
	else if ((mode & X_OK) && S_ISREG(inode->i_mode) && mount_noexec(inode))
		r = -EACCES;
	/* Nor is anything of a read-only mount written (Linux's sb_permission()). */
	else if ((mode & W_OK) && mount_rdonly(inode) &&
		 (S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) || S_ISLNK(inode->i_mode)))
		r = -EROFS;
	iput(inode);
	return r;
}

long sys_access(const char *upath, int mode)
{
	return sys_faccessat(AT_FDCWD, upath, mode);
}

static int do_truncate(struct inode *inode, loff_t length)
{
	if (length < 0)
		return -EINVAL;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode) || !inode->i_op || !inode->i_op->truncate)
		return -EINVAL;
	return inode->i_op->truncate(inode, length);
}

static long truncate_path(const char *upath, loff_t length)
{
	struct inode *inode;
	int r = user_lookup(AT_FDCWD, upath, LOOKUP_FOLLOW, &inode);

	if (r < 0)
		return r;
	r = do_truncate(inode, length);
	iput(inode);
	return r;
}

static long truncate_fd(int fd, loff_t length)
{
	struct file *f = fd_get(fd);
	int r;

	if (!f)
		return -EBADF;
	if ((f->f_flags & O_ACCMODE) == O_RDONLY || !S_ISREG(f->f_inode->i_mode))
		r = length < 0 ? -EINVAL : (S_ISDIR(f->f_inode->i_mode) ? -EISDIR : -EINVAL);
	else
		r = do_truncate(f->f_inode, length);
	fput(f);
	return r;
}

long sys_truncate(const char *upath, long length)
{
	return truncate_path(upath, length);
}

long sys_ftruncate(int fd, long length)
{
	return truncate_fd(fd, length);
}

long sys_truncate64(const char *upath, uint32_t lo, uint32_t hi)
{
	return truncate_path(upath, (loff_t)(((uint64_t)hi << 32) | lo));
}

long sys_ftruncate64(int fd, uint32_t lo, uint32_t hi)
{
	return truncate_fd(fd, (loff_t)(((uint64_t)hi << 32) | lo));
}

/* -EROFS on a read-only mount (Linux's mnt_want_write()); else the new mode, in memory and on disk. */
static int set_mode(struct inode *inode, uint32_t mode)
{
	if (inode->i_mnt && inode->i_mnt->rdonly)
		return -EROFS;
	spin_lock(&inode->i_lock);
	inode->i_mode = (inode->i_mode & S_IFMT) | (mode & 07777);
	spin_unlock(&inode->i_lock);
	inode_touch(inode, false, true);
	return inode_write_back(inode);
}

long sys_chmod(const char *upath, uint32_t mode)
{
	struct inode *inode;
	int r = user_lookup(AT_FDCWD, upath, LOOKUP_FOLLOW, &inode);

	if (r < 0)
		return r;
	r = set_mode(inode, mode);
	iput(inode);
	return r;
}

long sys_fchmod(int fd, uint32_t mode)
{
	struct file *f = fd_get(fd);
	int r;

	if (!f)
		return -EBADF;
	r = set_mode(f->f_inode, mode);
	fput(f);
	return r;
}

/* Make dir (referenced; the reference moves in) the current directory, of every thread sharing it. */
static void set_cwd(struct inode *dir)
{
	fs_cwd_set(current, dir);
}

long sys_chdir(const char *upath)
{
	struct inode *dir;
	int r = user_lookup(AT_FDCWD, upath, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir);

	if (r < 0)
		return r;
	set_cwd(dir);
	return 0;
}

long sys_fchdir(int fd)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	if (!S_ISDIR(f->f_inode->i_mode)) {
		fput(f);
		return -ENOTDIR;
	}
	set_cwd(igrab(f->f_inode));
	fput(f);
	return 0;
}

long sys_getcwd(char *ubuf, size_t size)
{
	struct inode *root = mount_root()->root, *cwd;
	char *buf;
	int n;

	if (size == 0)
		return -ERANGE;
	buf = kmalloc(PATH_MAX);
	if (!buf)
		return -ENOMEM;
	cwd = fs_cwd_get(current);
	n = path_of_dir(root, cwd ? cwd : root, buf, PATH_MAX);
	if (cwd)
		iput(cwd);
	if (n > 0 && (size_t)n > size)
		n = -ERANGE;
	if (n > 0 && copy_to_user(ubuf, buf, (size_t)n) < 0)
		n = -EFAULT;
	kfree(buf);
	return n;
}

long sys_umask(uint32_t mask)
{
	/* Shared with CLONE_FS threads: swapped in one locked instruction, as Linux's xchg(). */
	return (long)__atomic_exchange_n(&current->fs->umask, mask & 0777, __ATOMIC_SEQ_CST);
}
