/* Generic ioctl commands the VFS answers itself (asm-generic/ioctls.h). Shared with user space. */
#ifndef SMPIX_UAPI_IOCTLS_H
#define SMPIX_UAPI_IOCTLS_H

#define FIONREAD  0x541B        /* int: bytes that a read() would return now */
#define FIONBIO   0x5421        /* int: non-zero sets O_NONBLOCK, zero clears it */
#define FIONCLEX  0x5450        /* clear close-on-exec */
#define FIOCLEX   0x5451        /* set close-on-exec */

#endif
