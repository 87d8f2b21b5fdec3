/* <sys/types.h>: the POSIX type names (declared once, in <unistd.h>). */
#ifndef USER_SYS_TYPES_H
#define USER_SYS_TYPES_H

#include <unistd.h>

typedef unsigned int mode_t;
typedef unsigned int dev_t;            /* as mknod(2) takes it: SMPIX_MKDEV(major, minor), Linux's encoding */

#endif
