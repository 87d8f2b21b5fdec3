/*
 * mount, umount and umount2: the system calls over fs/mount.c, for
 * `mount -t proc proc /proc` and its kind, and `mount -o remount,ro /mnt`. The file system types are the
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

/* mount(2)'s flags (Linux's values, include/uapi/linux/mount.h). */
#define MS_RDONLY      0x1
#define MS_NOSUID      0x2
#define MS_NODEV       0x4
#define MS_NOEXEC      0x8
#define MS_SYNCHRONOUS 0x10
#define MS_DIRSYNC     0x80
#define MS_REMOUNT     0x20
#define MS_NOATIME     0x400
#define MS_NODIRATIME  0x800
#define MS_BIND        0x1000
#define MS_MOVE        0x2000
#define MS_UNBINDABLE  (1 << 17)
#define MS_PRIVATE     (1 << 18)
#define MS_SLAVE       (1 << 19)
#define MS_SHARED      (1 << 20)
#define MS_RELATIME    (1 << 21)
#define MS_STRICTATIME (1 << 24)
#define MS_MGC_MSK     0xFFFF0000u      /* old callers put a magic number in the top half */
#define MS_MGC_VAL     0xC0ED0000u
#define MS_ATIME_FLAGS (MS_NOATIME | MS_NODIRATIME | MS_RELATIME | MS_STRICTATIME)
/*
 * Read-only mounts only for the types that honour them (ext2, ramfs and
 * tmpfs; not proc or devtmpfs). No bind or move, no propagation types:
 * -EINVAL rather than a mount that is not what was asked for. Ignored, as
 * meaningless here: mandlock, silent, lazytime.
 */
#define MS_REFUSED (MS_BIND | MS_MOVE | MS_UNBINDABLE | MS_PRIVATE | MS_SLAVE | MS_SHARED)

/*
 * The per-mount flags mount(2)'s flags ask for, as Linux's do_mount():
 * relatime unless noatime or strictatime is said; a remount that names no
 * atime flag keeps the mount's atime flags as they were. A remount keeps
 * dirsync as it was, asked or not: in Linux it belongs to the superblock and
 * is not among the flags a remount may change (MS_RMT_MASK: rdonly, sync,
 * mandlock, i_version, lazytime), so only a fresh mount sets or clears it.
 */
static unsigned mnt_flags_of(unsigned long flags, unsigned old)
{
	unsigned f = (flags & MS_NOATIME) ? 0 : MNT_RELATIME;

	if (flags & MS_NOSUID)
		f |= MNT_NOSUID;
	if (flags & MS_NODEV)
		f |= MNT_NODEV;
	if (flags & MS_NOEXEC)
		f |= MNT_NOEXEC;
	if (flags & MS_NOATIME)
		f |= MNT_NOATIME;
	if (flags & MS_NODIRATIME)
		f |= MNT_NODIRATIME;
	if (flags & MS_SYNCHRONOUS)
		f |= MNT_SYNCHRONOUS;
	if (flags & MS_DIRSYNC)
		f |= MNT_DIRSYNC;
	if (flags & MS_STRICTATIME)
		f &= ~(unsigned)(MNT_RELATIME | MNT_NOATIME);
	if ((flags & MS_REMOUNT) && !(flags & MS_ATIME_FLAGS))
		f = (f & ~(unsigned)MNT_ATIME_MASK) | (old & MNT_ATIME_MASK);
	if (flags & MS_REMOUNT)
		f = (f & ~(unsigned)MNT_DIRSYNC) | (old & MNT_DIRSYNC);
	return f;
}

/* mount -o remount: only the root of a mount (the walk stepped into it), its type and source unchanged. */
static int remount(struct inode *top, unsigned long flags)
{
	struct mount *m = top->i_mnt;

	if (!m || top != m->root)
		return -EINVAL;
	return vfs_remount(top, flags & MS_RDONLY, mnt_flags_of(flags, m->mnt_flags));
}

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
	else if (flags & MS_REMOUNT)
		r = remount(dir, flags);        /* the source and the type are not looked at, as in Linux */
	else if (!utype)
		r = -EINVAL;
	else if (tlen < 0 || !(type = get_fs_type(type_name)))
		r = -ENODEV;
	else if ((flags & MS_RDONLY) && !type->rdonly_ok)
		r = -EINVAL;
	else
		r = vfs_mount_on(&s, dir, type, source, flags & MS_RDONLY, mnt_flags_of(flags, 0));
	iput(dir);
out_walk:
	walk_start_put(&s);
out_name:
	putname(target);
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
	putname(target);
	return r;
}

/* The oldest form: umount2 without flags. */
long sys_umount(const char *utarget)
{
	return sys_umount2(utarget, 0);
}
