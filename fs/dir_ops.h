/* Helpers shared by the calls that change directories (fs/dir_ops.c, fs/rename.c). */
#ifndef FS_DIR_OPS_H
#define FS_DIR_OPS_H

#include "fs/inode.h"
#include "kernel/types.h"

/* A user path split into its parent directory (referenced) and last name (in *path). */
struct parent {
	char *path;
	struct inode *dir;
	struct qstr last;
	bool slash;                     /* the path ended in '/' */
};

/* Copy upath from user space and walk to its parent (relative to dirfd): 0 or -errno. */
int parent_get(int dirfd, const char *upath, struct parent *p);
void parent_put(struct parent *p);
/* "." or ".." or "" (the path was "/"): a name that cannot be made, removed or moved. */
bool last_is_special(const struct qstr *q);
/* Look the last name up in p->dir, whose i_mutex the caller holds (no mount crossing). */
int lookup_locked(struct parent *p, struct inode **out);
/* Is the directory empty but for "." and ".."? Needs its i_mutex. */
bool dir_is_empty(struct inode *dir);
/* Is this directory a mount's root, or covered by one? Then it cannot be removed or moved. */
bool is_mount_busy(struct inode *inode);

#endif
