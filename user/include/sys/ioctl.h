/* <sys/ioctl.h>: ioctl() and the generic and tty command numbers, Linux's. */
#ifndef USER_SYS_IOCTL_H
#define USER_SYS_IOCTL_H

#include "kernel/uapi/ioctls.h"
#include "kernel/uapi/termios.h"

int ioctl(int fd, unsigned long cmd, ...);

#endif
