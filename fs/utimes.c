/*
 * utimensat, futimesat, utimes and utime: set a file's access and
 * modification times (touch, cp -p, tar). The older three turn their times
 * (struct timeval, struct utimbuf) into utimensat's and take its path, as
 * Linux's fs/utimes.c does. smpix keeps whole seconds: the nanoseconds
 * given are dropped, and stat shows 0 there. The change time becomes now.
 */
#include "fs/attr.h"
#include "fs/fdtable.h"
#include "fs/file.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"

#define UTIME_NOW  ((1 << 30) - 1)
#define UTIME_OMIT ((1 << 30) - 2)

/* The i386 call's struct timespec: 32-bit seconds (utimensat_time64 is the 64-bit one). */
struct timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

static bool nsec_valid(int32_t nsec)
{
	return nsec == UTIME_NOW || nsec == UTIME_OMIT || (nsec >= 0 && nsec <= 999999999);
}

/* Times of the caller's choice, not "now": only the owner (or root) may set them (Linux: -EPERM). */
static bool chosen_times(const struct timespec32 *t)
{
	return t && (t[0].tv_nsec != UTIME_NOW || t[1].tv_nsec != UTIME_NOW);
}

/* Set inode's times from t (NULL: both now). */
static long set_times(struct inode *inode, const struct timespec32 *t)
{
	uint32_t now = inode_time_now();

	if (t && (!nsec_valid(t[0].tv_nsec) || !nsec_valid(t[1].tv_nsec)))
		return -EINVAL;
	if (inode->i_mnt && inode->i_mnt->rdonly)
		return -EROFS;
	if (chosen_times(t) && !inode_owner_or_capable(inode))
		return -EPERM;
	spin_lock(&inode->i_lock);
	if (!t || t[0].tv_nsec != UTIME_OMIT)
		inode->i_atime = !t || t[0].tv_nsec == UTIME_NOW ? now : (uint32_t)t[0].tv_sec;
	if (!t || t[1].tv_nsec != UTIME_OMIT)
		inode->i_mtime = !t || t[1].tv_nsec == UTIME_NOW ? now : (uint32_t)t[1].tv_sec;
	inode->i_ctime = now;
	spin_unlock(&inode->i_lock);
	return inode_write_back(inode);
}

/* Linux's do_utimes(): the times already copied in (tp NULL: now). */
static long do_utimes(int dirfd, const char *upath, struct timespec32 *tp, int flags)
{
	struct inode *inode;
	struct file *f;
	long r;

	if (!upath && dirfd != AT_FDCWD) {     /* futimens(): the file dirfd is open on */
		if (flags)
			return -EINVAL;
		f = fd_get(dirfd);
		if (!f)
			return -EBADF;
		r = set_times(f->f_inode, tp);
		fput(f);
		return r;
	}
	r = user_walk_at(dirfd, upath, flags, &inode);
	if (r < 0)
		return r;
	r = set_times(inode, tp);
	iput(inode);
	return r;
}

/*
 * Linux's order: the times (-EFAULT; both UTIME_OMIT: 0 without even
 * looking at the path), then a NULL path (dirfd's own file), the flags, the
 * path, and only then whether the nanoseconds make sense (-EINVAL).
 */
long sys_utimensat(int dirfd, const char *upath, const void *utimes, int flags)
{
	struct timespec32 t[2];

	if (!utimes)
		return do_utimes(dirfd, upath, NULL, flags);
	if (copy_from_user(t, utimes, sizeof(t)) < 0)
		return -EFAULT;
	if (t[0].tv_nsec == UTIME_OMIT && t[1].tv_nsec == UTIME_OMIT)
		return 0;
	return do_utimes(dirfd, upath, t, flags);
}

/* The i386 struct timeval: seconds and microseconds, 32 bits each. */
struct timeval32 {
	int32_t tv_sec;
	int32_t tv_usec;
};

/* futimesat(2) and utimes(2): microseconds out of range are -EINVAL before the path is looked at. */
long sys_futimesat(int dirfd, const char *upath, const void *utimes)
{
	struct timeval32 tv[2];
	struct timespec32 t[2];

	if (!utimes)
		return do_utimes(dirfd, upath, NULL, 0);
	if (copy_from_user(tv, utimes, sizeof(tv)) < 0)
		return -EFAULT;
	for (int i = 0; i < 2; i++) {
		if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
			return -EINVAL;
		t[i].tv_sec = tv[i].tv_sec;
		t[i].tv_nsec = tv[i].tv_usec * 1000;
	}
	return do_utimes(dirfd, upath, t, 0);
}

long sys_utimes(const char *upath, const void *utimes)
{
	return sys_futimesat(AT_FDCWD, upath, utimes);
}

/* utime(2): struct utimbuf, the access then the modification time in whole seconds. */
long sys_utime(const char *upath, const void *utimbuf)
{
	int32_t secs[2];
	struct timespec32 t[2];

	if (!utimbuf)
		return do_utimes(AT_FDCWD, upath, NULL, 0);
	if (copy_from_user(secs, utimbuf, sizeof(secs)) < 0)
		return -EFAULT;
	t[0] = (struct timespec32){ secs[0], 0 };
	t[1] = (struct timespec32){ secs[1], 0 };
	return do_utimes(AT_FDCWD, upath, t, 0);
}
