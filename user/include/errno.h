/* <errno.h>: the error numbers are Linux's (kernel/uapi/errno.h); errno is set by every failing wrapper. */
#ifndef USER_ERRNO_H
#define USER_ERRNO_H

#include "kernel/uapi/errno.h"

extern int errno;

#endif
