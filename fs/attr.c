/*
 * Owner, group and the set-ID bits: the rules of Linux 2.6's fs/attr.c
 * (inode_change_ok, notify_change) and fs/open.c (chown_common), written
 * afresh for smpix's one user. See fs/attr.h.
 */
#include "fs/attr.h"

#include "fs/inode.h"
#include "fs/mount.h"
#include "kernel/process/groups.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

#define S_IXGRP 00010           /* group execute (kernel/uapi/stat.h keeps user space's names out) */

/*
 * The caller's file-system ids (Linux's current->fsuid, fsgid). smpix runs
 * every process as root (getuid() is 0): the one place that says so here.
 */
static uint32_t caller_fsuid(void) { return 0; }
static uint32_t caller_fsgid(void) { return 0; }

/* Linux's capable(CAP_CHOWN) and capable(CAP_FOWNER): root has every capability. */
static bool caller_is_root(void)
{
	return caller_fsuid() == 0;
}

/* Linux's in_group_p(): the caller's own group or one of its supplementary groups. */
static bool caller_in_group(uint32_t gid)
{
	return gid == caller_fsgid() || groups_contain(gid);
}

bool inode_owner_or_capable(const struct inode *inode)
{
	return caller_fsuid() == inode->i_uid || caller_is_root();
}

/*
 * inode_change_ok()'s two rules. The owner may not give the file away, but
 * may "change" its owner to itself; and it may change the group to one it
 * is in (or leave it). Anything else needs root (CAP_CHOWN).
 */
static int may_chown(const struct inode *inode, uint32_t uid, uint32_t gid)
{
	bool owner = caller_fsuid() == inode->i_uid;

	if (caller_is_root())
		return 0;
	if (uid != ID_UNCHANGED && (!owner || uid != inode->i_uid))
		return -EPERM;
	if (gid != ID_UNCHANGED && (!owner || (!caller_in_group(gid) && gid != inode->i_gid)))
		return -EPERM;
	return 0;
}

/*
 * chown_common() asks notify_change() to kill the set-ID bits of anything
 * but a directory (ATTR_KILL_SUID, ATTR_KILL_SGID), whoever the caller and
 * even when no id changes: a set-user-ID program given to another owner
 * must not run as the new one. Set-group-ID without group execute is not
 * "run as the group" but mandatory locking, and stays.
 */
static uint32_t mode_after_chown(uint32_t mode)
{
	if (S_ISDIR(mode))
		return mode;
	mode &= ~(uint32_t)S_ISUID;
	if ((mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
		mode &= ~(uint32_t)S_ISGID;
	return mode;
}

int inode_chown(struct inode *inode, uint32_t uid, uint32_t gid)
{
	int r;

	if (inode->i_mnt && inode->i_mnt->rdonly)
		return -EROFS;                  /* mnt_want_write() comes before the permission */
	spin_lock(&inode->i_lock);
	r = may_chown(inode, uid, gid);
	if (r == 0) {
		if (uid != ID_UNCHANGED)
			inode->i_uid = uid;
		if (gid != ID_UNCHANGED)
			inode->i_gid = gid;
		inode->i_mode = mode_after_chown(inode->i_mode);
	}
	spin_unlock(&inode->i_lock);
	if (r < 0)
		return r;
	inode_touch(inode, false, true);        /* ATTR_CTIME: always, as chown_common() */
	return inode_write_back(inode);
}
