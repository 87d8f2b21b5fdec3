/*
 * Access times: when a read or a readdir changes a file's atime (Linux 2.6's
 * touch_atime() and relatime_need_update(), fs/inode.c), per the mount's
 * flags. The new time is kept in memory and the inode marked I_DIRTY: the
 * file system writes it later (a read must not write the disk).
 */
#ifndef FS_ATIME_H
#define FS_ATIME_H

struct file;

/* f was read (or its directory listed): update its inode's atime if the rules say so. */
void file_accessed(struct file *f);

#endif
