/*
 * procfs: the kernel's state as files under /proc.
 *
 * Nothing is stored: every file is printed afresh (fs/proc/procbuf.c) when it is
 * read from its start, by the show() of its entry in the tables below, and
 * every inode is made on lookup and dropped when unused. The tree is fixed
 * (proc_tree) except for one directory per process, /proc/PID, whose files
 * are in pid_entries.
 *
 * The BKL. In Linux 2.6.6 most of /proc was still read and written under
 * the BKL, and /proc/sys was not ("The Big Kernel Lock lives on", 2004).
 * smpix does the same: proc_file_read() and proc_file_write() are
 * lock_kernel() sites of their own (see /proc/bkl), skipped for the entries
 * marked no_bkl. Nothing here needs the BKL for its own data: it is taken
 * to show the 2004 kernel's shape, and because a /proc file's show() may
 * print data that only the BKL protects (the BKL's own site counters).
 * make ERA=2.6.39 takes procfs_mutex at the same two places instead.
 *
 * Inode numbers: the fixed tree's entry i is inode 1 + i (the root is 1);
 * /proc/PID's entry j is PID_INO_BASE + PID * PID_INO_STRIDE + j; a
 * thread's /proc/PID/task/TID's entry j is TID_INO_BASE + TID * TID_INO_STRIDE + j.
 */
#include "fs/proc/procfs.h"

#include "drivers/block/genhd.h"
#include "drivers/block/ide.h"
#include "fs/file.h"
#include "fs/inode.h"
#include "fs/ioctl/ioctl_mode.h"
#include "fs/ioctl/ioctl_stats.h"
#include "fs/mount.h"
#include "fs/proc/proc_files.h"
#include "fs/proc/procbuf.h"
#include "kernel/locking/bkl.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/dirent.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/stat.h"
#include "kernel/uapi/statfs.h"

#define PID_INO_BASE   0x100000u
#define PID_INO_STRIDE 16u
#define PID_DIR_POS    0x10000          /* readdir cookies at and above: process directories */
#define TID_INO_BASE   0x80000000u
#define TID_INO_STRIDE 4u
#define PROC_WRITE_MAX 64               /* every writable file takes one short word */

struct proc_entry {
	const char *name;
	int parent;                     /* proc_tree index of its directory (-1: the root itself) */
	uint32_t mode;                  /* S_IFDIR, S_IFREG or S_IFLNK, with permissions */
	void (*show)(struct procbuf *pb, void *arg);    /* a file's contents */
	int (*write)(const char *text);                 /* NULL: read-only (EACCES) */
	int (*readlink)(int pid, char *buf, size_t size);
	bool no_bkl;                    /* /proc/sys: outside the BKL, as 2.6.6 */
	size_t (*size_hint)(void);      /* files of megabytes: about how large (NULL: small) */
};

static int self_readlink(int pid, char *buf, size_t size);
static int exe_readlink(int pid, char *buf, size_t size);

#define PROC_DIR(n, p)        { .name = (n), .parent = (p), .mode = S_IFDIR | 0555 }
#define PROC_RO(n, p, fn)     { .name = (n), .parent = (p), .mode = S_IFREG | 0444, .show = (fn) }
#define PROC_RW(n, p, fn, wr) { .name = (n), .parent = (p), .mode = S_IFREG | 0644, .show = (fn), \
				.write = (wr) }
#define PROC_SYS(n, p, fn, wr) { .name = (n), .parent = (p), .mode = S_IFREG | 0644, .show = (fn), \
				 .write = (wr), .no_bkl = true }
#define PROC_BIG(n, p, fn, wr, sz) { .name = (n), .parent = (p), .mode = S_IFREG | 0644, .show = (fn), \
				    .write = (wr), .no_bkl = true, .size_hint = (sz) }
#define PROC_SYS_RO(n, p, fn) { .name = (n), .parent = (p), .mode = S_IFREG | 0444, .show = (fn), \
			       .no_bkl = true }
#define PROC_LINK(n, p, fn)   { .name = (n), .parent = (p), .mode = S_IFLNK | 0777, .readlink = (fn) }

enum { ROOT, SYS = 14, SYS_KERNEL = 15 };
enum { PID_TASK = 6 };                  /* pid_entries' index of /proc/PID/task */

