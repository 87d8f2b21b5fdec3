/*
 * What the ioctl path did, per driver: calls made under the BKL and without
 * it, and the time spent waiting for the BKL on the way in. /proc/ioctl
 * shows them with the policy; writing 0 to it resets them.
 */
#ifndef FS_IOCTL_STATS_H
#define FS_IOCTL_STATS_H

#include "kernel/types.h"

struct file_operations;
struct procbuf;

/* Count one driver ioctl; wait_cycles: TSC cycles spent in lock_kernel() (0 if unlocked). */
void ioctl_stats_account(const struct file_operations *fops, bool locked, uint64_t wait_cycles);
void ioctl_stats_reset(void);
/* /proc/ioctl */
void proc_show_ioctl(struct procbuf *pb, void *arg);
int proc_write_ioctl(const char *text);

#endif
