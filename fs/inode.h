/*
 * Inodes: one object per file the kernel knows (regular file, directory,
 * symlink, device node, pipe), whatever file system it lives on.
 *
 * Lifetime. i_count counts references (a path walk's result, an open file,
 * a current directory, a mount); i_nlink counts names in directories. An
 * inode is destroyed (i_op->evict) when i_count drops to zero and either
 * i_nlink is zero (ramfs: unlinked, last close) or the file system does not
 * keep unused inodes (I_DROP_UNUSED: procfs makes its inodes on lookup).
 * That is how an unlinked file keeps its data until the last close.
 */
#ifndef FS_INODE_H
#define FS_INODE_H

#include "kernel/locking/mutex.h"
#include "kernel/locking/spinlock.h"
#include "kernel/types.h"

typedef int64_t loff_t;

struct file;
struct inode;
struct mount;

/* What a directory operation is told about the name it works on (not NUL-terminated). */
struct qstr {
	const char *name;
	size_t len;
};

/*
 * Operations on an inode. Directory operations are called with the
 * directory's i_mutex held by the VFS (rename: both directories' and
 * vfs_rename_mutex), so a file system need not lock its directories itself.
 * Any may be NULL: the VFS answers the caller's errno (ENOTDIR, EPERM, EINVAL).
 */
struct inode_operations {
	/* Find name in dir ("." and ".." included): a referenced inode in *out, or -ENOENT. */
	int (*lookup)(struct inode *dir, const struct qstr *name, struct inode **out);
	/*
	 * Make a new name in dir for a new inode of mode (S_IFREG, S_IFDIR,
	 * S_IFCHR, S_IFBLK, S_IFIFO, with permission bits; rdev for device
	 * nodes, Linux's encoding). The name is known not to exist. *out is referenced.
	 */
	int (*create)(struct inode *dir, const struct qstr *name, uint32_t mode, uint32_t rdev,
		      struct inode **out);
	/* Make a symlink name in dir pointing at target (NUL-terminated). */
	int (*symlink)(struct inode *dir, const struct qstr *name, const char *target);
	/* Add name in dir for the existing non-directory inode (link count +1). */
	int (*link)(struct inode *dir, const struct qstr *name, struct inode *inode);
	/* Remove name (inode is what it names, referenced by the caller) from dir. */
	int (*unlink)(struct inode *dir, const struct qstr *name, struct inode *inode);
	/* Remove the empty directory inode named name: -ENOTEMPTY unless empty. */
	int (*rmdir)(struct inode *dir, const struct qstr *name, struct inode *inode);
	/*
	 * Move old_name in old_dir to new_name in new_dir, replacing what is there
	 * (the VFS has checked types: file over file, empty directory over directory).
	 */
	int (*rename)(struct inode *old_dir, const struct qstr *old_name,
		      struct inode *new_dir, const struct qstr *new_name);
	/* Copy a symlink's target into buf (a kernel buffer of size bytes, no NUL): its length. */
	int (*readlink)(struct inode *inode, char *buf, size_t size);
	/* Change a regular file's size (ftruncate); new bytes read as zero. */
	int (*truncate)(struct inode *inode, loff_t size);
	/* Free the file system's part of the inode, then inode_free(): the last reference is gone. */
	void (*evict)(struct inode *inode);
	/*
	 * The VFS changed the inode's mode or times (chmod, utimensat): keep them
	 * where the file system keeps its inodes (ext2: the inode table), as
	 * Linux's mark_inode_dirty() does. NULL: memory is where they live (ramfs).
	 */
	int (*write_inode)(struct inode *inode);
};

#define I_MOUNTPOINT  0x1       /* a file system is mounted on this directory */
#define I_DROP_UNUSED 0x2       /* evict when i_count reaches 0, even if i_nlink > 0 */
/*
 * Changed in memory, not yet where the file system keeps it: an access time
 * set by a read (fs/atime.c), written later, as Linux's I_DIRTY_SYNC, by the
 * file system's sync_fs (sync(2), the flusher, umount) or its next write_inode.
 */
#define I_DIRTY       0x4

struct pipe;

/*
 * i_mutex subclasses for the lock-order checker (docs/locking.md), as Linux's:
 * all i_mutexes are one class, so a directory's taken before an inode in it
 * says which it is. Rename holds two directories, ancestor first, then the
 * inode it replaces; rmdir, the parent, then the directory it removes.
 */
enum { I_MUTEX_NORMAL, I_MUTEX_PARENT, I_MUTEX_PARENT2 };

struct inode {
	uint32_t i_ino;                 /* unique within its mount */
	struct mount *i_mnt;            /* the file system instance it belongs to (NULL: pipes) */
	const struct inode_operations *i_op;
	const struct file_operations *i_fop;   /* what open() installs (device nodes: the driver's) */
	void *i_private;                /* the file system's own data */

	/*
	 * Protects i_count, i_nlink, i_mode, i_flags and the times: small fields
	 * changed without sleeping. iput() checks count and nlink together under
	 * it, so "last close" and "last unlink" cannot both miss the eviction.
	 */
	spinlock_t i_lock;
	int i_count;
	uint32_t i_nlink;
	uint32_t i_mode;                /* S_IFMT type and permission bits */
	unsigned i_flags;               /* I_MOUNTPOINT, I_DROP_UNUSED, I_DIRTY */
	uint32_t i_atime, i_mtime, i_ctime;     /* Unix seconds, from the wall clock */

	uint32_t i_uid, i_gid;          /* always 0: there is one user, root */
	uint32_t i_rdev;                /* device nodes: SMPIX_MKDEV(major, minor) */
	/*
	 * Sleeping lock for the inode's contents: a directory's entries, a file's
	 * data and i_size. Taken by the VFS around directory operations and by a
	 * file system around read/write (copying to user memory may fault and sleep).
	 * Ordering: a parent directory's before its child's; for two unrelated
	 * directories (rename) vfs_rename_mutex first, then the lower address.
	 */
	struct mutex i_mutex;           /* nested on purpose: mutex_lock_nested() with I_MUTEX_* */
	loff_t i_size;                  /* bytes (directories: entries, as a hint) */
	struct pipe *i_pipe;            /* a FIFO's pipe while it is open (fs/pipe/pipe.c), under i_mutex */
};

/* Allocate an inode for mount m (NULL: an anonymous inode, e.g. a pipe): i_count 1, i_nlink 1. */
struct inode *inode_alloc(struct mount *m, uint32_t mode);
/* Give back the struct itself (the file system's evict() calls this last). */
void inode_free(struct inode *inode);
/* Take another reference. */
struct inode *igrab(struct inode *inode);
/* Drop a reference; the last one may evict the inode (see the lifetime rule above). */
void iput(struct inode *inode);
/* Link count +1 / -1, under i_lock (for a file system's link, unlink, rmdir, rename). */
void inode_inc_link(struct inode *inode);
void inode_dec_link(struct inode *inode);
/* After the VFS changed inode's mode or times: its file system's write_inode(), if it has one. */
static inline int inode_write_back(struct inode *inode)
{
	return inode->i_op && inode->i_op->write_inode ? inode->i_op->write_inode(inode) : 0;
}
/* The inode's times are set to "now"; what is changed is named by the caller. */
void inode_touch(struct inode *inode, bool mtime, bool ctime);
/* The wall clock in whole seconds, as inode times keep it. */
uint32_t inode_time_now(void);
/* How many inodes exist now (every file system): the leak check compares it. */
int inode_count(void);

#endif
