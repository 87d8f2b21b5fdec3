/*
 * The path walk: from a name like "/usr/../bin//sh" to an inode.
 *
 * A walk starts at the process's root (absolute paths) or at a given
 * directory (relative ones: the current directory, or an *at() call's dirfd).
 * "." stays, ".." goes up (out of a mount's root to the directory it covers
 * first), repeated slashes count as one, a trailing slash demands a directory.
 * Symlinks are followed inside the path always and in the last component with
 * LOOKUP_FOLLOW, at most SYMLINK_MAX times in one walk (then -ELOOP).
 * Each directory is looked up under its i_mutex; the walk holds a reference
 * to the directory it is in, never a lock across two steps.
 */
#ifndef FS_NAMEI_H
#define FS_NAMEI_H

#include "fs/inode.h"
#include "kernel/types.h"

#define SYMLINK_MAX 40          /* Linux's limit on links followed in one walk */

#define LOOKUP_FOLLOW    0x1    /* follow a symlink in the last component */
#define LOOKUP_DIRECTORY 0x2    /* the result must be a directory (-ENOTDIR) */

/* Where a walk starts and what "/" is. Both referenced by the caller for the walk's duration. */
struct walk_start {
	struct inode *root;
	struct inode *cwd;              /* a relative path's starting directory */
};

/*
 * A symlink's target in a fresh PATH_MAX buffer (NUL-terminated; the caller
 * kfree()s it): its length, or -errno. An empty target is -ENOENT, as
 * Linux resolves one; -EINVAL if link is no symlink.
 */
int vfs_read_link(struct inode *link, char **out);
/* Walk path (a kernel string) to a referenced inode in *out: 0 or -errno. */
int path_walk(const struct walk_start *s, const char *path, unsigned flags, struct inode **out);
/*
 * Walk all but the last component: the referenced parent directory in
 * *dir and the last name in *last (pointing into path; trailing slashes
 * are not part of it). "/" and names ending in "." or ".." have no last
 * component to create or remove: -EEXIST for "/", -EINVAL... see namei.c.
 * *trailing_slash says whether the path ended in '/'.
 */
int path_walk_parent(const struct walk_start *s, const char *path, struct inode **dir,
		     struct qstr *last, bool *trailing_slash);
/* Look name up in dir (under dir's i_mutex, crossing mounts both ways): a referenced inode. */
int lookup_one(struct inode *dir, const struct qstr *name, struct inode **out);
/*
 * open(O_CREAT)'s step: find name in dir or, if it is not there, create a
 * regular file of mode, both under dir's i_mutex so two creators cannot
 * both make it. excl (O_EXCL): an existing name is -EEXIST. *created says which.
 */
int lookup_create(struct inode *dir, const struct qstr *name, uint32_t mode, bool excl,
		  struct inode **out, bool *created);
/* The absolute path of directory dir into buf (getcwd): its length with the NUL, or -errno. */
int path_of_dir(struct inode *root, struct inode *dir, char *buf, size_t size);

#endif
