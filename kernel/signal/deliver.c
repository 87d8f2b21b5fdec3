/*
 * Signals: how one is sent, and what happens on the way back to user mode.
 *
 * Sending only records: the bit in t->sig.pending, the info beside it, and a
 * wakeup if t sleeps interruptibly (or an IPI if it runs on another CPU, so
 * it enters the kernel soon). Everything else happens in the target itself,
 * in signal_return_to_user(), just before it would return to user mode:
 * an interrupted system call is restarted or fails with -EINTR, then one
 * signal is delivered: ignored, default action (most kill the process), or
 * a handler, which runs on a frame that kernel/x86/sigframe.c pushes on the
 * user stack. The handler's return lands in sigreturn, which puts the old
 * registers and mask back. docs/signals.md tells the story with pictures.
 */
#include "kernel/signal/signal.h"

#include "kernel/locking/atomic.h"
#include "kernel/errno.h"
#include "kernel/lib/string.h"
#include "kernel/ipi.h"
#include "kernel/mm/fault.h"
#include "kernel/mm/mm.h"
#include "kernel/printk.h"
#include "kernel/process/proc.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/wait.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/sigframe.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define UNBLOCKABLE (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))
/* Raised by the faulting instruction itself: delivered before the others, as Linux does. */
#define SYNCHRONOUS (SIGBIT(SIGSEGV) | SIGBIT(SIGBUS) | SIGBIT(SIGILL) | SIGBIT(SIGTRAP) | \
		     SIGBIT(SIGFPE) | SIGBIT(SIGSYS))
/*
 * Default action "ignore". Stop signals (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU)
 * would stop the process in Linux; without job control yet, they are ignored
 * too, and SIGCONT (continue) has nothing to do.
 */
#define DEFAULT_IGNORE (SIGBIT(SIGCHLD) | SIGBIT(SIGURG) | SIGBIT(SIGWINCH) | SIGBIT(SIGCONT) | \
			SIGBIT(SIGSTOP) | SIGBIT(SIGTSTP) | SIGBIT(SIGTTIN) | SIGBIT(SIGTTOU))

void signal_init_task(struct task *t)
{
	memset(&t->sig, 0, sizeof(t->sig));
	spin_lock_init(&t->sig.lock, "signal");
	t->sig.altstack_flags = SS_DISABLE;
}

void signal_fork(struct task *child, struct task *parent)
{
	uint32_t flags;

	signal_init_task(child);
	spin_lock_irqsave(&parent->sig.lock, flags);
	memcpy(child->sig.action, parent->sig.action, sizeof(child->sig.action));
	child->sig.blocked = parent->sig.blocked;
	child->sig.altstack_sp = parent->sig.altstack_sp;
	child->sig.altstack_size = parent->sig.altstack_size;
	child->sig.altstack_flags = parent->sig.altstack_flags;
	spin_unlock_irqrestore(&parent->sig.lock, flags);
}

void signal_exec_reset(struct task *t)
{
	uint32_t flags;

	spin_lock_irqsave(&t->sig.lock, flags);
	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &t->sig.action[i];

		/* A handler's address means nothing in the new program; SIG_IGN is kept (nohup). */
		if (ka->sa_handler != SIG_IGN)
			memset(ka, 0, sizeof(*ka));
	}
	t->sig.altstack_sp = t->sig.altstack_size = 0;
	t->sig.altstack_flags = SS_DISABLE;
	spin_unlock_irqrestore(&t->sig.lock, flags);
}

/* ---- sending --------------------------------------------------------------- */

static bool default_ignored(int sig)
{
	return sig < SIGRTMIN && (DEFAULT_IGNORE & SIGBIT(sig));
}

/* Would sig be thrown away on arrival? Not if blocked: it waits, and the action may change. Lock held. */
static bool discarded_on_arrival(struct task *t, int sig)
{
	const struct k_sigaction *ka = &t->sig.action[sig - 1];

	if (t->sig.blocked & SIGBIT(sig))
		return false;
	return ka->sa_handler == SIG_IGN || (ka->sa_handler == SIG_DFL && default_ignored(sig));
}

/* Will sig kill t when delivered? (Then t need not finish what it sleeps on.) Lock held. */
static bool kills_on_delivery(struct task *t, int sig)
{
	if (sig == SIGKILL)
		return true;
	return !(t->sig.blocked & SIGBIT(sig)) && t->sig.action[sig - 1].sa_handler == SIG_DFL &&
	       !default_ignored(sig);
}

