/*
 * Supplementary groups: the list getgroups() reads and setgroups() replaces.
 *
 * smpix has one user, root, and checks no permission by group; the list is
 * kept because programs ask for it (busybox's id, glibc's initgroups) and
 * expect back what they set, inherited across fork and exec, as in Linux.
 */
#ifndef KERNEL_PROCESS_GROUPS_H
#define KERNEL_PROCESS_GROUPS_H

#include "kernel/locking/atomic.h"
#include "kernel/types.h"

struct task;

/* Linux's NGROUPS_MAX: setgroups() refuses a longer list with -EINVAL. */
#define NGROUPS_MAX 65536

/*
 * Linux's struct group_info: never changed once made, so fork shares it by
 * reference and setgroups() swaps in a new one. Sorted, as Linux keeps it.
 */
struct group_info {
	atomic_t refs;
	int ngroups;
	uint32_t gid[];
};

/* fork: the child shares the parent's list (a reference). */
void groups_fork(struct task *child, struct task *parent);
/* Is gid one of the calling task's supplementary groups (Linux's groups_search; chown's rule, fs/attr.c)? */
bool groups_contain(uint32_t gid);
/* The task is being freed: drop its reference. */
void groups_release(struct task *t);

#endif
