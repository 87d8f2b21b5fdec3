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

/* The policy now, for showing it. A call takes it from ioctl_call_begin() instead. */
enum ioctl_mode ioctl_mode_get(void);
/*
 * A driver ioctl counts itself in before it reads the policy, which it keeps
 * to, and out when it is done: ioctl_call_begin() stores the policy in *mode
 * and returns the ticket to give ioctl_call_end(). Neither sleeps; each
 * writes only this CPU's counters.
 */
unsigned ioctl_call_begin(enum ioctl_mode *mode);
void ioctl_call_end(unsigned ticket);
/*
 * Set it by name ("auto", "serialized", "unlocked"): 0 or -EINVAL. A barrier:
 * returns only once every call that began under the old policy has ended,
 * so from then on every call keeps to the new one. Sleeps meanwhile.
 */
int ioctl_mode_set(const char *name);
const char *ioctl_mode_name(enum ioctl_mode mode);
/* Take the boot word ioctl= (a bad value is reported and auto kept). Boot CPU, once. */
void ioctl_mode_init(void);

#endif
