/* <fcntl.h>: open() and fcntl() over Linux i386's flags (kernel/uapi/fcntl.h). */
#ifndef USER_FCNTL_H
#define USER_FCNTL_H

#include "kernel/uapi/fcntl.h"

int open(const char *path, int flags, ...);
int openat(int dirfd, const char *path, int flags, ...);
int creat(const char *path, unsigned mode);
int fcntl(int fd, int cmd, ...);

#endif
