/* procfs: the kernel's state as files under /proc. */
#ifndef FS_PROCFS_H
#define FS_PROCFS_H

/* Mount procfs on /proc (the directory must exist) and take the ioctl= boot word. */
void procfs_init(void);

#endif
