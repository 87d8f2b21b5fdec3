/*
 * How Linux encodes an ioctl command number (asm-generic/ioctl.h): the
 * direction of the data, its size, a driver's "type" letter and a number.
 * A driver's commands made this way cannot collide with another's, and the
 * size in the number lets a kernel check the argument. Shared with user space.
 */
#ifndef SMPIX_UAPI_IOCTL_H
#define SMPIX_UAPI_IOCTL_H

#define _IOC_NRBITS   8
#define _IOC_TYPEBITS 8
#define _IOC_SIZEBITS 14
#define _IOC_DIRBITS  2

#define _IOC_NRSHIFT   0
#define _IOC_TYPESHIFT (_IOC_NRSHIFT + _IOC_NRBITS)
#define _IOC_SIZESHIFT (_IOC_TYPESHIFT + _IOC_TYPEBITS)
#define _IOC_DIRSHIFT  (_IOC_SIZESHIFT + _IOC_SIZEBITS)

#define _IOC_NONE  0U
#define _IOC_WRITE 1U           /* user space writes, the kernel reads the argument */
#define _IOC_READ  2U           /* the kernel writes the argument back */

#define _IOC(dir, type, nr, size) \
	(((dir) << _IOC_DIRSHIFT) | ((unsigned)(type) << _IOC_TYPESHIFT) | \
	 ((unsigned)(nr) << _IOC_NRSHIFT) | ((unsigned)(size) << _IOC_SIZESHIFT))

#define _IO(type, nr)         _IOC(_IOC_NONE, (type), (nr), 0)
#define _IOR(type, nr, T)     _IOC(_IOC_READ, (type), (nr), sizeof(T))
#define _IOW(type, nr, T)     _IOC(_IOC_WRITE, (type), (nr), sizeof(T))
#define _IOWR(type, nr, T)    _IOC(_IOC_READ | _IOC_WRITE, (type), (nr), sizeof(T))

#define _IOC_DIR(cmd)  (((cmd) >> _IOC_DIRSHIFT) & ((1U << _IOC_DIRBITS) - 1))
#define _IOC_TYPE(cmd) (((cmd) >> _IOC_TYPESHIFT) & ((1U << _IOC_TYPEBITS) - 1))
#define _IOC_NR(cmd)   (((cmd) >> _IOC_NRSHIFT) & ((1U << _IOC_NRBITS) - 1))
#define _IOC_SIZE(cmd) (((cmd) >> _IOC_SIZESHIFT) & ((1U << _IOC_SIZEBITS) - 1))

#endif
