/* Kernel threads: tasks that run a kernel function and never enter user mode. */
#include "kernel/sched/kthread.h"

#include "kernel/panic.h"
#include "kernel/process/proc.h"
#include "kernel/sched/sched.h"

struct kthread_start_frame {
	uint32_t edi, esi, ebx, ebp;    /* popped by switch_stacks */
	uint32_t eip;                   /* kthread_first_run (switch.S) */
	uint32_t fn;                    /* popped by kthread_first_run */
	uint32_t arg;                   /* fn's argument */
	uint32_t fake_return;           /* never used: fn returns into kthread_first_run */
};

static struct task *kthread_prepare(int (*fn)(void *), void *arg, const char *name)
{
	extern char kthread_first_run[];
	struct task *t = task_alloc(name);
	struct kthread_start_frame *f;

	if (!t)
		return NULL;
	f = (struct kthread_start_frame *)((char *)t->kstack + KSTACK_SIZE) - 1;
	f->edi = f->esi = f->ebx = f->ebp = 0;
	f->eip = (uint32_t)kthread_first_run;
	f->fn = (uint32_t)fn;
	f->arg = (uint32_t)arg;
	f->fake_return = 0;
	t->saved_esp = (uint32_t)f;
	return t;
}

struct task *kthread_create_on_cpu(int (*fn)(void *), void *arg, const char *name, int cpu)
{
	struct task *t = kthread_prepare(fn, arg, name);

	if (!t)
		return NULL;
	if (cpu >= 0) {
		t->cpus_allowed = 1u << cpu;
		t->cpu = cpu;
	}
	wake_up_new_task(t);
	return t;
}

struct task *kthread_create(int (*fn)(void *), void *arg, const char *name)
{
	return kthread_create_on_cpu(fn, arg, name, -1);
}

void kthread_exit(int code)
{
	struct task *t = current;

	if (t->lock_depth >= 0)
		panic("kthread %s exited holding the BKL (depth %d)", t->name, t->lock_depth);
	proc_orphan_children(t);
	t->exit_status = code;
	task_exit_final();
}
