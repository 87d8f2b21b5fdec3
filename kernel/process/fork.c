/*
 * fork's relatives: vfork() and clone() with the flags that fork-like use
 * needs, and what every new process inherits besides its memory (which
 * proc_fork() in kernel/process/proc.c copies, copy-on-write).
 *
 * vfork() runs the child in the parent's own address space (mm_get: no
 * copy at all) and puts the parent to sleep until the child calls execve
 * (which gives the child an address space of its own) or exits. So what the
 * child writes, the parent sees, as on Linux; glibc's vfork() and
 * posix_spawn() (clone with CLONE_VM | CLONE_VFORK and a stack of its own)
 * rely on exactly that.
 *
 * smpix has one thread per process, so clone() accepts only what makes a
 * new process: the exit signal (CSIGNAL), CLONE_VFORK (with CLONE_VM: the
 * shared memory of vfork; without: a copy, and the parent waits),
 * CLONE_SETTLS, and the tid-pointer flags glibc's fork() passes. CLONE_VM
 * without CLONE_VFORK would be a thread: -EINVAL. Flags that make a thread or share other state answer -EINVAL,
 * logged once so that a program that needs threads says so.
 */
#include "kernel/process/fork.h"

#include "kernel/locking/atomic.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/groups.h"
#include "kernel/process/pgrp.h"
#include "kernel/printk.h"
#include "kernel/process/proc.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/sched.h"
#include "kernel/x86/tls.h"
#include "kernel/x86/trap.h"

void fork_inherit(struct task *child, struct task *parent)
{
	signal_fork(child, parent);
	spin_lock(&proc_lock);
	pgrp_fork(child, parent);
	spin_unlock(&proc_lock);
	tls_fork(child, parent);
	groups_fork(child, parent);
	child->exit_signal = SIGCHLD;
}

void fork_release_vfork_parent(struct task *t)
{
	assert_spin_held(&proc_lock);
	if (t->vfork_parent) {
		wake_up(&t->vfork_parent->vfork_done);
		t->vfork_parent = NULL;
	}
}

void fork_exec_done(struct task *t)
{
	uint32_t flags;

	signal_exec_reset(t);
	tls_exec_reset(t);
	spin_lock_irqsave(&proc_lock, flags);
	t->did_exec = true;
	fork_release_vfork_parent(t);
	spin_unlock_irqrestore(&proc_lock, flags);
}

static bool vfork_child_done(struct task *c)
{
	return READ_ONCE(c->vfork_parent) == NULL;
}

/*
 * Start child c and, for vfork, sleep until it execs or exits. Killable: a
 * parent killed meanwhile lets go of c first (under proc_lock), so c never
 * wakes a parent that is gone. c cannot be freed while we wait: we are the
 * only one who may reap it.
 */
static int start_child(struct task *c, bool vfork)
{
	struct task *p = current;
	int pid = c->pid;

	if (vfork)
		c->vfork_parent = p;    /* c is not running yet: no lock needed */
	wake_up_new_task(c);
	if (vfork && wait_event_killable(p->vfork_done, vfork_child_done(c)) < 0) {
		spin_lock(&proc_lock);
		c->vfork_parent = NULL;
		spin_unlock(&proc_lock);
	}
	return pid;
}

long sys_vfork(void)
{
	struct task *c = proc_fork(true);

	if (!c)
		return -ENOMEM;
	return start_child(c, true);
}

#define CLONE_OK (CSIGNAL | CLONE_VM | CLONE_VFORK | CLONE_SETTLS | CLONE_PARENT_SETTID | \
		  CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID | CLONE_DETACHED | CLONE_UNTRACED)

/* Flags smpix cannot honour: say so once, by value. */
static long clone_refuse(unsigned long flags)
{
	static bool said;

	if (!said) {
		said = true;
		printk("pid %d (%s): clone flags %lx need threads or shared state, which smpix "
		       "does not have: -EINVAL\n", current->pid, current->name, flags);
	}
	return -EINVAL;
}

/* i386 argument order: flags, new stack, parent's tid pointer, TLS (user_desc), child's tid pointer. */
long sys_clone(unsigned long flags, uint32_t newsp, uint32_t ptid, uint32_t utls, uint32_t ctid)
{
	struct task *c;
	int sig = (int)(flags & CSIGNAL), pid, tls_idx = 0, r;
	uint64_t tls_desc = 0;

	if (flags & ~CLONE_OK)
		return clone_refuse(flags);
	/* Memory shared with a parent that runs on is a thread; with one that sleeps (vfork), a copy does. */
	if ((flags & CLONE_VM) && !(flags & CLONE_VFORK))
		return clone_refuse(flags);
	if (sig > _NSIG)
		return -EINVAL;
	if (flags & CLONE_SETTLS) {
		r = tls_desc_from_user((void *)utls, &tls_idx, &tls_desc);
		if (r < 0)
			return r;
	}
	c = proc_fork(flags & CLONE_VM);       /* with CLONE_VFORK (checked above): shared */
	if (!c)
		return -ENOMEM;
	c->exit_signal = sig;
	if (newsp)
		task_trapframe(c)->esp = newsp;
	if (flags & CLONE_SETTLS)
		c->tls[tls_idx] = tls_desc;
	pid = c->pid;
	if (flags & CLONE_PARENT_SETTID)
		put_user_u32((void *)ptid, (uint32_t)pid);      /* errors ignored, as Linux */
	if (flags & CLONE_CHILD_SETTID)
		mm_copy_in(c->mm, ctid, &pid, sizeof(pid));
	if (flags & CLONE_CHILD_CLEARTID)
		c->clear_child_tid = ctid;
	return start_child(c, flags & CLONE_VFORK);
}
