/*
 * /dev/tally, the driver of lab 5 (docs/labs/lab5-unserializing-ioctl.md):
 * a board of TALLY_SLOTS counters, driven by ioctls with Linux's _IOC
 * encoding. TALLY_ADD reads a slot, works `spins` loop turns, and writes
 * the slot back plus one, so an update that is not kept whole by some lock
 * is lost. Shared with user space.
 */
#ifndef SMPIX_UAPI_TALLY_H
#define SMPIX_UAPI_TALLY_H

#include "kernel/uapi/ioctl.h"

#define TALLY_SLOTS      8
#define TALLY_MAX_SPINS  1000000u

struct tally_add {
	unsigned int slot;              /* 0 .. TALLY_SLOTS-1 */
	unsigned int spins;             /* busy-loop turns between the read and the write-back */
};

struct tally_stats {
	unsigned long long slot[TALLY_SLOTS];   /* each slot's count: the updates that were kept */
	unsigned long long calls;               /* TALLY_ADD calls made (counted apart, without loss) */
};

#define TALLY_ADD   _IOW('t', 1, struct tally_add)
#define TALLY_READ  _IOR('t', 2, struct tally_stats)
#define TALLY_RESET _IO('t', 3)

#endif
