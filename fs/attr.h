/*
 * Changing an inode's owner, group and times: who may (Linux 2.6's
 * inode_change_ok() in fs/attr.c) and what else changes with them (its
 * notify_change(): a chown drops the set-user-ID bit).
 *
 * smpix has one user, root (kernel/sys_info.c answers 0 for every id), so
 * the caller is always allowed; the rules are written out all the same,
 * with the caller's ids taken in one place (attr.c's caller_fsuid()), so
 * that they read as Linux's and hold the day smpix has other users. The
 * same test binary checks the non-root rules on Linux (user/tests/attrtest.c).
 */
#ifndef FS_ATTR_H
#define FS_ATTR_H

#include "kernel/types.h"

struct inode;

#define ID_UNCHANGED 0xFFFFFFFFu        /* (uid_t)-1, (gid_t)-1: leave it as it is */

/*
 * chown(2) and its family on a referenced inode: 0 or -errno (EROFS on a
 * read-only mount, EPERM when the caller may not). uid or gid ID_UNCHANGED
 * leaves that one. The change time becomes now; set-user-ID goes from a
 * non-directory, set-group-ID too where it means "run as the group" (with
 * group execute). Reaches the file system's inode (i_op->write_inode).
 */
int inode_chown(struct inode *inode, uint32_t uid, uint32_t gid);
/* May the caller set inode's times to values of its choice (utimes with times)? Its owner, or root. */
bool inode_owner_or_capable(const struct inode *inode);

#endif
