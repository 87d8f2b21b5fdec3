/*
 * fork's relatives: vfork() and clone(), which makes processes and threads,
 * and what every new task inherits besides its memory (which proc_fork()
 * in kernel/process/proc.c copies, copy-on-write, or shares).
 *
 * vfork() runs the child in the parent's own address space (mm_get: no
 * copy at all) and puts the parent to sleep until the child calls execve
 * (which gives the child an address space of its own) or exits. So what the
 * child writes, the parent sees, as on Linux; glibc's vfork() and
 * posix_spawn() (clone with CLONE_VM | CLONE_VFORK and a stack of its own)
 * rely on exactly that.
 *
 * clone() takes Linux's flags for threads: CLONE_VM, CLONE_FS, CLONE_FILES
 * and CLONE_SIGHAND share those; CLONE_THREAD puts the child in our thread
 * group (kernel/process/thread.c); CLONE_SYSVSEM is accepted (no System V
 * semaphores to undo); the tid flags write the new thread id, and
 * CLONE_CHILD_CLEARTID has it cleared and futex-woken at exit (pthread_join).
 * The combinations Linux refuses get its -EINVAL; flags for what smpix does
 * not have (namespaces, ptrace, pidfds) answer -EINVAL too, logged once.
 */
#include "kernel/process/fork.h"

#include "kernel/locking/atomic.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/groups.h"
#include "kernel/process/pgrp.h"
#include "kernel/printk.h"
#include "kernel/process/proc.h"
#include "kernel/process/thread.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/sched.h"
#include "kernel/x86/tls.h"
#include "kernel/x86/trap.h"

void fork_inherit(struct task *child, struct task *parent, bool share_sighand)
{
	signal_fork(child, parent, share_sighand);
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
		WRITE_ONCE(t->vfork_parent->vfork_waiting, false);
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

/* Read on the parent's side: c itself may be freed once it has let go (a thread, or a CLONE_PARENT child). */
static bool vfork_child_done(struct task *p)
{
	return !READ_ONCE(p->vfork_waiting);
}

/*
 * Start child c and, for vfork, sleep until it execs or exits. Killable: a
 * parent killed meanwhile lets go of c first (under proc_lock), so c never
 * wakes a parent that is gone. While p->vfork_waiting is set (under
 * proc_lock) c has not exited, so it is still there to be let go of.
 */
static int start_child(struct task *c, bool vfork)
{
	struct task *p = current;
	int pid = c->pid;

	if (vfork) {
		p->vfork_waiting = true;
		c->vfork_parent = p;    /* c is not running yet: no lock needed */
	}
	wake_up_new_task(c);
	if (vfork && wait_event_killable(p->vfork_done, vfork_child_done(p)) < 0) {
		spin_lock(&proc_lock);
		if (p->vfork_waiting) {
			p->vfork_waiting = false;
			c->vfork_parent = NULL;
		}
		spin_unlock(&proc_lock);
	}
	return pid;
}

long sys_vfork(void)
{
	struct task *c = proc_fork(CLONE_VM);

	if (!c)
		return -ENOMEM;
	return start_child(c, true);
}

#define CLONE_OK (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_VFORK | \
		  CLONE_PARENT | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | \
		  CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID | CLONE_DETACHED | CLONE_UNTRACED)

/* Flags smpix cannot honour: say so once, by value. */
static long clone_refuse(unsigned long flags)
{
	static bool said;

	if (!said) {
		said = true;
		printk("pid %d (%s): clone flags %lx ask for what smpix does not have: -EINVAL\n",
		       current->pid, current->name, flags);
	}
	return -EINVAL;
}

/* The combinations Linux's copy_process() refuses, with its errno. */
static long clone_check(unsigned long flags)
{
	/* A thread shares the handlers its signals run; shared handlers need the memory they live in. */
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	/* init's siblings would have no one to reap them. */
	if ((flags & CLONE_PARENT) && current->group->leader == init_task)
		return -EINVAL;
	if (flags & ~CLONE_OK)
		return clone_refuse(flags);
	if ((int)(flags & CSIGNAL) > _NSIG)
		return -EINVAL;
	return 0;
}

/*
 * What the new task is told at birth: its TLS, its stack, and its id
 * written where the tid flags ask (errors ignored, as Linux).
 */
static void clone_setup(struct task *c, unsigned long flags, uint32_t newsp, uint32_t ptid,
			uint32_t ctid, int tls_idx, uint64_t tls_desc)
{
	int tid = c->pid;

	if (newsp)
		task_trapframe(c)->esp = newsp;
	if (flags & CLONE_SETTLS)
		c->tls[tls_idx] = tls_desc;
	if (flags & CLONE_PARENT_SETTID)
		put_user_u32((void *)ptid, (uint32_t)tid);
	if (flags & CLONE_CHILD_SETTID)
		mm_copy_in(c->mm, ctid, &tid, sizeof(tid));
	if (flags & CLONE_CHILD_CLEARTID)
		c->clear_child_tid = ctid;
}

/* i386 argument order: flags, new stack, parent's tid pointer, TLS (user_desc), child's tid pointer. */
long sys_clone(unsigned long flags, uint32_t newsp, uint32_t ptid, uint32_t utls, uint32_t ctid)
{
	struct task *c, *p = current;
	int tls_idx = 0, r;
	uint64_t tls_desc = 0;

	r = clone_check(flags);
	if (r < 0)
		return r;
	if (flags & CLONE_SETTLS) {
		r = tls_desc_from_user((void *)utls, &tls_idx, &tls_desc);
		if (r < 0)
			return r;
	}
	c = proc_fork(flags);
	if (!c)
		return -ENOMEM;
	if (flags & CLONE_THREAD) {
		r = thread_join_group(c);
		if (r < 0) {
			proc_fork_abort(c);
			return r;
		}
		c->exit_signal = 0;             /* a thread tells nobody of its exit: its group does */
	} else if (flags & CLONE_PARENT) {
		c->exit_signal = p->group_leader->exit_signal;  /* a sibling: the parent expects what it knows */
	} else {
		c->exit_signal = (int)(flags & CSIGNAL);
	}
	clone_setup(c, flags, newsp, ptid, ctid, tls_idx, tls_desc);
	return start_child(c, flags & CLONE_VFORK);
}