/* The fixed tree; a directory's entries are listed in table order. */
static const struct proc_entry proc_tree[] = {
	[ROOT] = PROC_DIR("", -1),
	PROC_RO("cpuinfo", ROOT, proc_show_cpuinfo),
	PROC_RO("meminfo", ROOT, proc_show_meminfo),
	PROC_RO("uptime", ROOT, proc_show_uptime),
	PROC_RO("interrupts", ROOT, proc_show_interrupts),
	PROC_RO("mounts", ROOT, proc_show_mounts),
	PROC_RW("bkl", ROOT, proc_show_bkl, proc_write_bkl),
	PROC_RW("bkl_blame", ROOT, proc_show_bkl_blame, proc_write_bkl),
	PROC_RW("lock_stat", ROOT, proc_show_lock_stat, proc_write_lock_stat),
	PROC_SYS_RO("lockdep", ROOT, proc_show_lockdep),
	PROC_RO("syscalls", ROOT, proc_show_syscalls),
	PROC_RW("ioctl", ROOT, proc_show_ioctl, proc_write_ioctl),
	PROC_LINK("self", ROOT, self_readlink),
	PROC_BIG("trace", ROOT, proc_show_trace, proc_write_trace, proc_trace_size),
	[SYS] = PROC_DIR("sys", ROOT),
	[SYS_KERNEL] = PROC_DIR("kernel", SYS),
	PROC_SYS("bkl_spin_report_ms", SYS_KERNEL, proc_show_spin_report_ms, proc_write_spin_report_ms),
	PROC_SYS("bkl_timing", SYS_KERNEL, proc_show_bkl_timing, proc_write_bkl_timing),
	PROC_SYS("ioctl_mode", SYS_KERNEL, proc_show_ioctl_mode, proc_write_ioctl_mode),
	PROC_SYS("trace", SYS_KERNEL, proc_show_trace_on, proc_write_trace_on),
	PROC_SYS("lock_stat", SYS_KERNEL, proc_show_lock_stat_on, proc_write_lock_stat_on),
	PROC_SYS_RO("era", SYS_KERNEL, proc_show_era),
	PROC_RO("partitions", ROOT, proc_show_partitions),      /* drivers/block/genhd.c */
	PROC_RO("ide", ROOT, proc_show_ide),                    /* drivers/block/ide.c */
	PROC_RO("stat", ROOT, proc_show_stat),                  /* fs/proc/proc_stat.c */
	PROC_RO("loadavg", ROOT, proc_show_loadavg),
	PROC_RO("vmstat", ROOT, proc_show_vmstat),
	PROC_RO("version", ROOT, proc_show_version),            /* fs/proc/proc_kernel.c */
	PROC_RO("cmdline", ROOT, proc_show_cmdline),
	PROC_RO("filesystems", ROOT, proc_show_filesystems),
};

/* /proc/PID: entry 0 is the directory itself. */
static const struct proc_entry pid_entries[] = {
	PROC_DIR("", -1),
	PROC_RO("stat", 0, proc_show_pid_stat),
	PROC_RO("status", 0, proc_show_pid_status),
	PROC_RO("cmdline", 0, proc_show_pid_cmdline),
	PROC_RO("sched", 0, proc_show_pid_sched),
	PROC_LINK("exe", 0, exe_readlink),
	[PID_TASK] = PROC_DIR("task", 0),       /* one directory per thread, below */
};

/* /proc/PID/task/TID: a thread's own files, as Linux has them (entry 0 is the directory). */
static const struct proc_entry tid_entries[] = {
	PROC_DIR("", -1),
	PROC_RO("stat", 0, proc_show_tid_stat),
	PROC_RO("status", 0, proc_show_tid_status),
};

_Static_assert(ARRAY_SIZE(pid_entries) <= PID_INO_STRIDE, "pid entries fit their inode range");
_Static_assert(ARRAY_SIZE(tid_entries) <= TID_INO_STRIDE, "tid entries fit their inode range");

static const struct inode_operations proc_dir_iops, proc_link_iops, proc_file_iops;
static const struct file_operations proc_dir_fops, proc_file_fops;

/* ---- which entry an inode is ----------------------------------------------------------- */

static bool is_tid_ino(uint32_t ino)
{
	return ino >= TID_INO_BASE;
}

/* In a /proc/PID directory, or /proc/PID/task/TID (whose files are numbered apart). */
static bool is_pid_ino(uint32_t ino)
{
	return ino >= PID_INO_BASE;
}

