/* Error numbers with Linux's values (asm-generic/errno-base.h, errno.h); syscalls return -EXXX. */
#ifndef KERNEL_UAPI_ERRNO_H
#define KERNEL_UAPI_ERRNO_H

#define EPERM    1      /* operation not permitted */
#define ENOENT   2      /* no such file or directory */
#define ESRCH    3      /* no such process */
#define EINTR    4      /* interrupted system call */
#define EIO      5
#define ENXIO    6
#define E2BIG    7      /* argument list too long */
#define ENOEXEC  8      /* exec format error */
#define EBADF    9      /* bad file number */
#define ECHILD  10      /* no child processes */
#define EAGAIN  11
#define ENOMEM  12      /* out of memory */
#define EACCES  13
#define EFAULT  14      /* bad address */
#define EBUSY   16
#define EEXIST  17
#define ENOTDIR 20
#define EISDIR  21
#define EINVAL  22      /* invalid argument */
#define ENOTTY  25
#define ENOSPC  28
#define ERANGE  34
#define ENAMETOOLONG 36
#define ENOSYS  38      /* function not implemented */

#endif
