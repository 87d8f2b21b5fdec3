/* <sys/stat.h>: struct stat is Linux i386's struct stat64 (kernel/uapi/stat.h), filled by stat64(). */
#ifndef USER_SYS_STAT_H
#define USER_SYS_STAT_H

#include <sys/types.h>

#include "kernel/uapi/stat.h"

#define stat stat64                     /* one layout: `struct stat` is the 64-bit one */
int stat(const char *path, struct stat64 *st);
int lstat(const char *path, struct stat64 *st);
int fstat(int fd, struct stat64 *st);
int mkdir(const char *path, mode_t mode);
int mknod(const char *path, mode_t mode, dev_t dev);
int mkfifo(const char *path, mode_t mode);
int chmod(const char *path, mode_t mode);
mode_t umask(mode_t mask);

#endif