/* The process or thread an inode is about: a show() function's argument. */
static int ino_pid(uint32_t ino)
{
	if (is_tid_ino(ino))
		return (int)((ino - TID_INO_BASE) / TID_INO_STRIDE);
	return is_pid_ino(ino) ? (int)((ino - PID_INO_BASE) / PID_INO_STRIDE) : 0;
}

/* Which entry of its table an inode in /proc/PID or /proc/PID/task/TID is. */
static int ino_entry(uint32_t ino)
{
	if (is_tid_ino(ino))
		return (int)((ino - TID_INO_BASE) % TID_INO_STRIDE);
	return (int)((ino - PID_INO_BASE) % PID_INO_STRIDE);
}

static uint32_t tid_ino(int tid, int index)
{
	return TID_INO_BASE + (uint32_t)tid * TID_INO_STRIDE + (uint32_t)index;
}

static uint32_t tree_ino(int index)
{
	return 1 + (uint32_t)index;
}

static uint32_t pid_ino(int pid, int index)
{
	return PID_INO_BASE + (uint32_t)pid * PID_INO_STRIDE + (uint32_t)index;
}

static int tree_index(const struct inode *inode)
{
	return (int)inode->i_ino - 1;
}

static unsigned dtype_of(uint32_t mode)
{
	return S_ISDIR(mode) ? DT_DIR : S_ISLNK(mode) ? DT_LNK : DT_REG;
}

/* A fresh inode for entry e, numbered ino (dropped again when unused). */
static int proc_make_inode(struct mount *m, const struct proc_entry *e, uint32_t ino,
			   struct inode **out)
{
	struct inode *inode = inode_alloc(m, e->mode);

	if (!inode)
		return -ENOMEM;
	inode->i_ino = ino;
	inode->i_private = (void *)e;
	inode->i_flags |= I_DROP_UNUSED;
	if (S_ISDIR(e->mode)) {
		inode->i_op = &proc_dir_iops;
		inode->i_fop = &proc_dir_fops;
	} else if (S_ISLNK(e->mode)) {
		inode->i_op = &proc_link_iops;
	} else {
		inode->i_op = &proc_file_iops;
		inode->i_fop = &proc_file_fops;
	}
	*out = inode;
	return 0;
}

static void proc_evict(struct inode *inode)
{
	inode_free(inode);
}

/* ---- directories: lookup and readdir ---------------------------------------------------- */

static bool name_is(const struct qstr *q, const char *name)
{
	return strlen(name) == q->len && memcmp(q->name, name, q->len) == 0;
}

/* A decimal pid without leading zeros, or -1. */
static int parse_pid(const struct qstr *q)
{
	int pid = 0;

	if (q->len == 0 || q->len > 9 || (q->name[0] == '0' && q->len > 1))
		return -1;
	for (size_t i = 0; i < q->len; i++) {
		if (q->name[i] < '0' || q->name[i] > '9')
			return -1;
		pid = pid * 10 + (q->name[i] - '0');
	}
	return pid;
}

/* /proc/PID/task/TID for a thread of process pid. */
static int lookup_in_task_dir(struct inode *dir, const struct qstr *name, struct inode **out)
{
	int pid = ino_pid(dir->i_ino), tid = parse_pid(name);

	if (tid <= 0 || proc_tid_tgid(tid) != pid)
		return -ENOENT;
	return proc_make_inode(dir->i_mnt, &tid_entries[0], tid_ino(tid, 0), out);
}

static int lookup_in_pid_dir(struct inode *dir, const struct qstr *name, struct inode **out)
{
	int pid = ino_pid(dir->i_ino);
	bool tid_dir = is_tid_ino(dir->i_ino);
	const struct proc_entry *table = tid_dir ? tid_entries : pid_entries;
	int n = tid_dir ? (int)ARRAY_SIZE(tid_entries) : (int)ARRAY_SIZE(pid_entries);

	if (!proc_pid_exists(pid))
		return -ENOENT;         /* the process has gone since the directory was found */
	if (!tid_dir && ino_entry(dir->i_ino) == PID_TASK)
		return lookup_in_task_dir(dir, name, out);
	for (int i = 1; i < n; i++)
		if (name_is(name, table[i].name))
			return proc_make_inode(dir->i_mnt, &table[i],
					       tid_dir ? tid_ino(pid, i) : pid_ino(pid, i), out);
	return -ENOENT;
}

