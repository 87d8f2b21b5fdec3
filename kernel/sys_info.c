/*
 * What a program asks about the system and itself: uname, sysinfo, the user
 * and group ids (one user, root), gettid, prctl's name, and the per-thread
 * pointer glibc registers at start-up (set_tid_address; set_robust_list is in kernel/futex/robust.c).
 */
#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/proc.h"
#include "kernel/sched/loadavg.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/sysinfo.h"
#include "kernel/version.h"

/*
 * glibc refuses to start on a kernel older than the one it was built for
 * (3.2 for Debian's): the release names a Linux version whose system calls
 * smpix answers the Linux way, then says what it really is.
 */
#define UTS_SYSNAME  "smpix"
#define UTS_RELEASE  "4.4.0-smpix"
#define UTS_VERSION  "#1 SMP smpix " SMPIX_VERSION
#define UTS_MACHINE  "i686"
#define UTS_NODENAME "smpix"
#define UTS_LEN 65

struct new_utsname {
	char sysname[UTS_LEN];
	char nodename[UTS_LEN];
	char release[UTS_LEN];
	char version[UTS_LEN];
	char machine[UTS_LEN];
	char domainname[UTS_LEN];
};

long sys_uname(void *ubuf)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, UTS_SYSNAME, UTS_LEN);
	strlcpy(u.nodename, UTS_NODENAME, UTS_LEN);
	strlcpy(u.release, UTS_RELEASE, UTS_LEN);
	strlcpy(u.version, UTS_VERSION, UTS_LEN);
	strlcpy(u.machine, UTS_MACHINE, UTS_LEN);
	strlcpy(u.domainname, "(none)", UTS_LEN);
	return copy_to_user(ubuf, &u, sizeof(u));
}

/* struct sysinfo is shared with user space (kernel/uapi/sysinfo.h): 64 bytes on i386. */
_Static_assert(sizeof(struct sysinfo) == 64, "struct sysinfo must match Linux i386");

static unsigned count_processes(void)
{
	struct list_head *pos;
	unsigned n = 0;
	uint32_t flags;

	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks)
		n++;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return n;
}

long sys_sysinfo(void *ubuf)
{
	struct sysinfo si;
	uint32_t avg[3];

	memset(&si, 0, sizeof(si));
	loadavg_get(avg);
	for (int i = 0; i < 3; i++)
		si.loads[i] = avg[i] << (16 - FSHIFT);  /* sysinfo's loads have 16 bits of fraction */
	si.uptime = (int32_t)(clock_ns() / 1000000000ULL);
	si.totalram = pmm_usable_count();
	si.freeram = pmm_free_count();
	si.procs = (uint16_t)count_processes();
	si.mem_unit = PAGE_SIZE;
	return copy_to_user(ubuf, &si, sizeof(si));
}

/* One user: root. Every id is 0, in the 16-bit calls and the 32-bit ones alike. */
long sys_getuid(void) { return 0; }
long sys_geteuid(void) { return 0; }
long sys_getgid(void) { return 0; }
long sys_getegid(void) { return 0; }

/* The thread's own id (getpid() is its group's). */
long sys_gettid(void)
{
	return current->pid;
}

/* Where a thread library wants its tid cleared and futex-woken at exit (kernel/process/thread.c). */
long sys_set_tid_address(uint32_t tidptr)
{
	current->clear_child_tid = tidptr;
	return current->pid;
}

/* set_robust_list and get_robust_list are in kernel/futex/robust.c. */

#define PR_SET_NAME 15
#define PR_GET_NAME 16

/* prctl: the two options that name a process (as ps shows it); any other is -EINVAL, as Linux. */
long sys_prctl(int option, uint32_t arg2)
{
	char name[TASK_NAME_LEN];
	int r;

	switch (option) {
	case PR_SET_NAME:
		r = strncpy_from_user(name, (const char *)arg2, sizeof(name));
		if (r == -ENAMETOOLONG) {
			/* Linux keeps the first 15 bytes of a longer name. */
			if (copy_from_user(name, (const void *)arg2, sizeof(name) - 1) < 0)
				return -EFAULT;
			name[sizeof(name) - 1] = '\0';
		} else if (r < 0) {
			return r;
		}
		task_set_name(current, name);
		return 0;
	case PR_GET_NAME:
		memset(name, 0, sizeof(name));
		strlcpy(name, current->name, sizeof(name));
		return copy_to_user((void *)arg2, name, sizeof(name));
	default:
		return -EINVAL;
	}
}
