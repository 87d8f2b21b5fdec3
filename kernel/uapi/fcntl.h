/* open() flags, *at() flags and fcntl() commands: Linux i386's (asm-generic/fcntl.h). Shared with user space. */
#ifndef SMPIX_UAPI_FCNTL_H
#define SMPIX_UAPI_FCNTL_H

#define O_ACCMODE   00000003
#define O_RDONLY    00000000
#define O_WRONLY    00000001
#define O_RDWR      00000002
#define O_CREAT     00000100
#define O_EXCL      00000200
#define O_NOCTTY    00000400
#define O_TRUNC     00001000
#define O_APPEND    00002000
#define O_NONBLOCK  00004000
#define O_DSYNC     00010000
#define O_SYNC      04010000    /* Linux's __O_SYNC | O_DSYNC: every O_SYNC open is also O_DSYNC */
#define O_DIRECT    00040000
#define O_LARGEFILE 00100000
#define O_DIRECTORY 00200000
#define O_NOFOLLOW  00400000
#define O_NOATIME   01000000
#define O_CLOEXEC   02000000
#define O_PATH      010000000

#define AT_FDCWD            -100
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EACCESS          0x200
#define AT_REMOVEDIR        0x200
#define AT_SYMLINK_FOLLOW   0x400
#define AT_EMPTY_PATH       0x1000

#define F_DUPFD         0
#define F_GETFD         1
#define F_SETFD         2
#define F_GETFL         3
#define F_SETFL         4
#define F_DUPFD_CLOEXEC 1030
#define FD_CLOEXEC      1

/* access() modes */
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4

/* flock() operations (Linux's asm-generic/fcntl.h) */
#define LOCK_SH 1       /* shared */
#define LOCK_EX 2       /* exclusive */
#define LOCK_NB 4       /* or'd in: fail with EWOULDBLOCK instead of waiting */
#define LOCK_UN 8       /* unlock */

/* lseek() */
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

#endif
