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
#include "kernel/mm/kheap.h"
#include "kernel/mm/mm.h"
#include "kernel/printk.h"
#include "kernel/process/pgrp.h"
#include "kernel/process/proc.h"
#include "kernel/process/thread.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/unistd.h"
#include "kernel/uapi/wait.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/sigframe.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define UNBLOCKABLE (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))
/* Raised by the faulting instruction itself: delivered before the others, as Linux does. */
#define SYNCHRONOUS (SIGBIT(SIGSEGV) | SIGBIT(SIGBUS) | SIGBIT(SIGILL) | SIGBIT(SIGTRAP) | \
		     SIGBIT(SIGFPE) | SIGBIT(SIGSYS))
/* Default action "ignore". SIGCONT's work is done when it is sent; delivered, it is ignored. */
#define DEFAULT_IGNORE (SIGBIT(SIGCHLD) | SIGBIT(SIGURG) | SIGBIT(SIGWINCH) | SIGBIT(SIGCONT))
/*
 * Default action "stop the process until SIGCONT" (below, "stopping").
 * SIGSTOP cannot be caught; the terminal's three (^Z's SIGTSTP, and
 * SIGTTIN, SIGTTOU for a background job at the tty) can.
 */
#define STOP_SIGNALS (SIGBIT(SIGSTOP) | SIGBIT(SIGTSTP) | SIGBIT(SIGTTIN) | SIGBIT(SIGTTOU))

int signal_init_task(struct task *t)
{
	struct sighand *sh = kzalloc(sizeof(*sh));

	if (!sh)
		return -ENOMEM;
	atomic_set(&sh->refs, 1);
	spin_lock_init(&sh->lock, "sighand");
	memset(&t->sig, 0, sizeof(t->sig));
	t->sig.altstack_flags = SS_DISABLE;
	t->sighand = sh;
	return 0;
}

static void sighand_put(struct sighand *sh)
{
	if (sh && atomic_dec_and_test(&sh->refs))
		kfree(sh);
}

void signal_release_task(struct task *t)
{
	sighand_put(t->sighand);
	t->sighand = NULL;
}

/*
 * t's sighand, locked. Only its own task changes t->sighand (execve's
 * unshare), so the pointer read may be stale only if t is in exec right
 * now: then it is read again under the old lock, which exec takes to
 * switch. The old sighand lives on while another task shares it.
 */
struct sighand *signal_lock(struct task *t, uint32_t *flags)
{
	for (;;) {
		struct sighand *sh = READ_ONCE(t->sighand);

		spin_lock_irqsave(&sh->lock, *flags);
		if (READ_ONCE(t->sighand) == sh)
			return sh;
		spin_unlock_irqrestore(&sh->lock, *flags);
	}
}

void signal_unlock(struct sighand *sh, uint32_t flags)
{
	spin_unlock_irqrestore(&sh->lock, flags);
}

void signal_fork(struct task *child, struct task *parent, bool share)
{
	struct sighand *sh;
	uint32_t flags;

	if (share) {
		sighand_put(child->sighand);
		atomic_inc(&parent->sighand->refs);
		child->sighand = parent->sighand;
	}
	sh = signal_lock(parent, &flags);
	if (!share)
		memcpy(child->sighand->action, sh->action, sizeof(sh->action));
	child->sig.blocked = parent->sig.blocked;
	child->sig.altstack_sp = parent->sig.altstack_sp;
	child->sig.altstack_size = parent->sig.altstack_size;
	child->sig.altstack_flags = parent->sig.altstack_flags;
	/* A thread made during a stop of its group is not one the stop waits for (group_stop). */
	child->sig.stop_gen = parent->group->stop_gen;
	signal_unlock(sh, flags);
}

int signal_unshare(struct task *t)
{
	struct sighand *old = t->sighand, *own;
	uint32_t flags;

	if (atomic_read(&old->refs) == 1)
		return 0;
	own = kzalloc(sizeof(*own));
	if (!own)
		return -ENOMEM;
	atomic_set(&own->refs, 1);
	spin_lock_init(&own->lock, "sighand");
	/* Switched under the old lock: a sender that read the old pointer sees the change (signal_lock). */
	spin_lock_irqsave(&old->lock, flags);
	memcpy(own->action, old->action, sizeof(own->action));
	WRITE_ONCE(t->sighand, own);
	spin_unlock_irqrestore(&old->lock, flags);
	sighand_put(old);
	return 0;
}

