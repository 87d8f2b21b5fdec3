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

#define UTIME_NOW  ((1l << 30) - 1l)    /* a tv_nsec that means "now" */
#define UTIME_OMIT ((1l << 30) - 2l)    /* a tv_nsec that means "leave it" */
struct timespec;
/* Set access and modification times (times[0], times[1]; NULL: both now); whole seconds are kept. */
int utimensat(int dirfd, const char *path, const struct timespec *times, int flags);
int futimens(int fd, const struct timespec *times);

#endif
