/*
 * Mounts: file system instances and where they hang in the tree.
 *
 * A file system type (ramfs, tmpfs, devfs, devtmpfs, proc) is a name, a
 * fill() that builds a new instance's root inode, and a kill() that frees an
 * instance nobody uses any more. vfs_mount() makes the instance and covers a
 * directory with it; the path walk (fs/namei.c) then steps from the covered
 * directory into the instance's root, and from that root's ".." back out to
 * the covered directory's parent. Mounting on a directory that is itself a
 * mount's root covers that root: mounts stack, and the walk steps down
 * through all of them to the top one, as in Linux. There are no bind mounts:
 * each instance is mounted exactly once, so an inode's i_mnt says where it is.
 *
 * Unmounting. Every inode of an instance counts its references (i_count)
 * in its mount's refs too (fs/inode.c), so "is anything in there in use?"
 * is one number: refs is 1 (the mount's own hold on its root) when nothing
 * is. vfs_umount() detaches the mount from the tree (no walk can enter it
 * again) and the instance is killed when refs falls to 1: at once when it
 * was not in use, or, for MNT_DETACH, when the last file or directory in
 * it is let go.
 */
#ifndef FS_MOUNT_H
#define FS_MOUNT_H

#include "kernel/list.h"
#include "kernel/locking/atomic.h"
#include "kernel/types.h"

struct inode;
struct mount;
struct walk_start;
struct statfs64;

struct filesystem_type {
	const char *name;               /* for mount(2) and /proc/mounts: "ramfs", "tmpfs", "proc", ... */
	uint32_t magic;                 /* statfs's f_type: Linux's number for it (kernel/uapi/statfs.h) */
	/* Build the instance: set m->root to a referenced directory inode (i_mnt = m), m->fs_private. */
	int (*fill)(struct mount *m);
	/*
	 * Free the instance: every inode in it, the root included (whose only
	 * reference is the mount's). Called once nothing else refers to any of
	 * them. NULL: the instance is never freed (the root file system).
	 */
	void (*kill)(struct mount *m);
	/* statfs(2)'s numbers beyond f_type (NULL: the VFS's defaults, fs/statfs.c). */
	int (*statfs)(struct mount *m, struct statfs64 *st);
	/*
	 * mount -o remount: make the instance read-only (rdonly) or writable
	 * again. Going read-only it writes back what is dirty; it may refuse
	 * (-EBUSY: an unlinked file still open, whose blocks a read-only file
	 * system could not free). NULL: nothing to do beyond m->rdonly (ramfs:
	 * each change it makes looks at m->rdonly itself).
	 */
	int (*remount)(struct mount *m, bool rdonly);
	/* Write what is dirty in memory (inodes) into the buffer cache: sync(2), the flusher. NULL: nothing. */
	void (*sync_fs)(struct mount *m);
	bool rdonly_ok;                 /* it honours mount -o ro (else MS_RDONLY is -EINVAL) */
	bool requires_dev;              /* it lives on a block device (not "nodev" in /proc/filesystems) */
};

/* umount2()'s flags (Linux's values). */
#define MNT_FORCE       0x1     /* smpix: as a plain umount (no file system here can be forced) */
#define MNT_DETACH      0x2     /* detach now, free when no longer in use */
#define MNT_EXPIRE      0x4     /* the first call marks it (-EAGAIN), a second unmounts it if unused since */
#define UMOUNT_NOFOLLOW 0x8     /* do not follow a symlink as the last component */

/*
 * Per-mount flags (Linux's MNT_*; mount(2) gives them as MS_NOSUID, MS_NOATIME...).
 * The atime ones decide when a read updates a file's access time (fs/atime.c).
 * The others, as Linux 2.6 enforces them:
 *   nodev   a character or block device node on it does not open: -EACCES
 *           (fs/open.c, Linux's may_open()); the same node elsewhere does.
 *   noexec  no file on it runs: execve() -EACCES, a "#!" script too
 *           (kernel/process/exec.c); mmap() with PROT_EXEC -EPERM and
 *           mprotect() adding it -EACCES (kernel/mm/mmap.c).
 *   sync    a write() to a regular file returns after its data and its inode
 *           are on the disk, as if opened O_SYNC (fs/read_write.c: the file's
 *           fsync()). Directory changes are not written through.
 *   nosuid  kept and shown; there is nothing to enforce: exec never honours
 *           set-ID bits (every process runs as root, and there is no other
 *           user to become), so no exec gains a privilege for nosuid to stop.
 */
#define MNT_NOSUID     0x01
#define MNT_NODEV      0x02
#define MNT_NOEXEC     0x04
#define MNT_NOATIME    0x08
#define MNT_NODIRATIME 0x10
#define MNT_RELATIME   0x20
#define MNT_SYNCHRONOUS 0x40    /* MS_SYNCHRONOUS (Linux: the superblock's, IS_SYNC()) */
#define MNT_DIRSYNC    0x80     /* MS_DIRSYNC: directory changes written through (Linux: IS_DIRSYNC()) */
#define MNT_ATIME_MASK (MNT_NOATIME | MNT_NODIRATIME | MNT_RELATIME)

