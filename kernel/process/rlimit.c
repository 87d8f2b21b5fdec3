/*
 * Resource limits: getrlimit, ugetrlimit, setrlimit, prlimit64. smpix
 * enforces none of them yet, so it reports what it really has (a fixed
 * user stack, and "unlimited" where nothing limits a process) and refuses
 * to change them (-EPERM) rather than pretend a new limit holds.
 */
#include "fs/fdtable.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/proc.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"

#define RLIMIT_STACK   3
#define RLIMIT_NOFILE  7
#define RLIM_NLIMITS  16
#define RLIM_INFINITY   0xFFFFFFFFu             /* ugetrlimit, setrlimit */
#define RLIM64_INFINITY 0xFFFFFFFFFFFFFFFFull   /* prlimit64 */
#define OLD_RLIM_INFINITY 0x7FFFFFFFu           /* the old getrlimit(76) */
#define NOFILE_DEFAULT FD_MAX                   /* what the descriptor table allows (fs/fdtable.h) */

struct rlimit32 {
	uint32_t cur, max;
};

struct rlimit64 {
	uint64_t cur, max;
};

/* The limit on resource r, as a 64-bit value (RLIM64_INFINITY: none). */
static uint64_t limit_of(int r)
{
	switch (r) {
	case RLIMIT_STACK:
		return USER_STACK_SIZE;         /* exec maps this much; it does not grow */
	case RLIMIT_NOFILE:
		return NOFILE_DEFAULT;
	default:
		return RLIM64_INFINITY;
	}
}

static uint32_t to32(uint64_t v, uint32_t infinity)
{
	return v >= infinity ? infinity : (uint32_t)v;
}

static long get32(unsigned r, void *ulim, uint32_t infinity)
{
	struct rlimit32 l;

	if (r >= RLIM_NLIMITS)
		return -EINVAL;
	l.cur = l.max = to32(limit_of(r), infinity);
	return copy_to_user(ulim, &l, sizeof(l));
}

long sys_ugetrlimit(unsigned r, void *ulim)
{
	return get32(r, ulim, RLIM_INFINITY);
}

long sys_getrlimit(unsigned r, void *ulim)
{
	return get32(r, ulim, OLD_RLIM_INFINITY);
}

long sys_setrlimit(unsigned r, const void *ulim)
{
	struct rlimit32 l;

	if (r >= RLIM_NLIMITS)
		return -EINVAL;
	if (copy_from_user(&l, ulim, sizeof(l)) < 0)
		return -EFAULT;
	if (l.cur > l.max)
		return -EINVAL;
	return -EPERM;                  /* fixed limits (see the top of this file) */
}

long sys_prlimit64(int pid, unsigned r, const void *unew, void *uold)
{
	struct rlimit64 l;

	if (r >= RLIM_NLIMITS)
		return -EINVAL;
	if (pid < 0)
		return -EINVAL;
	if (pid) {
		struct task *t;

		spin_lock(&proc_lock);
		t = task_find(pid);
		spin_unlock(&proc_lock);
		if (!t)
			return -ESRCH;
	}
	if (unew) {
		if (copy_from_user(&l, unew, sizeof(l)) < 0)
			return -EFAULT;
		if (l.cur > l.max)
			return -EINVAL;
		return -EPERM;
	}
	if (uold) {
		l.cur = l.max = limit_of(r);
		return copy_to_user(uold, &l, sizeof(l));
	}
	return 0;
}
