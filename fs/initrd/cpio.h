/* The cpio "newc" archive parser: walks an initrd image in memory (pure C: host-tested). */
#ifndef FS_CPIO_H
#define FS_CPIO_H

#include "kernel/types.h"

/* One archive member, pointing into the archive (nothing is copied). */
struct cpio_entry {
	const char *name;       /* normalised (no leading "./" or "/"), NUL-terminated */
	size_t namelen;         /* without the NUL */
	uint32_t mode;          /* file type and permission bits, as stat's st_mode */
	uint32_t uid, gid, nlink, mtime;
	uint32_t ino, dev_major, dev_minor;     /* where it came from: names of one file share them */
	uint32_t rdev_major, rdev_minor;  /* for device nodes */
	const void *data;       /* file contents, or a symlink's target (not NUL-terminated) */
	size_t size;
};

/*
 * Calls fn for each good entry in order, stopping at "TRAILER!!!". Returns 0, or
 * -EINVAL at the first bad entry with *why set to a message naming what is wrong
 * and the byte offset; entries before it have been passed to fn. If fn returns
 * non-zero, parsing stops and that value is returned. Names are normalised:
 * leading "./" and "/" stripped; "." itself is skipped; a name with a ".."
 * component is rejected (-EINVAL). why may be NULL.
 */
int cpio_parse(const void *buf, size_t len, int (*fn)(const struct cpio_entry *e, void *arg),
	       void *arg, const char **why);

#endif
