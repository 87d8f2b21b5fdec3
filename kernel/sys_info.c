/* sysinfo(): uptime, memory and task counts, in Linux's i386 struct sysinfo. */
#include "kernel/lib/string.h"
#include "kernel/list.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscalls.h"
#include "kernel/task.h"
#include "kernel/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/sysinfo.h"

_Static_assert(sizeof(struct sysinfo) == 64, "struct sysinfo must match Linux i386");

static unsigned count_tasks(void)
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

long sys_sysinfo(void *uinfo)
{
	struct sysinfo info;

	memset(&info, 0, sizeof(info));
	info.uptime = (int32_t)(clock_ns() / 1000000000ULL);   /* __udivdi3 from kernel/lib/div64.c */
	info.totalram = pmm_usable_count();
	info.freeram = pmm_free_count();
	info.procs = (uint16_t)count_tasks();
	info.mem_unit = PAGE_SIZE;
	return copy_to_user(uinfo, &info, sizeof(info));
}
