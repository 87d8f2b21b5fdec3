/*
 * mount, umount and umount2: the system calls over fs/mount.c, for
 * `mount -t proc proc /proc` and its kind. The file system types are the
 * registered ones: proc, devtmpfs (smpix's devfs), ramfs and tmpfs (both ramfs), and ext2
 * (`mount -t ext2 [-o ro] /dev/hda1 /mnt`: the source is its block device, fs/ext2/super.c).
 */
#include "fs/mount.h"

#include "fs/inode.h"
#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"

/* mount(2)'s flags (Linux's values): those smpix cannot honour are refused, the rest ignored. */
#define MS_RDONLY      0x1
#define MS_REMOUNT     0x20
#define MS_BIND        0x1000
#define MS_MOVE        0x2000
#define MS_UNBINDABLE  (1 << 17)
#define MS_PRIVATE     (1 << 18)
#define MS_SLAVE       (1 << 19)
#define MS_SHARED      (1 << 20)
#define MS_MGC_MSK     0xFFFF0000u      /* old callers put a magic number in the top half */
#define MS_MGC_VAL     0xC0ED0000u
/*
 * Read-only mounts only for the types that honour them (ext2). No remount, no bind or move, no propagation types:
 * -EINVAL rather than a mount that is not what was asked for. Ignored, as
 * meaningless here: nosuid, nodev, noexec (every process is root, and exec
 * does not check), the atime and sync flags, silent.
 */
#define MS_REFUSED (MS_REMOUNT | MS_BIND | MS_MOVE | MS_UNBINDABLE | MS_PRIVATE | \
		    MS_SLAVE | MS_SHARED)

#define FSTYPE_MAX 32

long sys_mount(const char *usource, const char *utarget, const char *utype, unsigned long flags,
	       const void *udata)
{
	char type_name[FSTYPE_MAX], source[sizeof(((struct mount *)0)->source)];
	const struct filesystem_type *type = NULL;
	struct walk_start s;
	struct inode *dir;
	char *target;
	int r, tlen = 0;

	/* Linux's order: the strings (-EFAULT), the target (-ENOENT...), the flags, the type (-ENODEV). */
	if (utype) {
		tlen = strncpy_from_user(type_name, utype, sizeof(type_name));
		if (tlen == -EFAULT)
			return -EFAULT;
	}
	strlcpy(source, "none", sizeof(source));
	if (usource) {
		r = strncpy_from_user(source, usource, sizeof(source));
		if (r == -EFAULT)
			return -EFAULT;
		if (r < 0)
			source[sizeof(source) - 1] = '\0';     /* a long name, cut for /proc/mounts */
	}
	/* udata: the file system's options ("mode=755", "size=1m"). None is understood, all are ignored. */
	r = getname(utarget, &target);
	if (r < 0)
		return r;
	r = walk_start_get(AT_FDCWD, target, &s);
	if (r < 0)
		goto out_name;
	r = path_walk(&s, target, LOOKUP_FOLLOW, &dir);
	if (r < 0)
		goto out_walk;
	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~MS_MGC_MSK;
	if (flags & MS_REFUSED)
		r = -EINVAL;
	else if (!utype)
		r = -EINVAL;
	else if (tlen < 0 || !(type = get_fs_type(type_name)))
		r = -ENODEV;
	else if ((flags & MS_RDONLY) && !type->rdonly_ok)
		r = -EINVAL;
	else
		r = vfs_mount_on(&s, dir, type, source, flags & MS_RDONLY);
	iput(dir);
out_walk:
	walk_start_put(&s);
out_name:
	kfree(target);
	return r;
}

long sys_umount2(const char *utarget, int flags)
{
	struct walk_start s;
	struct inode *top;
	char *target;
	int r;

	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	r = getname(utarget, &target);
	if (r < 0)
		return r;
	r = walk_start_get(AT_FDCWD, target, &s);
	if (r < 0)
		goto out_name;
	r = path_walk(&s, target, (flags & UMOUNT_NOFOLLOW) ? 0 : LOOKUP_FOLLOW, &top);
	if (r == 0) {
		r = vfs_umount(top, flags);
		iput(top);              /* after a umount, the last reference: the instance goes here */
	}
	walk_start_put(&s);
out_name:
	kfree(target);
	return r;
}

/* The oldest form: umount2 without flags. */
long sys_umount(const char *utarget)
{
	return sys_umount2(utarget, 0);
}