/* The directory a /proc/PID/... directory sits in: the root, /proc/PID, or /proc/PID/task. */
static int pid_dir_parent(struct inode *dir, struct inode **out)
{
	int pid = ino_pid(dir->i_ino), tgid;

	if (is_tid_ino(dir->i_ino)) {
		tgid = proc_tid_tgid(pid);
		if (tgid < 0)
			return -ENOENT;
		return proc_make_inode(dir->i_mnt, &pid_entries[PID_TASK], pid_ino(tgid, PID_TASK), out);
	}
	if (ino_entry(dir->i_ino) == PID_TASK)
		return proc_make_inode(dir->i_mnt, &pid_entries[0], pid_ino(pid, 0), out);
	*out = igrab(dir->i_mnt->root);
	return 0;
}

static int proc_lookup(struct inode *dir, const struct qstr *name, struct inode **out)
{
	int d, pid;

	if (name_is(name, ".")) {
		*out = igrab(dir);
		return 0;
	}
	if (name_is(name, "..")) {
		/* The VFS steps out of the mount itself; inside, a parent is always a tree directory. */
		if (dir->i_mnt->root == dir) {
			*out = igrab(dir);
			return 0;
		}
		if (is_pid_ino(dir->i_ino))
			return pid_dir_parent(dir, out);
		d = proc_tree[tree_index(dir)].parent;
		if (d == ROOT) {
			*out = igrab(dir->i_mnt->root);
			return 0;
		}
		return proc_make_inode(dir->i_mnt, &proc_tree[d], tree_ino(d), out);
	}
	if (is_pid_ino(dir->i_ino))
		return lookup_in_pid_dir(dir, name, out);
	d = tree_index(dir);
	for (int i = 1; i < (int)ARRAY_SIZE(proc_tree); i++)
		if (proc_tree[i].parent == d && name_is(name, proc_tree[i].name))
			return proc_make_inode(dir->i_mnt, &proc_tree[i], tree_ino(i), out);
	if (d == ROOT) {
		pid = parse_pid(name);
		if (pid > 0 && proc_pid_exists(pid))
			return proc_make_inode(dir->i_mnt, &pid_entries[0], pid_ino(pid, 0), out);
	}
	return -ENOENT;
}

/* Hand one entry to getdents; on success f_pos moves past it (the VFS leaves f_pos to us). */
static bool emit_one(struct file *f, struct dir_context *ctx, const char *name, uint32_t ino,
		     unsigned dtype, loff_t next_pos)
{
	if (!ctx->emit(ctx, name, strlen(name), ino, dtype, next_pos))
		return false;
	f->f_pos = next_pos;
	return true;
}

/*
 * Cookies (f_pos): 0 is ".", 1 is "..", 2 + k is the directory's k-th entry,
 * and in the root PID_DIR_POS + pid is a process's directory.
 */
/* /proc/PID/task: a directory per thread of the process, cookie PID_DIR_POS + tid + 1 past it. */
static int task_readdir(struct file *f, struct dir_context *ctx)
{
	struct inode *dir = f->f_inode;
	int pid = ino_pid(dir->i_ino);
	char name[16];

	if (f->f_pos == 0 && !emit_one(f, ctx, ".", dir->i_ino, DT_DIR, 1))
		return 0;
	if (f->f_pos == 1 && !emit_one(f, ctx, "..", pid_ino(pid, 0), DT_DIR, PID_DIR_POS))
		return 0;
	for (int tid = proc_tid_next(pid, f->f_pos > PID_DIR_POS ? (int)(f->f_pos - PID_DIR_POS) : 0);
	     tid > 0; tid = proc_tid_next(pid, tid + 1)) {
		snprintf(name, sizeof(name), "%d", tid);
		if (!emit_one(f, ctx, name, tid_ino(tid, 0), DT_DIR, PID_DIR_POS + tid + 1))
			return 0;
	}
	return 0;
}