void signal_exec_reset(struct task *t)
{
	struct sighand *sh;
	uint32_t flags;

	sh = signal_lock(t, &flags);
	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &sh->action[i];

		/* A handler's address means nothing in the new program; SIG_IGN is kept (nohup). */
		if (ka->sa_handler != SIG_IGN)
			memset(ka, 0, sizeof(*ka));
	}
	t->sig.altstack_sp = t->sig.altstack_size = 0;
	t->sig.altstack_flags = SS_DISABLE;
	signal_unlock(sh, flags);
}

/* ---- sending --------------------------------------------------------------- */

static bool default_ignored(int sig)
{
	return sig < SIGRTMIN && (DEFAULT_IGNORE & SIGBIT(sig));
}

static bool is_stop_signal(int sig)
{
	return sig < SIGRTMIN && (STOP_SIGNALS & SIGBIT(sig));
}

/*
 * Would sig be thrown away on arrival? Not if blocked: it waits, and the action may change. Lock held.
 * init takes only the signals it has a handler for (Linux's SIGNAL_UNKILLABLE): a default action
 * must not end the process everything else hangs from. kill() already refuses them
 * (kernel/signal/syscalls.c); this is for the kernel's own: an orphaned group's SIGHUP
 * (kernel/process/pgrp.c), SIGPIPE, the interval timers. SIGKILL still goes (the OOM killer's);
 * a fault in init kills it by another path (die_of()).
 */
static bool discarded_on_arrival(struct task *t, int sig)
{
	const struct k_sigaction *ka = &t->sighand->action[sig - 1];

	if (t->sig.blocked & SIGBIT(sig))
		return false;
	if (ka->sa_handler == SIG_DFL && sig != SIGKILL && init_task && t->group == init_task->group)
		return true;
	return ka->sa_handler == SIG_IGN || (ka->sa_handler == SIG_DFL && default_ignored(sig));
}

