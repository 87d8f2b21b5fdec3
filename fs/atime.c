/*
 * touch_atime(), after Linux. Every read updating atime means every read
 * writing an inode: Linux 2.6.20 added relatime (update only if the old
 * atime is not newer than the mtime or the ctime, so "was it read since it
 * was written?" still has its answer), 2.6.30 made it the default and added
 * a day's limit (the atime still moves once every 24 hours, for tools that
 * look for files unread for long). noatime never updates, strictatime always.
 */
#include "fs/atime.h"

#include "fs/file.h"
#include "fs/inode.h"
#include "fs/mount.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/stat.h"

#define RELATIME_MAX_AGE (24 * 60 * 60)

/* Linux's relatime_need_update(). Needs i_lock (the three times are read together). */
static bool relatime_need_update(const struct inode *inode, uint32_t now)
{
	if (inode->i_mtime >= inode->i_atime || inode->i_ctime >= inode->i_atime)
		return true;
	return (int32_t)(now - inode->i_atime) >= RELATIME_MAX_AGE;
}

/* May this file's atime move at all (the mount, the type, O_NOATIME)? */
static bool atime_allowed(const struct file *f, const struct inode *inode, unsigned mnt_flags)
{
	if (f->f_flags & O_NOATIME)
		return false;
	if (mnt_flags & MNT_NOATIME)
		return false;
	if ((mnt_flags & MNT_NODIRATIME) && S_ISDIR(inode->i_mode))
		return false;
	return S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode);
}

void file_accessed(struct file *f)
{
	struct inode *inode = f->f_inode;
	struct mount *m = inode->i_mnt;
	unsigned mnt_flags;
	uint32_t now;

	if (!m || READ_ONCE(m->rdonly))
		return;                 /* a pipe; or a read-only mount, where nothing may change */
	mnt_flags = READ_ONCE(m->mnt_flags);
	if (!atime_allowed(f, inode, mnt_flags))
		return;
	now = inode_time_now();
	spin_lock(&inode->i_lock);
	if (inode->i_atime != now && (!(mnt_flags & MNT_RELATIME) || relatime_need_update(inode, now))) {
		inode->i_atime = now;
		inode->i_flags |= I_DIRTY;
	}
	spin_unlock(&inode->i_lock);
}
