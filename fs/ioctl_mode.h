/*
 * The ioctl policy: which ioctl() calls run under the BKL.
 *   auto        the driver's flag decides (FOP_UNLOCKED_IOCTL: without the BKL);
 *   serialized  every ioctl under the BKL, as in Linux 2.6.6;
 *   unlocked    none, to show what breaks when a driver relied on it.
 * Set by the boot word ioctl= and at run time by /proc/sys/kernel/ioctl_mode.
 */
#ifndef FS_IOCTL_MODE_H
#define FS_IOCTL_MODE_H

#include "kernel/types.h"

enum ioctl_mode {
	IOCTL_MODE_AUTO,
	IOCTL_MODE_SERIALIZED,
	IOCTL_MODE_UNLOCKED,
};

/* The policy now. A call reads it once and keeps to it, so a switch mid-call is safe. */
enum ioctl_mode ioctl_mode_get(void);
/* Set it by name ("auto", "serialized", "unlocked"): 0 or -EINVAL. */
int ioctl_mode_set(const char *name);
const char *ioctl_mode_name(enum ioctl_mode mode);
/* Take the boot word ioctl= (a bad value is reported and auto kept). Boot CPU, once. */
void ioctl_mode_init(void);

#endif
