/* What a process is running, for /proc/PID/cmdline and exe: its program's path and arguments. */
#include "kernel/process/exec_info.h"

#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/task.h"

struct exec_info *exec_info_new(const char *path, const char *args, int argc)
{
	struct exec_info *ei;
	size_t len = 0;

	for (int i = 0; i < argc && len < EXEC_INFO_ARGS_MAX; i++)
		len += strlen(args + len) + 1;
	len = MIN(len, (size_t)EXEC_INFO_ARGS_MAX);
	ei = kmalloc(sizeof(*ei) + len);
	if (!ei)
		return NULL;
	atomic_set(&ei->refs, 1);
	strlcpy(ei->exe, path, sizeof(ei->exe));
	memcpy(ei->args, args, len);
	ei->args_len = len;
	return ei;
}

struct exec_info *exec_info_get(struct exec_info *ei)
{
	if (ei)
		atomic_inc(&ei->refs);
	return ei;
}

void exec_info_put(struct exec_info *ei)
{
	if (ei && atomic_dec_and_test(&ei->refs))
		kfree(ei);
}

/*
 * /proc reads t->exec_info with tasks_lock held; swapping the pointer under
 * the same lock means a reader never sees a record being freed.
 */
void exec_info_install(struct task *t, struct exec_info *ei)
{
	struct exec_info *old;
	uint32_t flags;

	spin_lock_irqsave(&tasks_lock, flags);
	old = t->exec_info;
	t->exec_info = ei;
	spin_unlock_irqrestore(&tasks_lock, flags);
	exec_info_put(old);
}
