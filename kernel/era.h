/* The eras: one boot word, era=, that sets the BKL's knobs as a Linux version had them. See kernel/era.c. */
#ifndef KERNEL_ERA_H
#define KERNEL_ERA_H

#include "kernel/types.h"

/* In the order Linux went through them. */
enum era {
	ERA_2_0,        /* every system call under the BKL */
	ERA_2_2,        /* read, write, lseek and kin under the BKL; block queues under io_request_lock */
	ERA_2_4,        /* the block queues under io_request_lock; read and write without the BKL */
	ERA_2_6_6,      /* the 2004 kernel: the BKL at its sites, every ioctl under it */
	ERA_2_6_8,      /* the same, with the BKL a sleeping semaphore (CONFIG_PREEMPT_BKL) */
	ERA_2_6_11,     /* ioctl by the driver's flag (unlocked_ioctl): smpix's default */
	ERA_2_6_39,     /* no BKL at all: only in the kernel built with make ERA=2.6.39 */
	NR_ERAS
};

/* Take the boot word era= (before syscall_init() and procfs_init(), which ask for it). Boot CPU, once. */
void era_init(void);
/*
 * The era this kernel booted in; it never changes while it runs. Inline: the
 * BKL asks on every lock_kernel() whether it is a semaphore (era=2.6.8).
 */
extern enum era era_booted;
static inline enum era era_now(void)
{
	return era_booted;
}
/* "2.6.8"; and what the era means here, in a line. */
const char *era_name(enum era e);
const char *era_summary(enum era e);
/* The era called name ("2.6.8"), or -EINVAL. */
int era_by_name(const char *name);

#endif
