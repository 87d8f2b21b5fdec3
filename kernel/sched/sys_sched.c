/* The scheduler's system calls: sched_yield, nanosleep, CPU affinity and getcpu. */
#include "kernel/mm/uaccess.h"
#include "kernel/process/proc.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/unistd.h"

#define NSEC_PER_SEC 1000000000LL

/* struct timespec of the i386 nanosleep call: 32-bit seconds and nanoseconds. */
struct timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

long sys_sched_yield(void)
{
	sched_yield();
	return 0;
}

/* nanosleep is clock_nanosleep on the monotonic clock (kernel/time/sys_time.c), remaining time and all. */
long sys_nanosleep(const void *ureq, void *urem)
{
	return sys_clock_nanosleep(CLOCK_MONOTONIC, 0, ureq, urem);
}

/*
 * The task pid names (0: the caller), with proc_lock held so it cannot be
 * freed; NULL if none. A zombie counts: it exists until it is reaped, and
 * Linux answers for it. A negative pid names nobody (-ESRCH, as in Linux).
 */
static struct task *affinity_target(int pid)
{
	struct task *t;

	if (pid < 0)
		return NULL;
	spin_lock(&proc_lock);
	t = pid == 0 ? current : task_find(pid);
	if (!t) {
		spin_unlock(&proc_lock);
		return NULL;
	}
	return t;
}

/* The mask is Linux's cpu_set_t: a byte buffer, bit n of the whole buffer = CPU n. */
long sys_sched_setaffinity(int pid, unsigned len, const void *umask)
{
	uint32_t mask = 0;
	struct task *t;
	int r;

	/* Linux's order: the mask is read, then the task looked up, then the mask checked. */
	if (copy_from_user(&mask, umask, MIN(len, sizeof(mask))) < 0)
		return -EFAULT;
	t = affinity_target(pid);
	if (!t)
		return -ESRCH;
	mask &= cpu_online_mask();
	if (!mask) {
		spin_unlock(&proc_lock);
		return -EINVAL;
	}
	/* Moving another task takes run-queue locks only; do not hold proc_lock across a switch. */
	if (t == current) {
		spin_unlock(&proc_lock);
		return sched_set_affinity(t, mask);
	}
	r = sched_set_affinity(t, mask);
	spin_unlock(&proc_lock);
	return r;
}

long sys_sched_getaffinity(int pid, unsigned len, void *umask)
{
	struct task *t;
	uint32_t mask;

	/* As Linux: the buffer must hold a whole number of longs covering every CPU. */
	if (len < sizeof(mask) || len % sizeof(uint32_t))
		return -EINVAL;
	t = affinity_target(pid);
	if (!t)
		return -ESRCH;
	mask = t->cpus_allowed & cpu_online_mask();
	spin_unlock(&proc_lock);
	if (copy_to_user(umask, &mask, sizeof(mask)) < 0)
		return -EFAULT;
	return sizeof(mask);            /* bytes written, as the raw Linux syscall returns */
}

/*
 * The CPU the caller runs on (and its NUMA node: always 0), for glibc's
 * sched_getcpu() where rseq is missing. Either pointer may be NULL; the
 * third, a cache from Linux 2.6's vsyscall days, is ignored, as in Linux.
 * The answer may be stale by the time the caller reads it.
 */
long sys_getcpu(unsigned *ucpu, unsigned *unode, void *unused_cache)
{
	uint32_t cpu = (uint32_t)cpu_id();
	int err = 0;

	if (ucpu)
		err |= put_user_u32(ucpu, cpu);
	if (unode)
		err |= put_user_u32(unode, 0);
	return err ? -EFAULT : 0;
}