/* Get t into the kernel soon: out of an interruptible sleep, or off its CPU's user code. */
static void signal_wake(struct task *t)
{
	if (wake_up_process(t))
		return;
	/* Running on another CPU: an IPI makes it pass through the return path now, not at the next tick. */
	if (t != current && READ_ONCE(t->on_cpu))
		smp_send_reschedule(READ_ONCE(t->cpu));
}

void signal_send_info(struct task *t, int sig, const struct ksiginfo *info)
{
	struct sigstate *s = &t->sig;
	bool wake = false;
	uint32_t flags;

	if (sig < 1 || sig > _NSIG)
		return;
	spin_lock_irqsave(&s->lock, flags);
	if (discarded_on_arrival(t, sig)) {
		spin_unlock_irqrestore(&s->lock, flags);
		return;
	}
	/* Classic signals do not queue: a second one while the first is pending is the same one. */
	if (!(s->pending & SIGBIT(sig))) {
		s->pending |= SIGBIT(sig);
		s->info[sig - 1] = *info;
	}
	if (kills_on_delivery(t, sig) && !t->killed) {
		s->fatal = sig;
		WRITE_ONCE(t->killed, true);    /* ends killable sleeps too (wait_event_killable) */
	}
	wake = t->killed || !(s->blocked & SIGBIT(sig));
	spin_unlock_irqrestore(&s->lock, flags);
	if (wake)
		signal_wake(t);
}

void signal_force_kill(struct task *t, int sig)
{
	uint32_t flags;

	spin_lock_irqsave(&t->sig.lock, flags);
	if (!t->killed) {
		t->sig.fatal = sig;
		WRITE_ONCE(t->killed, true);
	}
	spin_unlock_irqrestore(&t->sig.lock, flags);
	signal_wake(t);
}

void signal_send(struct task *t, int sig)
{
	struct ksiginfo info = { .code = SI_KERNEL };

	signal_send_info(t, sig, &info);
}

void signal_notify_parent(struct task *child, struct task *parent, int wait_status)
{
	struct ksiginfo info = { .pid = child->pid };

	if (!child->exit_signal)
		return;                 /* clone() without an exit signal: the parent is not told */
	if (WIFSIGNALED(wait_status)) {
		info.code = CLD_KILLED;
		info.status = WTERMSIG(wait_status);
	} else {
		info.code = CLD_EXITED;
		info.status = WEXITSTATUS(wait_status);
	}
	signal_send_info(parent, child->exit_signal, &info);
}

bool signal_no_zombies(struct task *parent)
{
	const struct k_sigaction *ka = &parent->sig.action[SIGCHLD - 1];
	uint32_t flags;
	bool yes;

	spin_lock_irqsave(&parent->sig.lock, flags);
	yes = ka->sa_handler == SIG_IGN || (ka->sa_flags & SA_NOCLDWAIT);
	spin_unlock_irqrestore(&parent->sig.lock, flags);
	return yes;
}

bool signal_pending(struct task *t)
{
	uint32_t flags;
	bool yes;

	if (READ_ONCE(t->killed))
		return true;
	spin_lock_irqsave(&t->sig.lock, flags);
	yes = (t->sig.pending & ~t->sig.blocked) != 0;
	spin_unlock_irqrestore(&t->sig.lock, flags);
	return yes;
}

/*
 * No signal pending at all, read without the lock (both halves of the set
 * may be read apart: a signal that arrives in between is seen next time).
 */
static bool nothing_pending_hint(struct task *t)
{
	const volatile uint32_t *half = (const volatile uint32_t *)&t->sig.pending;

	return !READ_ONCE(t->killed) && half[0] == 0 && half[1] == 0;
}

bool task_signal_pending(void)
{
	return signal_pending(current);
}

bool signal_fatal(struct task *t)
{
	return READ_ONCE(t->killed);
}

int signal_fatal_pending(struct task *t)
{
	return t->sig.fatal ? t->sig.fatal : SIGKILL;
}

void signal_set_blocked(struct task *t, k_sigset_t mask)
{
	uint32_t flags;

	spin_lock_irqsave(&t->sig.lock, flags);
	t->sig.blocked = mask & ~UNBLOCKABLE;
	spin_unlock_irqrestore(&t->sig.lock, flags);
}

bool signal_on_altstack(struct task *t, uint32_t sp)
{
	/* Stacks grow down: sp just above the base is on it, sp at base + size is its empty top. */
	return !(t->sig.altstack_flags & SS_DISABLE) && sp > t->sig.altstack_sp &&
	       sp - t->sig.altstack_sp <= t->sig.altstack_size;
}