/* Will sig kill t's process when t takes it? (Then no thread need finish what it sleeps on.) Lock held. */
static bool kills_on_delivery(struct task *t, int sig)
{
	if (sig == SIGKILL)
		return true;
	return !is_stop_signal(sig) && !(t->sig.blocked & SIGBIT(sig)) &&
	       t->sighand->action[sig - 1].sa_handler == SIG_DFL && !default_ignored(sig);
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

/* Mark t as dying of sig: it exits at its next return to user mode; killable sleeps end. Lock held. */
static void kill_one(struct task *t, int sig)
{
	t->sig.pending |= SIGBIT(SIGKILL);
	if (!t->killed) {
		t->sig.fatal = sig;
		WRITE_ONCE(t->killed, true);
	}
	signal_wake(t);
}

void signal_kill_threads(struct task *t, struct task *skip)
{
	struct task *th;

	assert_spin_held(&t->sighand->lock);
	for_each_thread(t->group, th)
		if (th != skip)
			kill_one(th, SIGKILL);
}

/* A fatal signal for the whole process (Linux's complete_signal): every thread dies of sig. Lock held. */
static void group_kill(struct task *t, int sig)
{
	struct thread_group *g = t->group;
	struct task *th;

	g->group_exit = true;
	g->group_exit_code = W_EXITCODE(0, sig);
	g->stopped = false;
	for_each_thread(g, th)
		kill_one(th, sig);
}

/* Take the signals in set (stops, or SIGCONT) off the pending sets of t's whole group. Lock held. */
static void flush_from_group(struct task *t, k_sigset_t set)
{
	struct thread_group *g = t->group;
	struct task *th;

	g->shared_pending &= ~set;
	for_each_thread(g, th)
		th->sig.pending &= ~set;
}

/*
 * SIGCONT: every thread of a stopped group goes on. If the stop was
 * complete (every thread had stopped), the parent is to hear of it:
 * wait4(WCONTINUED) and SIGCHLD with CLD_CONTINUED, which the first
 * thread to run sends (take_cont_notice), since we hold a lock here.
 * A stop still under way is called off without a word, as Linux does.
 */
static void group_continue(struct thread_group *g)
{
	struct task *th;

	if (!g->stopped)
		return;
	if (g->stop_count == 0) {
		g->report_cont = true;
		g->notify_cont = true;
	}
	g->stopped = false;
	g->report_stop = false;
	for_each_thread(g, th)
		wake_up_process(th);
}

/*
 * What sig does the moment it is sent (Linux's prepare_signal): SIGCONT
 * continues a stopped process and cancels the stop signals pending; a
 * stop signal cancels a pending SIGCONT. Returns whether sig is to be
 * queued at all. Lock held.
 */
static bool prepare_signal(struct task *t, int sig)
{
	struct thread_group *g = t->group;

	if (g->group_exit)
		return false;           /* the process is dying anyway */
	if (is_stop_signal(sig))
		flush_from_group(t, SIGBIT(SIGCONT));
	if (sig == SIGCONT) {
		flush_from_group(t, STOP_SIGNALS);
		group_continue(g);
	}
	return !discarded_on_arrival(t, sig);
}

/* Can th take sig now? */
static bool wants_signal(struct task *th, int sig)
{
	if (th->exiting || th->killed)
		return false;
	return sig == SIGKILL || !(th->sig.blocked & SIGBIT(sig));
}

/*
 * sig is pending for t (to_thread) or for its whole group: find a thread
 * that can take it, kill the group if it is fatal, else wake that thread
 * (Linux's complete_signal). Lock held.
 */
static void complete_signal(struct task *t, int sig, bool to_thread)
{
	struct task *target = NULL, *th;

	if (wants_signal(t, sig)) {
		target = t;
	} else if (!to_thread) {
		for_each_thread(t->group, th) {
			if (wants_signal(th, sig)) {
				target = th;
				break;
			}
		}
	}
	if (!target)
		return;                 /* blocked everywhere: it waits until a thread unblocks it */
	if (kills_on_delivery(target, sig) && !t->group->group_exit) {
		group_kill(t, sig);
		return;
	}
	signal_wake(target);
}

static void send_locked(struct task *t, int sig, const struct ksiginfo *info, bool to_thread)
{
	struct thread_group *g = t->group;
	k_sigset_t *pending = to_thread ? &t->sig.pending : &g->shared_pending;
	struct ksiginfo *infos = to_thread ? t->sig.info : g->shared_info;

	if (!prepare_signal(t, sig))
		return;
	/* Classic signals do not queue: a second one while the first is pending is the same one. */
	if (!(*pending & SIGBIT(sig))) {
		*pending |= SIGBIT(sig);
		infos[sig - 1] = *info;
	}
	complete_signal(t, sig, to_thread);
}

static void send(struct task *t, int sig, const struct ksiginfo *info, bool to_thread)
{
	struct sighand *sh;
	uint32_t flags;

	if (sig < 1 || sig > _NSIG)
		return;
	sh = signal_lock(t, &flags);
	send_locked(t, sig, info, to_thread);
	signal_unlock(sh, flags);
}

void signal_send_info(struct task *t, int sig, const struct ksiginfo *info)
{
	send(t, sig, info, false);
}

void signal_send_thread(struct task *t, int sig, const struct ksiginfo *info)
{
	send(t, sig, info, true);
}

void signal_force_kill(struct task *t, int sig)
{
	struct sighand *sh;
	uint32_t flags;

	sh = signal_lock(t, &flags);
	if (!t->group->group_exit)
		group_kill(t, sig);
	signal_unlock(sh, flags);
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

bool signal_ignored_or_blocked(struct task *t, int sig)
{
	struct sighand *sh;
	uint32_t flags;
	bool yes;

	sh = signal_lock(t, &flags);
	yes = (t->sig.blocked & SIGBIT(sig)) || sh->action[sig - 1].sa_handler == SIG_IGN;
	signal_unlock(sh, flags);
	return yes;
}

bool signal_no_zombies(struct task *parent)
{
	const struct k_sigaction *ka;
	struct sighand *sh;
	uint32_t flags;
	bool yes;

	sh = signal_lock(parent, &flags);
	ka = &sh->action[SIGCHLD - 1];
	yes = ka->sa_handler == SIG_IGN || (ka->sa_flags & SA_NOCLDWAIT);
	signal_unlock(sh, flags);
	return yes;
}

/* Signals t could take now: its own and its process's, less those it blocks. Lock held. */
static k_sigset_t deliverable(struct task *t)
{
	return (t->sig.pending | t->group->shared_pending) & ~t->sig.blocked;
}

bool signal_pending(struct task *t)
{
	struct sighand *sh;
	uint32_t flags;
	bool yes;

	if (!t->group)
		return false;           /* an idle task: never signalled */
	if (READ_ONCE(t->killed) || READ_ONCE(t->group->stopped))
		return true;
	sh = signal_lock(t, &flags);
	yes = deliverable(t) != 0;
	signal_unlock(sh, flags);
	return yes;
}

/*
 * No signal pending at all, read without the lock (both halves of a set
 * may be read apart: a signal that arrives in between is seen next time).
 */
static bool nothing_pending_hint(struct task *t)
{
	const volatile uint32_t *own = (const volatile uint32_t *)&t->sig.pending;
	const volatile uint32_t *shared = (const volatile uint32_t *)&t->group->shared_pending;

	return !READ_ONCE(t->killed) && !READ_ONCE(t->group->stopped) && own[0] == 0 && own[1] == 0 &&
	       shared[0] == 0 && shared[1] == 0;
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
	struct sighand *sh;
	uint32_t flags;

	sh = signal_lock(t, &flags);
	t->sig.blocked = mask & ~UNBLOCKABLE;
	signal_unlock(sh, flags);
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

/*
 * Take the next signal to deliver off t's pending sets: 0 if none. Its own
 * (tkill, faults) before its process's, as Linux does.
 */
static int dequeue_signal(struct task *t, struct ksiginfo *info, struct k_sigaction *ka)
{
	struct sigstate *s = &t->sig;
	struct thread_group *g = t->group;
	struct sighand *sh;
	k_sigset_t ready;
	uint32_t flags;
	int sig = 0;

	sh = signal_lock(t, &flags);
	ready = deliverable(t);
	if (ready & SIGBIT(SIGKILL))
		ready = SIGBIT(SIGKILL);
	else if (ready & SYNCHRONOUS)
		ready &= SYNCHRONOUS;
	if (ready) {
		sig = lowest_signal(ready);
		if (s->pending & SIGBIT(sig)) {
			s->pending &= ~SIGBIT(sig);
			*info = s->info[sig - 1];
		} else {
			g->shared_pending &= ~SIGBIT(sig);
			*info = g->shared_info[sig - 1];
		}
		*ka = sh->action[sig - 1];
		if (ka->sa_handler > SIG_IGN && (ka->sa_flags & SA_RESETHAND))
			memset(&sh->action[sig - 1], 0, sizeof(sh->action[0]));
	}
	signal_unlock(sh, flags);
	return sig;
}

static bool is_restart_code(uint32_t eax)
{
	return eax == (uint32_t)-ERESTARTSYS || eax == (uint32_t)-ERESTARTNOINTR ||
	       eax == (uint32_t)-ERESTARTNOHAND || eax == (uint32_t)-ERESTART_RESTARTBLOCK;
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
	if (again && eax == (uint32_t)-ERESTART_RESTARTBLOCK) {
		tf->eax = __NR_restart_syscall;         /* what is left of it (t->sig.restart) */
		tf->eip -= 2;
	} else if (again) {
		tf->eax = (uint32_t)t->syscall_nr;
		tf->eip -= 2;
	} else {
		tf->eax = (uint32_t)-EINTR;
	}
}

/* A fatal signal ends the whole process, whichever thread takes it (Linux's do_group_exit). */
static void __noreturn die_of(int sig)
{
	sti();
	thread_group_exit(W_EXITCODE(0, sig));
}

/* ---- stopping ------------------------------------------------------------------ */

/*
 * A stop signal (SIGSTOP, or SIGTSTP, SIGTTIN, SIGTTOU left at SIG_DFL)
 * taken by one thread stops the whole process, as Linux 2.6's
 * do_signal_stop() does: the group is marked stopped with a count of the
 * threads that must still stop, and each thread is sent through its return
 * path, where stop_here() counts it and puts it to sleep until SIGCONT
 * (group_continue) or a kill. The thread that brings the count to 0 makes
 * the stop complete: only then do wait4(WUNTRACED) and the parent's SIGCHLD
 * (CLD_STOPPED) hear of it, so a shell that is told "stopped" finds every
 * thread stopped. Stops are numbered from one counter for all groups, so a
 * thread counts itself once per stop, and a thread made during a stop (its
 * number copied by signal_fork) is not counted at all.
 */
static atomic_t stop_generations;

/* Does the parent want SIGCHLD for stops and continues (no SA_NOCLDSTOP)? */
static bool wants_cldstop(struct task *parent)
{
	struct sighand *sh;
	uint32_t flags;
	bool yes;

	sh = signal_lock(parent, &flags);
	yes = !(sh->action[SIGCHLD - 1].sa_flags & SA_NOCLDSTOP);
	signal_unlock(sh, flags);
	return yes;
}

/*
 * Tell t's parent its process stopped or continued (why: CLD_STOPPED or
 * CLD_CONTINUED, with sig): SIGCHLD unless it set SA_NOCLDSTOP, and a wait4
 * woken either way (Linux's do_notify_parent_cldstop). No locks held.
 */
static void notify_parent_cldstop(struct task *t, int why, int sig)
{
	struct ksiginfo info = { .code = why, .status = sig, .pid = t->tgid };
	struct task *parent;

	spin_lock(&proc_lock);
	parent = t->group_leader->parent;
	if (parent) {
		if (wants_cldstop(parent))
			signal_send_info(parent, SIGCHLD, &info);
		wake_up(&parent->child_exit);
	}
	spin_unlock(&proc_lock);
}

/* Start a stop of t's group by sig (unless one is on, or the group is dying or in execve). */
static void group_stop(struct task *t, int sig)
{
	struct thread_group *g = t->group;
	struct sighand *sh;
	struct task *th;
	uint32_t flags;

	sh = signal_lock(t, &flags);
	if (!g->group_exit && !g->exec_task && !g->stopped) {
		g->stopped = true;
		g->stop_signal = sig;
		g->stop_gen = (unsigned)atomic_add_return(&stop_generations, 1);
		g->stop_count = 0;
		g->report_stop = g->report_cont = g->notify_cont = false;
		for_each_thread(g, th) {
			if (th->exiting)
				continue;       /* on its way out: it will never stop */
			g->stop_count++;
			if (th != t)
				signal_wake(th);
		}
	}
	signal_unlock(sh, flags);
}

/* t stops for this stop: count it once; true if it was the last to. Lock held. */
static bool count_stopped(struct task *t)
{
	struct thread_group *g = t->group;

	if (!g->stopped || t->sig.stop_gen == g->stop_gen)
		return false;
	t->sig.stop_gen = g->stop_gen;
	if (g->stop_count == 0 || --g->stop_count > 0)
		return false;
	g->report_stop = true;
	return true;
}

/* The same, taking the lock; the stop's signal in *sig. */
static bool count_stopped_locked(struct task *t, int *sig)
{
	struct sighand *sh;
	uint32_t flags;
	bool last;

	sh = signal_lock(t, &flags);
	last = count_stopped(t);
	*sig = t->group->stop_signal;
	signal_unlock(sh, flags);
	return last;
}

/*
 * Sleep while the process is stopped. The state is set before the test:
 * SIGCONT's wake-up is never lost. job_stopped is set before the stop can
 * be complete, so a parent told of it sees this thread as stopped (T).
 */
static void stop_here(struct task *t)
{
	int sig;

	for (;;) {
		t->state = TASK_SLEEPING;
		smp_mb();
		if (!READ_ONCE(t->group->stopped) || READ_ONCE(t->killed))
			break;
		WRITE_ONCE(t->sig.job_stopped, true);
		if (count_stopped_locked(t, &sig)) {
			t->state = TASK_RUNNING;
			notify_parent_cldstop(t, CLD_STOPPED, sig);
			continue;
		}
		schedule();
	}
	WRITE_ONCE(t->sig.job_stopped, false);
	t->state = TASK_RUNNING;
}

/* Is the parent's CLD_CONTINUED still to be sent? Then this thread sends it (only one does). */
static bool take_cont_notice(struct task *t)
{
	struct sighand *sh;
	uint32_t flags;
	bool yes;

	if (!READ_ONCE(t->group->notify_cont))
		return false;
	sh = signal_lock(t, &flags);
	yes = t->group->notify_cont;
	t->group->notify_cont = false;
	signal_unlock(sh, flags);
	return yes;
}

void signal_exiting(struct task *t)
{
	struct sighand *sh;
	uint32_t flags;
	bool last;
	int sig;

	sh = signal_lock(t, &flags);
	t->exiting = true;
	/* A stop waiting for this thread waits no more: it may be complete now (unless it was the last). */
	last = count_stopped(t) && !thread_group_empty(t);
	sig = t->group->stop_signal;
	signal_unlock(sh, flags);
	if (last)
		notify_parent_cldstop(t, CLD_STOPPED, sig);
}

bool signal_wait_report(struct task *c, int options, bool take, int *status)
{
	struct thread_group *g = c->group;
	struct sighand *sh;
	uint32_t flags;
	bool found = false;

	assert_spin_held(&proc_lock);
	sh = signal_lock(c, &flags);
	if ((options & WUNTRACED) && g->report_stop) {
		found = true;
		*status = W_STOPCODE(g->stop_signal);
		if (take)
			g->report_stop = false;
	} else if ((options & WCONTINUED) && g->report_cont) {
		found = true;
		*status = 0xffff;
		if (take)
			g->report_cont = false;
	}
	signal_unlock(sh, flags);
	return found;
}

/* Run sig's handler: push its frame, then block what the handler asks for. */
static void run_handler(struct trapframe *tf, struct task *t, int sig, const struct ksiginfo *info,
			const struct k_sigaction *ka)
{
	struct sigstate *s = &t->sig;
	struct sighand *sh;
	k_sigset_t to_restore;
	uint32_t flags;

	syscall_restart(tf, t, ka);
	sh = signal_lock(t, &flags);
	/* After sigsuspend, the handler returns to the mask from before the call. */
	to_restore = s->restore_blocked ? s->saved_blocked : s->blocked;
	signal_unlock(sh, flags);
	if (sigframe_setup(tf, sig, ka, info, to_restore) < 0) {
		/* No room for the frame (a bad stack pointer): as Linux, the process dies of SIGSEGV. */
		printk("pid %d (%s): cannot push the frame for signal %d at sp %08x; killing it\n",
		       t->pid, t->name, sig, tf->esp);
		die_of(SIGSEGV);
	}
	sh = signal_lock(t, &flags);
	s->restore_blocked = false;
	s->blocked |= ka->sa_mask;
	if (!(ka->sa_flags & SA_NODEFER))
		s->blocked |= SIGBIT(sig);
	s->blocked &= ~UNBLOCKABLE;
	signal_unlock(sh, flags);
}

void signal_return_to_user(struct trapframe *tf)
{
	struct task *t = current;
	struct ksiginfo info;
	struct k_sigaction ka;
	struct sighand *sh;
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
	for (;;) {
		if (READ_ONCE(t->group->stopped))
			stop_here(t);
		if (READ_ONCE(t->killed))
			die_of(signal_fatal_pending(t));
		if (take_cont_notice(t))
			notify_parent_cldstop(t, CLD_CONTINUED, SIGCONT);
		sig = dequeue_signal(t, &info, &ka);
		if (!sig)
			break;
		if (ka.sa_handler == SIG_IGN)
			continue;
		if (ka.sa_handler == SIG_DFL) {
			if (default_ignored(sig))
				continue;
			if (is_stop_signal(sig)) {
				/* ^Z in a job nobody could continue would stop it for ever: Linux drops it. */
				if (sig != SIGSTOP && pgrp_orphaned(t->pgid))
					continue;
				group_stop(t, sig);
				continue;
			}
			die_of(sig);
		}
		run_handler(tf, t, sig, &info, &ka);
		goto out;       /* one frame at a time; sigreturn comes back here for the next */
	}
	syscall_restart(tf, t, NULL);
	sh = signal_lock(t, &flags);
	if (t->sig.restore_blocked) {
		t->sig.blocked = t->sig.saved_blocked;
		t->sig.restore_blocked = false;
	}
	signal_unlock(sh, flags);
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
		if (fault_is_sigbus(info->addr)) {
			info->code = BUS_ADRERR;        /* a file mapping past the end of its file */
			return SIGBUS;
		}
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
	struct sighand *sh;
	uint32_t flags;
	bool yes;

	sh = signal_lock(t, &flags);
	yes = sh->action[sig - 1].sa_handler > SIG_IGN && !(t->sig.blocked & SIGBIT(sig));
	signal_unlock(sh, flags);
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
		/* To this thread alone, on the way out of this trap (trap_exit): the handler runs next. */
		signal_send_thread(t, sig, &info);
		return;
	}
	if (tf->trapno == T_PGFLT)
		printk("pid %d (%s): segfault at %x ip %08x\n", t->pid, t->name, info.addr, tf->eip);
	else
		printk("pid %d (%s): %s ip %08x\n", t->pid, t->name, trap_name(tf->trapno), tf->eip);
	die_of(sig);
}
