/* The VFS at boot, and its part of every process: descriptors, current directory, umask. */
#include "fs/vfs.h"

#include "fs/devfs/devfs.h"
#include "fs/ext2/ext2_type.h"
#include "fs/fdtable.h"
#include "fs/file.h"
#include "fs/flock.h"
#include "fs/fs_struct.h"
#include "fs/initrd/initrd.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/proc/procfs.h"
#include "fs/ramfs/ramfs.h"
#include "kernel/printk.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/stat.h"

#define DEFAULT_UMASK 022

/* A directory the kernel itself needs, whether or not the initrd has it. */
static void make_dir(const char *path)
{
	struct inode *root = mount_root()->root;
	struct walk_start s = { root, root };
	int r = vfs_make_node(&s, path, S_IFDIR | 0755, 0, NULL, NULL);

	if (r < 0 && r != -EEXIST)
		printk("vfs: cannot make %s: error %d\n", path, r);
}

void vfs_init(void)
{
	int r;

	flock_init();
	register_filesystem(&ramfs_type);
	register_filesystem(&tmpfs_type);
	register_filesystem(&ext2_type);        /* mount -t ext2 /dev/hda1 /mnt (fs/ext2/super.c) */
	vfs_mount_root(&ramfs_type);
	initrd_unpack();
	make_dir("/dev");
	make_dir("/proc");
	make_dir("/mnt");                       /* where init mounts the disk (docs/block.md) */
	r = devfs_mount();
	if (r < 0)
		printk("vfs: cannot mount devfs on /dev: error %d\n", r);
	procfs_init();
	printk("vfs: ramfs on /, devfs on /dev; %d inodes, %d file pages\n", inode_count(),
	       ramfs_page_count());
}

int vfs_proc_init(struct task *t)
{
	struct file *console;
	int r;

	t->files = fdtable_alloc();
	t->fs = fs_struct_new(igrab(mount_root()->root), DEFAULT_UMASK);
	if (!t->files || !t->fs) {
		vfs_proc_exit(t);
		return -ENOMEM;
	}
	/* Opened through the VFS like any file, by the kernel thread that starts init. */
	r = vfs_open_kernel("/dev/console", O_RDWR, &console);
	if (r < 0) {
		printk("vfs: cannot open /dev/console for init: error %d\n", r);
		vfs_proc_exit(t);
		return r;
	}
	fdtable_set(t->files, 0, console);
	fdtable_set(t->files, 1, fget_ref(console));
	fdtable_set(t->files, 2, fget_ref(console));
	return 0;
}

int vfs_proc_fork(struct task *parent, struct task *child, bool share_files, bool share_fs)
{
	child->files = NULL;
	child->fs = NULL;
	if (parent->fs) {
		child->fs = share_fs ? fs_struct_get(parent->fs) : fs_struct_copy(parent->fs);
		if (!child->fs)
			return -ENOMEM;
	}
	if (parent->files) {
		child->files = share_files ? fdtable_get(parent->files) : fdtable_fork(parent->files);
		if (!child->files) {
			vfs_proc_exit(child);
			return -ENOMEM;
		}
	}
	return 0;
}

int vfs_unshare_files(struct task *t)
{
	struct fdtable *own;

	if (!t->files || atomic_read(&t->files->refs) == 1)
		return 0;
	own = fdtable_fork(t->files);
	if (!own)
		return -ENOMEM;
	fdtable_free(t->files);
	t->files = own;
	return 0;
}

void vfs_proc_exec(struct task *t)
{
	fdtable_exec(t->files);
}

void vfs_proc_exit(struct task *t)
{
	struct fdtable *files = t->files;
	struct fs_struct *fs = t->fs;

	t->files = NULL;
	t->fs = NULL;
	fdtable_free(files);
	fs_struct_put(fs);
}