void signal_restore_altstack(struct task *t, const k_stack_t *ss)
{
	uint32_t f = (uint32_t)ss->ss_flags & ~SS_AUTODISARM;

	if (signal_on_altstack(t, task_trapframe(t)->esp))
		return;         /* it cannot change while we run on it */
	if (f == SS_DISABLE) {
		t->sig.altstack_flags = SS_DISABLE;
		t->sig.altstack_sp = t->sig.altstack_size = 0;
	} else if ((f == 0 || f == SS_ONSTACK) && ss->ss_size >= MINSIGSTKSZ) {
		t->sig.altstack_sp = ss->ss_sp;
		t->sig.altstack_size = ss->ss_size;
		t->sig.altstack_flags = (uint32_t)ss->ss_flags & SS_AUTODISARM;
	}
}

/* ---- delivery ----------------------------------------------------------------- */

/* The lowest signal in a non-empty set (two 32-bit halves: no libgcc for a 64-bit ctz). */
static int lowest_signal(k_sigset_t set)
{
	uint32_t lo = (uint32_t)set;

	return lo ? __builtin_ctz(lo) + 1 : __builtin_ctz((uint32_t)(set >> 32)) + 33;
}

/* Take the next signal to deliver off t's pending set: 0 if none. */
static int dequeue_signal(struct task *t, struct ksiginfo *info, struct k_sigaction *ka)
{
	struct sigstate *s = &t->sig;
	k_sigset_t ready;
	uint32_t flags;
	int sig = 0;

	spin_lock_irqsave(&s->lock, flags);
	ready = s->pending & ~s->blocked;
	if (ready & SIGBIT(SIGKILL))
		ready = SIGBIT(SIGKILL);
	else if (ready & SYNCHRONOUS)
		ready &= SYNCHRONOUS;
	if (ready) {
		sig = lowest_signal(ready);
		s->pending &= ~SIGBIT(sig);
		*info = s->info[sig - 1];
		*ka = s->action[sig - 1];
		if (ka->sa_handler > SIG_IGN && (ka->sa_flags & SA_RESETHAND))
			memset(&s->action[sig - 1], 0, sizeof(s->action[0]));
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return sig;
}

static bool is_restart_code(uint32_t eax)
{
	return eax == (uint32_t)-ERESTARTSYS || eax == (uint32_t)-ERESTARTNOINTR ||
	       eax == (uint32_t)-ERESTARTNOHAND;
}

/*
 * The system call that just returned asked to be restarted if a signal cut
 * it short. With a handler about to run (ka): -EINTR, unless SA_RESTART
 * allows -ERESTARTSYS to go again. Without one: always again. Going again
 * means backing eip up over `int $0x80` (2 bytes) with the call number back
 * in eax: the user code executes the same call once more.
 */
static void syscall_restart(struct trapframe *tf, struct task *t, const struct k_sigaction *ka)
{
	uint32_t eax = tf->eax;
	bool again;

	if (tf->trapno != T_SYSCALL || t->syscall_nr < 0 || !is_restart_code(eax))
		return;
	if (!ka)
		again = true;
	else if (eax == (uint32_t)-ERESTARTNOINTR)
		again = true;
	else if (eax == (uint32_t)-ERESTARTSYS)
		again = (ka->sa_flags & SA_RESTART) != 0;
	else
		again = false;
	if (again) {
		tf->eax = (uint32_t)t->syscall_nr;
		tf->eip -= 2;
	} else {
		tf->eax = (uint32_t)-EINTR;
	}
}

static void __noreturn die_of(int sig)
{
	sti();
	proc_exit(W_EXITCODE(0, sig));
}

/* Run sig's handler: push its frame, then block what the handler asks for. */
static void run_handler(struct trapframe *tf, struct task *t, int sig, const struct ksiginfo *info,
			const struct k_sigaction *ka)
{
	struct sigstate *s = &t->sig;
	k_sigset_t to_restore;
	uint32_t flags;

	syscall_restart(tf, t, ka);
	spin_lock_irqsave(&s->lock, flags);
	/* After sigsuspend, the handler returns to the mask from before the call. */
	to_restore = s->restore_blocked ? s->saved_blocked : s->blocked;
	spin_unlock_irqrestore(&s->lock, flags);
	if (sigframe_setup(tf, sig, ka, info, to_restore) < 0) {
		/* No room for the frame (a bad stack pointer): as Linux, the process dies of SIGSEGV. */
		printk("pid %d (%s): cannot push the frame for signal %d at sp %08x; killing it\n",
		       t->pid, t->name, sig, tf->esp);
		die_of(SIGSEGV);
	}
	spin_lock_irqsave(&s->lock, flags);
	s->restore_blocked = false;
	s->blocked |= ka->sa_mask;
	if (!(ka->sa_flags & SA_NODEFER))
		s->blocked |= SIGBIT(sig);
	s->blocked &= ~UNBLOCKABLE;
	spin_unlock_irqrestore(&s->lock, flags);
}

void signal_return_to_user(struct trapframe *tf)
{
	struct task *t = current;
	struct ksiginfo info;
	struct k_sigaction ka;
	uint32_t flags;
	int sig;

	if (READ_ONCE(t->killed))
		die_of(signal_fatal_pending(t));
	/*
	 * The common case, on every return to user mode: nothing to restart,
	 * deliver or put back. Looked at without the lock, so a null system
	 * call pays no locked instruction here: a signal posted meanwhile, on
	 * another CPU, comes with a reschedule IPI (signal_wake), and
	 * the way out of that interrupt finds it.
	 */
	if (!nothing_pending_hint(t) && signal_pending(t))
		goto slow;
	if (!t->sig.restore_blocked &&
	    !(tf->trapno == T_SYSCALL && t->syscall_nr >= 0 && is_restart_code(tf->eax))) {
		t->syscall_nr = -1;
		return;
	}
slow:
	/* Interrupts on while we work: the frame goes to user memory, which may fault (COW). */
	sti();
	while ((sig = dequeue_signal(t, &info, &ka)) != 0) {
		if (ka.sa_handler == SIG_IGN)
			continue;
		if (ka.sa_handler == SIG_DFL) {
			if (default_ignored(sig))
				continue;
			die_of(sig);
		}
		run_handler(tf, t, sig, &info, &ka);
		goto out;       /* one frame at a time; sigreturn comes back here for the next */
	}
	syscall_restart(tf, t, NULL);
	spin_lock_irqsave(&t->sig.lock, flags);
	if (t->sig.restore_blocked) {
		t->sig.blocked = t->sig.saved_blocked;
		t->sig.restore_blocked = false;
	}
	spin_unlock_irqrestore(&t->sig.lock, flags);
out:
	t->syscall_nr = -1;
	cli();
}

/* ---- faults --------------------------------------------------------------------- */

/* The signal Linux sends for each CPU exception raised in user mode, and its si_code. */
static int fault_signal(const struct trapframe *tf, struct ksiginfo *info)
{
	info->addr = tf->eip;
	switch (tf->trapno) {
	case 0:                         /* divide error */
		info->code = FPE_INTDIV;
		return SIGFPE;
	case 16:                        /* x87 floating point: which exception, from the status word */
		info->code = fpu_x87_fault_code();
		return SIGFPE;
	case 19:                        /* SIMD floating point: which exception, from MXCSR */
		info->code = fpu_simd_fault_code();
		return SIGFPE;
	case 6:                         /* invalid opcode */
		info->code = ILL_ILLOPN;
		return SIGILL;
	case 1: case 3:                 /* debug, breakpoint */
		info->code = SI_KERNEL;
		return SIGTRAP;
	case 17:                        /* alignment check */
		info->code = SI_KERNEL;
		return SIGBUS;
	case T_PGFLT:
		info->code = (tf->err & 1) ? SEGV_ACCERR : SEGV_MAPERR;
		info->addr = read_cr2();
		return SIGSEGV;
	default:                        /* general protection and the rest */
		info->code = SI_KERNEL;
		info->addr = 0;
		return SIGSEGV;
	}
}

/* Will the fault's signal reach a handler? Not if it is blocked or has none: then it kills. */
static bool fault_has_handler(struct task *t, int sig)
{
	uint32_t flags;
	bool yes;

	spin_lock_irqsave(&t->sig.lock, flags);
	yes = t->sig.action[sig - 1].sa_handler > SIG_IGN && !(t->sig.blocked & SIGBIT(sig));
	spin_unlock_irqrestore(&t->sig.lock, flags);
	return yes;
}

void signal_user_fault(struct trapframe *tf)
{
	struct task *t = current;
	struct ksiginfo info = { 0 };
	int sig;

	/* A write to a page shared since fork, or the first touch of a heap page: not errors. */
	if (tf->trapno == T_PGFLT && fault_user_address(read_cr2(), tf->err & PGFLT_WRITE, true, true))
		return;
	sig = fault_signal(tf, &info);
	if (fault_has_handler(t, sig)) {
		/* Delivered on the way out of this trap (trap_exit): the handler runs next. */
		signal_send_info(t, sig, &info);
		return;
	}
	if (tf->trapno == T_PGFLT)
		printk("pid %d (%s): segfault at %x ip %08x\n", t->pid, t->name, info.addr, tf->eip);
	else
		printk("pid %d (%s): %s ip %08x\n", t->pid, t->name, trap_name(tf->trapno), tf->eip);
	die_of(sig);
}