static int proc_readdir(struct file *f, struct dir_context *ctx)
{
	struct inode *dir = f->f_inode;
	bool pid_dir = is_pid_ino(dir->i_ino), tid_dir = is_tid_ino(dir->i_ino);
	int d = pid_dir ? 0 : tree_index(dir);
	const struct proc_entry *table = tid_dir ? tid_entries : pid_dir ? pid_entries : proc_tree;
	int n = tid_dir ? (int)ARRAY_SIZE(tid_entries) : pid_dir ? (int)ARRAY_SIZE(pid_entries) :
		(int)ARRAY_SIZE(proc_tree);
	uint32_t up = pid_dir || d == ROOT ? tree_ino(ROOT) : tree_ino(proc_tree[d].parent);
	int k = 0;
	char name[16];

	if (pid_dir && !tid_dir && ino_entry(dir->i_ino) == PID_TASK)
		return task_readdir(f, ctx);
	if (f->f_pos == 0 && !emit_one(f, ctx, ".", dir->i_ino, DT_DIR, 1))
		return 0;
	if (f->f_pos == 1 && !emit_one(f, ctx, "..", up, DT_DIR, 2))
		return 0;
	for (int i = 1; i < n; i++) {
		uint32_t ino;

		if (table[i].parent != d)
			continue;
		if (2 + k >= f->f_pos) {
			ino = tid_dir ? tid_ino(ino_pid(dir->i_ino), i) :
			      pid_dir ? pid_ino(ino_pid(dir->i_ino), i) : tree_ino(i);
			if (!emit_one(f, ctx, table[i].name, ino, dtype_of(table[i].mode), 2 + k + 1))
				return 0;
		}
		k++;
	}
	if (pid_dir || d != ROOT)
		return 0;
	for (int pid = proc_pid_next(f->f_pos > PID_DIR_POS ? (int)(f->f_pos - PID_DIR_POS) : 0);
	     pid > 0; pid = proc_pid_next(pid + 1)) {
		snprintf(name, sizeof(name), "%d", pid);
		if (!emit_one(f, ctx, name, pid_ino(pid, 0), DT_DIR, PID_DIR_POS + pid + 1))
			return 0;
	}
	return 0;
}

/* ---- symlinks ------------------------------------------------------------------------------ */

/* /proc/self: the reader's own directory. */
static int self_readlink(int pid, char *buf, size_t size)
{
	char tmp[16];
	int len = snprintf(tmp, sizeof(tmp), "%d", current->tgid);     /* the process, from any thread */

	len = MIN(len, (int)size);
	memcpy(buf, tmp, len);
	return len;
}

static int exe_readlink(int pid, char *buf, size_t size)
{
	return proc_pid_exe(pid, buf, size);
}

static int proc_readlink(struct inode *inode, char *buf, size_t size)
{
	const struct proc_entry *e = inode->i_private;

	return e->readlink(ino_pid(inode->i_ino), buf, size);
}

/* ---- files: open, read, write, release ------------------------------------------------- */

/* What one open file holds: the text last printed, read from at f_pos. */
struct proc_open {
	/*
	 * Protects pb and printed. Processes sharing the open file (fork, dup)
	 * may read it at once: pread64 takes no f_pos_lock, and /proc/sys has
	 * no BKL. Taken inside the BKL where there is one (a mutex may sleep,
	 * and a sleeping BKL holder lets the BKL go, so the order cannot deadlock),
	 * and in make ERA=2.6.39 inside procfs_mutex.
	 */
	struct mutex lock;
	struct procbuf pb;
	bool printed;
};

static int proc_file_open(struct inode *inode, struct file *f)
{
	const struct proc_entry *e = inode->i_private;
	struct proc_open *po;

	/* Read-only files refuse writers at open, as Linux does for a user without privilege. */
	if ((f->f_flags & O_ACCMODE) != O_RDONLY && !e->write)
		return -EACCES;
	po = kzalloc(sizeof(*po));
	if (!po)
		return -ENOMEM;
	mutex_init(&po->lock, "proc_open");
	f->private_data = po;
	return 0;
}

static int proc_file_release(struct inode *inode, struct file *f)
{
	struct proc_open *po = f->private_data;

	kfree(po->pb.buf);
	kfree(po);
	return 0;
}

/* Print the file at a read from offset 0 (so lseek to 0 and read again shows fresh state). po->lock held. */
static ssize_t proc_read_text(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	const struct proc_entry *e = f->f_inode->i_private;
	struct proc_open *po = f->private_data;
	size_t k;
	int err;

	if (*pos == 0 || !po->printed) {
		kfree(po->pb.buf);
		po->pb.buf = NULL;
		po->printed = false;
		err = procbuf_fill(&po->pb, e->show, (void *)(uintptr_t)ino_pid(f->f_inode->i_ino),
				   e->size_hint ? e->size_hint() : 0);
		if (err)
			return err;
		po->printed = true;
	}
	if (*pos < 0 || *pos >= (loff_t)po->pb.len)
		return 0;
	k = MIN(n, po->pb.len - (size_t)*pos);
	if (copy_to_user(ubuf, po->pb.buf + *pos, k) < 0)
		return -EFAULT;
	*pos += k;
	return k;
}

