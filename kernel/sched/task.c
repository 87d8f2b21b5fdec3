/* Task structures: allocation, pids, the list of all tasks. */
#include "kernel/sched/task.h"

#include "kernel/process/exec_info.h"
#include "kernel/process/groups.h"
#include "kernel/process/thread.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/panic.h"
#include "kernel/time/timer.h"
#include "kernel/trace/trace.h"
#include "kernel/x86/trap.h"

/* Protects all_tasks and next_pid. */
spinlock_t tasks_lock = SPINLOCK_INIT("tasks");
struct list_head all_tasks = LIST_HEAD_INIT(all_tasks);
static int next_pid = 2;                /* pid 1 is kept for init, as in Unix */
static bool init_pid_taken;
static uint64_t tasks_created;          /* since boot: /proc/stat's processes */
static int last_pid;                    /* the pid given last: /proc/loadavg's last field */

uint64_t task_count_created(void)
{
	return READ_ONCE(tasks_created);
}

int task_last_pid(void)
{
	return READ_ONCE(last_pid);
}

int task_count_live(void)
{
	struct list_head *pos;
	uint32_t flags;
	int n = 0;

	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);

		if (t != cpus[t->cpu].idle)     /* as Linux's nr_threads, which has no idle tasks */
			n++;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return n;
}

void task_set_name(struct task *t, const char *name)
{
	strlcpy(t->name, name, sizeof(t->name));
	if (t->pid)
		trace_comm(t);          /* execve() and prctl() rename; the trace must know */
}

struct task *task_alloc(const char *name)
{
	struct task *t = kzalloc(sizeof(*t));
	physaddr_t stack;
	uint32_t flags;

	if (!t)
		return NULL;
	stack = pmm_alloc_pages(KSTACK_SIZE / PAGE_SIZE);
	if (!stack) {
		kfree(t);
		return NULL;
	}
	t->kstack = P2V(stack);
	fpu_init_state(&t->fpu);
	t->state = TASK_NEW;             /* a kill() cannot wake it half built */
	t->lock_depth = -1;             /* does not hold the BKL */
	t->cpus_allowed = CPU_MASK_ALL;
	t->migrate_to = -1;
	t->start_ns = clock_ns();
	list_init(&t->run_link);
	list_init(&t->sleep_link);
	list_init(&t->children);
	list_init(&t->sibling);
	wait_queue_init(&t->child_exit, "child_exit");
	if (signal_init_task(t) < 0) {
		pmm_free_pages(stack, KSTACK_SIZE / PAGE_SIZE);
		kfree(t);
		return NULL;
	}
	t->syscall_nr = -1;
	t->exit_signal = SIGCHLD;
	wait_queue_init(&t->vfork_done, "vfork_done");
	task_set_name(t, name);

	spin_lock_irqsave(&tasks_lock, flags);
	t->pid = next_pid++;
	tasks_created++;
	last_pid = t->pid;
	spin_unlock_irqrestore(&tasks_lock, flags);
	/* A group of one, its own leader, until clone(CLONE_THREAD) makes it join another. */
	if (thread_group_init(t) < 0) {
		signal_release_task(t);
		pmm_free_pages(stack, KSTACK_SIZE / PAGE_SIZE);
		kfree(t);
		return NULL;
	}
	spin_lock_irqsave(&tasks_lock, flags);
	list_add_tail(&t->all_link, &all_tasks);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return t;
}

void task_free(struct task *t)
{
	uint32_t flags;

	if (t->on_cpu || t->on_rq)
		panic("task_free: task %d (%s) is still scheduled", t->pid, t->name);
	spin_lock_irqsave(&tasks_lock, flags);
	list_del(&t->all_link);
	if (t->pid == 1)
		init_pid_taken = false;
	spin_unlock_irqrestore(&tasks_lock, flags);
	exec_info_put(t->exec_info);
	groups_release(t);
	signal_release_task(t);
	thread_group_release(t);
	pmm_free_pages(V2P(t->kstack), KSTACK_SIZE / PAGE_SIZE);
	kfree(t);
}

/* Give t pid 1: the first process, the parent of orphans, whatever ran before it. */
void task_make_init(struct task *t)
{
	uint32_t flags;

	spin_lock_irqsave(&tasks_lock, flags);
	if (init_pid_taken)
		panic("task_make_init: pid 1 is already taken");
	init_pid_taken = true;
	t->pid = 1;
	t->tgid = 1;
	spin_unlock_irqrestore(&tasks_lock, flags);
}

struct trapframe *task_trapframe(struct task *t)
{
	return (struct trapframe *)((char *)t->kstack + KSTACK_SIZE) - 1;
}

struct task *task_find(int pid)
{
	struct list_head *pos;
	struct task *found = NULL;
	uint32_t flags;

	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		/*
		 * Processes only: a kernel thread may be freed the moment it exits,
		 * a zombie only by its parent's wait4(), under proc_lock.
		 */
		if (t->pid == pid && t->is_process && t->state != TASK_DEAD && t->state != TASK_NEW) {
			found = t;
			break;
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return found;
}

/* The frame switch_stacks pops: edi, esi, ebx, ebp, then the return address. */
struct switch_frame {
	uint32_t edi, esi, ebx, ebp;
	uint32_t eip;
};

void task_start_in_user_mode(struct task *t)
{
	extern char user_first_run[];
	struct switch_frame *f = (struct switch_frame *)task_trapframe(t) - 1;

	t->is_process = true;
	f->edi = f->esi = f->ebx = f->ebp = 0;
	f->eip = (uint32_t)user_first_run;
	t->saved_esp = (uint32_t)f;
}
