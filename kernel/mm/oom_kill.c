/*
 * The OOM killer. smpix overcommits memory as Linux does: brk() hands out
 * address space, and frames come only when pages are first touched (or
 * copied after fork). When a touch finds no free frame, something must give.
 * Linux's answer, and ours: kill the process whose death frees the most
 * (here simply the one with the most pages mapped), say so on the console,
 * and let the faulting task try again once the victim's memory is back.
 */
#include "kernel/mm/oom_kill.h"

#include "kernel/locking/atomic.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/mm.h"
#include "kernel/printk.h"
#include "kernel/process/proc.h"
#include "kernel/signal/signal.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/signal.h"

/* A process that still holds memory and could be chosen. Needs proc_lock (t->mm stays valid). */
static bool holds_memory(const struct task *t)
{
	return t->is_process && t->mm && !t->exited && t->state != TASK_NEW && t->state != TASK_DEAD;
}

/*
 * The process to kill, or NULL if a killed one is still dying (wait for it).
 * Needs proc_lock. init is chosen only when nothing else holds memory.
 */
static struct task *choose_victim(bool *dying)
{
	struct task *victim = NULL;
	struct list_head *pos;
	uint32_t flags;

	*dying = false;
	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);

		if (!holds_memory(t))
			continue;
		if (READ_ONCE(t->killed)) {
			*dying = true;
			break;
		}
		if (t == init_task)
			continue;
		if (!victim || READ_ONCE(t->mm->npages) > READ_ONCE(victim->mm->npages))
			victim = t;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!victim && !*dying && init_task && holds_memory(init_task))
		victim = init_task;
	return *dying ? NULL : victim;
}

void oom_kill(void)
{
	struct task *victim;
	bool dying;

	spin_lock(&proc_lock);
	victim = choose_victim(&dying);
	if (victim) {
		printk("Out of memory: Killed process %d (%s) anon-rss:%ukB\n", victim->pid,
		       victim->name, READ_ONCE(victim->mm->npages) * (PAGE_SIZE / 1024));
		signal_send(victim, SIGKILL);
	}
	spin_unlock(&proc_lock);
}