static ssize_t proc_read_locked(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct proc_open *po = f->private_data;
	ssize_t r;

	mutex_lock(&po->lock);
	r = proc_read_text(f, ubuf, n, pos);
	mutex_unlock(&po->lock);
	return r;
}

/*
 * make ERA=2.6.39: procfs's own lock in place of the BKL, taken where the
 * BKL was, for what it was taken for (the 2010 pushdown kept the locking as
 * it was and only gave it a name of its own; whether /proc needs it at all
 * is the next question, which Linux answered with per-file locks).
 */
DEFINE_OWN_MUTEX(procfs_mutex);

static ssize_t proc_file_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	const struct proc_entry *e = f->f_inode->i_private;
	ssize_t r;

	if (e->no_bkl)
		return proc_read_locked(f, ubuf, n, pos);
	lock_kernel_or(&procfs_mutex);  /* 2.6.6: /proc reads ran under the BKL */
	r = proc_read_locked(f, ubuf, n, pos);
	unlock_kernel_or(&procfs_mutex);
	return r;
}

/* A write is one short word ("0", "auto", "250"), one trailing newline allowed (echo adds it). */
static ssize_t proc_write_text(struct file *f, const char *ubuf, size_t n)
{
	const struct proc_entry *e = f->f_inode->i_private;
	char text[PROC_WRITE_MAX + 1];
	size_t len = n;
	int err;

	if (n > PROC_WRITE_MAX)
		return -EINVAL;
	if (copy_from_user(text, ubuf, n) < 0)
		return -EFAULT;
	text[n] = 0;
	if (len > 0 && text[len - 1] == '\n')
		text[--len] = 0;
	if (strlen(text) != len)
		return -EINVAL;         /* a NUL inside */
	err = e->write(text);
	return err < 0 ? err : (ssize_t)n;
}

static ssize_t proc_file_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	const struct proc_entry *e = f->f_inode->i_private;
	ssize_t r;

	if (!e->write)
		return -EACCES;
	if (e->no_bkl)
		return proc_write_text(f, ubuf, n);
	lock_kernel_or(&procfs_mutex);  /* 2.6.6: /proc writes ran under the BKL (not /proc/sys) */
	r = proc_write_text(f, ubuf, n);
	unlock_kernel_or(&procfs_mutex);
	return r;
}

static const struct inode_operations proc_dir_iops = {
	.lookup = proc_lookup,
	.evict = proc_evict,
};

static const struct inode_operations proc_link_iops = {
	.readlink = proc_readlink,
	.evict = proc_evict,
};

static const struct inode_operations proc_file_iops = {
	.evict = proc_evict,
};

static const struct file_operations proc_dir_fops = {
	.llseek = generic_file_llseek,   /* its own llseek (2.6.6: seq_lseek), no BKL */
	.name = "proc",
	.readdir = proc_readdir,
};

static const struct file_operations proc_file_fops = {
	.llseek = generic_file_llseek,   /* its own llseek (2.6.6: seq_lseek), no BKL */
	.name = "proc",
	.open = proc_file_open,
	.release = proc_file_release,
	.read = proc_file_read,
	.write = proc_file_write,
};

/* ---- the file system ------------------------------------------------------------------------ */

static int proc_fill(struct mount *m)
{
	struct inode *root;
	int err = proc_make_inode(m, &proc_tree[ROOT], tree_ino(ROOT), &root);

	if (err)
		return err;
	root->i_flags &= ~I_DROP_UNUSED;        /* the mount holds it for good */
	m->root = root;
	return 0;
}

/* An unmounted instance: every inode but the root was dropped when unused; the root goes now. */
static void proc_kill(struct mount *m)
{
	m->root->i_count = 0;
	proc_evict(m->root);
}

static const struct filesystem_type proc_fs_type = {
	.name = "proc",
	.magic = PROC_SUPER_MAGIC,
	.fill = proc_fill,
	.kill = proc_kill,
};

void procfs_init(void)
{
	int err;

	ioctl_mode_init();
	register_filesystem(&proc_fs_type);     /* mount -t proc proc DIR makes another instance */
	err = vfs_mount(&proc_fs_type, "/proc");
	if (err)
		printk("procfs: cannot mount on /proc: error %d\n", err);
}