struct mount {
	const struct filesystem_type *type;
	struct inode *root;             /* referenced while mounted */
	struct inode *covered;          /* the directory it is mounted on (referenced); NULL for / */
	struct mount *parent;           /* the mount covered lives on; NULL for / */
	char path[128];                 /* where, for /proc/mounts */
	char source[32];                /* mount(2)'s source ("proc", "none", ...), for /proc/mounts */
	uint32_t dev;                   /* st_dev of its files: SMPIX_MKDEV(0, n), n counting mounts from 1 */
	void *fs_private;               /* the file system's per-instance data */
	bool rdonly;                    /* mounted -o ro (MS_RDONLY): set before fill(); remount changes it */
	unsigned mnt_flags;             /* MNT_*: set at mount, replaced by a remount */
	atomic_t writers;               /* files of it open for writing: a remount read-only waits for none */
	uint32_t next_ino;              /* inode numbers handed out by mount_new_ino() */
	atomic_t refs;                  /* the sum of i_count over its inodes (the root's counts the mount's hold) */
	bool detached;                  /* unmounted: killed when refs falls to 1 (under mount_lock) */
	bool expiry_mark;               /* MNT_EXPIRE's first call was made ... */
	uint32_t enters;                /* walks that stepped into it (mount_enter) */
	uint32_t enters_at_mark;        /* ... when enters was this: a walk since then clears the mark */
	struct list_head link;          /* on the mount list while mounted */
};

/* At boot, once per type: make it known to mount(2) by its name. */
void register_filesystem(const struct filesystem_type *type);
/* The registered type called name, or NULL. */
const struct filesystem_type *get_fs_type(const char *name);
/* Call fn for every registered type, in the order registered (/proc/filesystems). */
void for_each_fs_type(void (*fn)(const struct filesystem_type *type, void *arg), void *arg);

/* Mount the root file system (ramfs). Once, at boot. */
void vfs_mount_root(const struct filesystem_type *type);
/* Mount a new instance of type on the directory at path (absolute): 0 or -errno (ENOENT, ENOTDIR, EBUSY). */
int vfs_mount(const struct filesystem_type *type, const char *path);
/*
 * Mount a new instance of type on dir (a referenced directory, as a walk
 * from s found it; the caller keeps its reference), shown as source in
 * /proc/mounts (a disk file system reads its device there), read-only if
 * rdonly, with the per-mount flags mnt_flags (MNT_*): 0 or -errno (ENOTDIR, ENOMEM, EBUSY, or what fill() answered).
 */
int vfs_mount_on(const struct walk_start *s, struct inode *dir, const struct filesystem_type *type,
		 const char *source, bool rdonly, unsigned mnt_flags);
/*
 * mount -o remount on the mount whose root is top (referenced by the
 * caller): rdonly as asked, the per-mount flags replaced by mnt_flags. Going
 * read-only: -EBUSY while a file of it is open for writing (Linux 2.6's
 * fs_may_remount_ro()). -EINVAL: top is not the root of a mount, or the type
 * cannot be read-only.
 */
int vfs_remount(struct inode *top, bool rdonly, unsigned mnt_flags);
/*
 * A file of m is opened (or let go) for writing: the count a remount
 * read-only checks. mount_want_write() answers -EROFS if m is read-only.
 */
int mount_want_write(struct mount *m);
void mount_drop_write(struct mount *m);
/*
 * The per-mount flags as the VFS checks them, for an inode of a mount (false
 * for one of none: a pipe). Linux's may_open_dev(), path_noexec() and
 * IS_SYNC() (the superblock's MS_SYNCHRONOUS, here the mount's).
 */
bool mount_nodev(const struct inode *inode);
bool mount_noexec(const struct inode *inode);
bool mount_sync(const struct inode *inode);
/* Directory changes written through: mount -o dirsync, or -o sync, which includes it. */
bool mount_dirsync(const struct inode *inode);
/*
 * After a change to directory dir (a name made, linked, removed or renamed):
 * on a dirsync mount, write it to the disk before the call returns (fs/sync.c).
 */
void dirsync_after(struct inode *dir);
/* Is the inode's mount read-only (mount -o ro, remount,ro)? */
bool mount_rdonly(const struct inode *inode);
/* Call type->sync_fs of every mounted instance that has one (sync(2), the flusher). May sleep. */
void sync_filesystems(void);
/*
 * Unmount the mount whose root is top (referenced by the caller, who still
 * holds it; a walk found it): 0 or -errno. -EINVAL: not the root of a
 * mount; -EBUSY: in use (a file, a directory, a mount below it) unless
 * MNT_DETACH, or the root file system; -EAGAIN: MNT_EXPIRE's first call.
 */
int vfs_umount(struct inode *top, int flags);
/* If a file system is mounted on dir: its root, referenced (the walk steps into it). Else NULL. */
struct inode *mount_enter(struct inode *dir);
/* The root mount and its root directory (referenced by the mount). */
struct mount *mount_root(void);
/* A fresh inode number in m. */
uint32_t mount_new_ino(struct mount *m);
/*
 * Call fn for each mount, root first, in mount order (for /proc/mounts).
 * Stops at non-zero. fn runs under mount_lock, a spinlock: it must not sleep.
 */
int mount_for_each(int (*fn)(const struct mount *m, void *arg), void *arg);
/* An inode of m gained or lost a reference (fs/inode.c); the last one may free a detached m. */
void mount_ref_get(struct mount *m);
void mount_ref_put(struct mount *m);

#endif
