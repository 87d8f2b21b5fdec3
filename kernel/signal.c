/*
 * Signals with their default actions and nothing more (no handlers yet):
 * SIGCHLD and friends are ignored, every other signal terminates. A
 * terminating signal only marks the target; it dies on its next way back to
 * user mode (proc_return_to_user), or wakes from a killable sleep to get there.
 */
#include "kernel/signal.h"

#include "kernel/atomic.h"
#include "kernel/mm/fault.h"
#include "kernel/mm/mm.h"
#include "kernel/printk.h"
#include "kernel/proc.h"
#include "kernel/sched.h"
#include "kernel/syscalls.h"
#include "kernel/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/signal.h"
#include "kernel/uapi/wait.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

/* Signals whose default action is to do nothing (Linux's SIG_KERNEL_IGNORE_MASK, less SIGCONT etc.). */
static bool sig_default_ignored(int sig)
{
	return sig == SIGCHLD || sig == 23 /* SIGURG */ || sig == 28 /* SIGWINCH */;
}

void signal_send(struct task *t, int sig)
{
	if (sig_default_ignored(sig))
		return;                 /* as Linux: an ignored signal is discarded when sent */
	__atomic_or_fetch(&t->sig_pending, 1u << sig, __ATOMIC_SEQ_CST);
	WRITE_ONCE(t->killed, true);
	/* Out of a killable sleep (wait4, nanosleep); false if it was running: fine. */
	wake_up_process(t);
}

int signal_fatal_pending(struct task *t)
{
	uint32_t p = READ_ONCE(t->sig_pending);

	if (p & (1u << SIGKILL))
		return SIGKILL;
	for (int s = 1; s < NSIG; s++)
		if (p & (1u << s))
			return s;
	return SIGKILL;
}

long sys_kill(int pid, int sig)
{
	struct task *t;
	int r = 0;

	if (sig < 0 || sig >= NSIG)
		return -EINVAL;
	if (pid <= 0)
		return -EINVAL;         /* no process groups yet */
	/* proc_lock keeps t from being reaped and freed while we look at it. */
	spin_lock(&proc_lock);
	t = task_find(pid);
	if (!t)
		r = -ESRCH;
	else if (sig != 0 && !t->exited && t != init_task)
		signal_send(t, sig);
	/*
	 * Otherwise the answer is still 0, as in Linux: a zombie exists until it
	 * is reaped (the signal is dropped), and init gets no signals it has not
	 * asked for.
	 */
	spin_unlock(&proc_lock);
	return r;
}

/* The signal Linux sends for each CPU exception raised in user mode. */
static int fault_signal(int trapno)
{
	switch (trapno) {
	case 0: case 16: case 19:       /* divide error, x87 and SIMD floating point */
		return SIGFPE;
	case 6:                         /* invalid opcode */
		return SIGILL;
	case 1: case 3:                 /* debug, breakpoint */
		return SIGTRAP;
	case 17:                        /* alignment check */
		return SIGBUS;
	default:                        /* page fault, general protection and the rest */
		return SIGSEGV;
	}
}

void signal_user_fault(struct trapframe *tf)
{
	struct task *t = current;
	int sig = fault_signal(tf->trapno);
	uint32_t addr = read_cr2();

	/* A write to a page shared since fork, or the first touch of a heap page: not errors. */
	if (tf->trapno == T_PGFLT && fault_user_address(addr, tf->err & PGFLT_WRITE, true, true))
		return;
	if (tf->trapno == T_PGFLT)
		printk("pid %d (%s): segfault at %x ip %08x\n", t->pid, t->name, addr, tf->eip);
	else
		printk("pid %d (%s): %s ip %08x\n", t->pid, t->name, trap_name(tf->trapno), tf->eip);
	/* Exceptions arrive through interrupt gates; user mode ran with interrupts on. */
	sti();
	proc_exit(W_EXITCODE(0, sig));
}
