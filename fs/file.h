/*
 * Open files. A struct file is made by open() (or pipe()) and lives as long
 * as a descriptor or a kernel user refers to it: fork() and dup() share it,
 * position and flags included, as POSIX says. It points at its inode and at
 * the file_operations that open() chose: the file system's for its files,
 * the driver's for a device node (fs/devfs/chrdev.c), a pipe's for a pipe.
 */
#ifndef FS_FILE_H
#define FS_FILE_H

#include "fs/inode.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/spinlock.h"
#include "kernel/types.h"

struct dir_context;

/*
 * Bits of file_operations.flags.
 *
 * FOP_UNLOCKED_IOCTL is the flag the May 2004 mail "Unserializing ioctl()
 * system calls" proposed: "this driver manages its own concurrency, call
 * its ioctl without the BKL". A driver that does not set it has its ioctl
 * called under lock_kernel(), as every driver did in Linux 2.6.6. The
 * decision is made in one place, vfs_ioctl() (fs/ioctl/vfs_ioctl.c), and the
 * boot word ioctl= can override it for every driver (docs/ioctl.md).
 */
#define FOP_UNLOCKED_IOCTL 0x1
/* A stream (pipe, tty): it has no position; lseek, pread and pwrite answer -ESPIPE. */
#define FOP_STREAM 0x2

/*
 * What a file can do. Any method may be NULL: read/write then answer
 * -EINVAL (-EISDIR for a directory), llseek the VFS's default (the
 * position moves, bounded by nothing), ioctl -ENOTTY, readdir -ENOTDIR,
 * open and release nothing. User buffers are user pointers: use
 * copy_to_user()/copy_from_user(), which also accept kernel buffers inside
 * kernel_read() (see fs/read_write.c).
 */
struct file_operations {
	const char *name;               /* for /proc and messages: "ramfs", "console", "pipe" */
	unsigned flags;                 /* FOP_* */
	/* A file is being opened (f->f_op is already us): set f->private_data, refuse with -errno. */
	int (*open)(struct inode *inode, struct file *f);
	/* The last reference to f has gone (the last close). */
	int (*release)(struct inode *inode, struct file *f);
	/* Read up to n bytes at *pos into the user buffer; advance *pos. Bytes read, 0 at EOF, -errno. */
	ssize_t (*read)(struct file *f, char *ubuf, size_t n, loff_t *pos);
	ssize_t (*write)(struct file *f, const char *ubuf, size_t n, loff_t *pos);
	/* Return the new position (the VFS stores it in f->f_pos) or -errno. whence: SEEK_*. */
	loff_t (*llseek)(struct file *f, loff_t offset, int whence);
	/* A command the VFS did not answer itself (fs/ioctl/vfs_ioctl.c): the driver's own. */
	long (*ioctl)(struct file *f, unsigned cmd, unsigned long arg);
	/* Emit directory entries from f->f_pos on (see struct dir_context); 0 at the end or -errno. */
	int (*readdir)(struct file *f, struct dir_context *ctx);
	/* FIONREAD: bytes a read would return now (NULL: the VFS answers i_size - f_pos for files). */
	int (*nread)(struct file *f);
	/* poll(2): the POLL* bits true now (NULL: always readable and writable, as Linux's default). */
	unsigned (*poll)(struct file *f);
	/* fsync(2): write what is cached for f back to its disk and wait; 0 or -EIO (NULL: nothing to do). */
	int (*fsync)(struct file *f);
};

/*
 * readdir's sink. The VFS calls f_op->readdir with the directory's i_mutex
 * held. The file system calls emit() once per entry from position f->f_pos
 * on, in order, with next_pos, the position of the entry after it (the
 * d_off that getdents64 reports); when emit() returns true it sets
 * f->f_pos = next_pos and goes on; when it returns false (the caller's
 * buffer is full) it stops and leaves f_pos at that entry.
 */
struct dir_context {
	bool (*emit)(struct dir_context *ctx, const char *name, size_t len, uint32_t ino,
		     unsigned dtype, loff_t next_pos);
};

struct file {
	struct inode *f_inode;          /* referenced */
	const struct file_operations *f_op;
	void *private_data;             /* the driver's or file system's, set in open() */
	unsigned f_flags;               /* O_ACCMODE, O_APPEND, O_NONBLOCK, ...; F_SETFL changes some */
	/*
	 * Serializes read, write and lseek on regular files and directories, so
	 * that two processes sharing this file (after fork or dup) each see the
	 * position move by whole calls (POSIX 2.9.7). Not taken for devices or
	 * pipes: a reader sleeping for console input must not block a writer.
	 */
	struct mutex f_pos_lock;
	loff_t f_pos;
	/* Descriptors (in any process) and kernel users holding this file; the last fput() releases it. */
	atomic_t f_count;
	bool f_flocked;                 /* it has held a flock() lock (fs/flock.c; set under flock's lock) */
};

/* The most open files in the whole system: one more is -ENFILE. */
#define FILES_MAX 1024

/*
 * A new open file on inode (the caller's reference moves into it), with
 * f_op = fop, flags from open(). Calls fop->open. -ENFILE at FILES_MAX.
 * On failure the inode reference is dropped.
 */
struct file *file_open_inode(struct inode *inode, const struct file_operations *fop,
			     unsigned flags, int *err);
/* Take another reference (dup, fork). */
struct file *fget_ref(struct file *f);
/* Drop a reference; the last one calls f_op->release and iputs the inode. */
void fput(struct file *f);
/* How many struct files exist now (for ENFILE and the leak check). */
int file_count(void);

/* read() into a kernel buffer (exec, #! scripts): like Linux 2.6's set_fs(KERNEL_DS) around vfs_read. */
ssize_t kernel_read(struct file *f, void *buf, size_t n, loff_t pos);
ssize_t kernel_write(struct file *f, const void *buf, size_t n, loff_t pos);

/* The VFS's read and write, with the checks every file gets (mode, type, position lock). */
ssize_t vfs_read(struct file *f, char *ubuf, size_t n, loff_t *pos);
ssize_t vfs_write(struct file *f, const char *ubuf, size_t n, loff_t *pos);
/* The default llseek for files whose f_op has none. */
loff_t generic_file_llseek(struct file *f, loff_t offset, int whence);
/* ioctl: the generic commands (FIOCLEX, FIONCLEX, FIONBIO, FIONREAD), then f_op->ioctl (fs/ioctl/vfs_ioctl.c). */
long vfs_ioctl(struct file *f, int fd, unsigned cmd, unsigned long arg);

#endif
