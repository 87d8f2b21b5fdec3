/*
 * The signal system calls: kill and its relatives, sigaction, the blocked
 * mask, waiting for a signal (pause, sigsuspend) and the alternate stack.
 * Each has its Linux i386 arguments and errors; the old calls (sigaction,
 * sigprocmask, sigpending, sigsuspend) take 32-bit masks of signals 1..32.
 */
#include "kernel/locking/atomic.h"
#include "kernel/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/pgrp.h"
#include "kernel/process/proc.h"
#include "kernel/process/thread.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/trap.h"

#define UNBLOCKABLE (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))

static bool sig_valid(int sig)
{
	return sig >= 1 && sig <= _NSIG;
}

/* ---- kill, tkill, tgkill ------------------------------------------------------ */

/*
 * Send sig to one process from user space. init (pid 1) only gets signals it
 * has a handler for, as Linux protects it (SIGKILL included). sig 0 sends
 * nothing: it only asks whether the process exists. Needs proc_lock.
 */
int signal_send_from_user(struct task *t, int sig, int code, bool to_thread)
{
	struct ksiginfo info = { .code = code, .pid = current->tgid };

	assert_spin_held(&proc_lock);
	if (sig == 0)
		return 0;
	if (init_task && t->group == init_task->group &&
	    READ_ONCE(t->sighand->action[sig - 1].sa_handler) <= SIG_IGN)
		return 0;
	if (to_thread)
		signal_send_thread(t, sig, &info);
	else
		signal_send_info(t, sig, &info);
	return 0;
}

/* kill(pid, sig): pid > 0 that process; 0 our group; -1 everyone but init and us; < -1 group -pid. */
long sys_kill(int pid, int sig)
{
	struct task *t;
	int r = 0;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (pid == 0)
		return pgrp_kill(current->pgid, sig);
	if (pid == -1)
		return pgrp_kill_all(sig);
	if (pid < -1)
		return pid == -2147483647 - 1 ? -ESRCH : pgrp_kill(-pid, sig);
	/* proc_lock keeps t from being reaped and freed while we look at it. */
	spin_lock(&proc_lock);
	t = task_find(pid);
	if (!t)
		r = -ESRCH;
	else if (!t->exited)
		r = signal_send_from_user(t, sig, SI_USER, false);     /* any thread of t's process */
	/* else a zombie: it exists until it is reaped, so 0, as in Linux; the signal is dropped. */
	spin_unlock(&proc_lock);
	return r;
}

/* Send sig to thread tid alone; tgid > 0 must be its group's id, 0 means any (tkill). */
static long send_to_thread(int tgid, int tid, int sig)
{
	struct task *t;
	int r;

	spin_lock(&proc_lock);
	t = task_find(tid);
	if (!t || t->exited || t->exiting || (tgid && t->tgid != tgid))
		r = -ESRCH;
	else
		r = signal_send_from_user(t, sig, SI_TKILL, true);
	spin_unlock(&proc_lock);
	return r;
}

long sys_tgkill(int tgid, int tid, int sig)
{
	if (tgid <= 0 || tid <= 0 || sig < 0 || sig > _NSIG)
		return -EINVAL;
	return send_to_thread(tgid, tid, sig);
}

long sys_tkill(int tid, int sig)
{
	if (tid <= 0 || sig < 0 || sig > _NSIG)
		return -EINVAL;
	return send_to_thread(0, tid, sig);
}

/* ---- sigaction ---------------------------------------------------------------------- */

/* Install act (if given) as sig's action; the old one into *oact (if given). */
/* POSIX: setting SIG_IGN (or a default of ignore) discards what is pending, in every thread. Lock held. */
static void discard_pending(struct task *t, int sig)
{
	struct task *th;

	t->group->shared_pending &= ~SIGBIT(sig);
	for_each_thread(t->group, th)
		th->sig.pending &= ~SIGBIT(sig);
}

/* Install act (if given) as sig's action, for every thread sharing our handlers; the old one into *oact. */
static int do_sigaction(int sig, const struct k_sigaction *act, struct k_sigaction *oact)
{
	struct task *t = current;
	struct sighand *sh;
	uint32_t flags;

	if (!sig_valid(sig))
		return -EINVAL;
	if (act && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	sh = signal_lock(t, &flags);
	if (oact)
		*oact = sh->action[sig - 1];
	if (act) {
		sh->action[sig - 1] = *act;
		sh->action[sig - 1].sa_mask &= ~UNBLOCKABLE;
		if (act->sa_handler == SIG_IGN ||
		    (act->sa_handler == SIG_DFL && (sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH)))
			discard_pending(t, sig);
	}
	signal_unlock(sh, flags);
	return 0;
}

long sys_rt_sigaction(int sig, const void *uact, void *uoact, size_t sigsetsize)
{
	struct k_sigaction act, oact;
	int r;

	if (sigsetsize != sizeof(k_sigset_t))
		return -EINVAL;
	if (uact && copy_from_user(&act, uact, sizeof(act)) < 0)
		return -EFAULT;
	r = do_sigaction(sig, uact ? &act : NULL, uoact ? &oact : NULL);
	if (r == 0 && uoact && copy_to_user(uoact, &oact, sizeof(oact)) < 0)
		return -EFAULT;
	return r;
}

long sys_sigaction(int sig, const void *uact, void *uoact)
{
	struct old_sigaction old;
	struct k_sigaction act, oact;
	int r;

	if (uact) {
		if (copy_from_user(&old, uact, sizeof(old)) < 0)
			return -EFAULT;
		act.sa_handler = old.sa_handler;
		act.sa_flags = old.sa_flags;
		act.sa_restorer = old.sa_restorer;
		act.sa_mask = old.sa_mask;
	}
	r = do_sigaction(sig, uact ? &act : NULL, uoact ? &oact : NULL);
	if (r == 0 && uoact) {
		old.sa_handler = oact.sa_handler;
		old.sa_flags = oact.sa_flags;
		old.sa_restorer = oact.sa_restorer;
		old.sa_mask = (uint32_t)oact.sa_mask;
		if (copy_to_user(uoact, &old, sizeof(old)) < 0)
			return -EFAULT;
	}
	return r;
}

/* ---- the blocked mask ------------------------------------------------------------------ */

static int do_sigprocmask(int how, const k_sigset_t *set, k_sigset_t *old)
{
	struct task *t = current;
	struct sighand *sh;
	uint32_t flags;
	int r = 0;

	sh = signal_lock(t, &flags);
	*old = t->sig.blocked;
	if (set) {
		switch (how) {
		case SIG_BLOCK:
			t->sig.blocked |= *set;
			break;
		case SIG_UNBLOCK:
			t->sig.blocked &= ~*set;
			break;
		case SIG_SETMASK:
			t->sig.blocked = *set;
			break;
		default:
			r = -EINVAL;
		}
		t->sig.blocked &= ~UNBLOCKABLE;
	}
	signal_unlock(sh, flags);
	/* Unblocking makes pending signals deliverable: signal_return_to_user() sees them now. */
	return r;
}

long sys_rt_sigprocmask(int how, const void *uset, void *uoset, size_t sigsetsize)
{
	k_sigset_t set, old;
	int r;

	if (sigsetsize != sizeof(k_sigset_t))
		return -EINVAL;
	if (uset && copy_from_user(&set, uset, sizeof(set)) < 0)
		return -EFAULT;
	r = do_sigprocmask(how, uset ? &set : NULL, &old);
	if (r == 0 && uoset && copy_to_user(uoset, &old, sizeof(old)) < 0)
		return -EFAULT;
	return r;
}

long sys_sigprocmask(int how, const void *uset, void *uoset)
{
	uint32_t set32 = 0, old32;
	k_sigset_t set, old;
	int r;

	if (uset && get_user_u32(&set32, uset) < 0)
		return -EFAULT;
	set = set32;
	if (uset && how == SIG_SETMASK) {
		/* The old call sees signals 1..32 only: keep the others as they are. */
		set |= current->sig.blocked & ~0xFFFFFFFFULL;
	}
	r = do_sigprocmask(how, uset ? &set : NULL, &old);
	old32 = (uint32_t)old;
	if (r == 0 && uoset && put_user_u32(uoset, old32) < 0)
		return -EFAULT;
	return r;
}

/* Signals that arrived while blocked: waiting for the mask to let them through. */
static k_sigset_t blocked_pending(void)
{
	struct task *t = current;
	struct sighand *sh;
	k_sigset_t set;
	uint32_t flags;

	sh = signal_lock(t, &flags);
	set = (t->sig.pending | t->group->shared_pending) & t->sig.blocked;
	signal_unlock(sh, flags);
	return set;
}

long sys_rt_sigpending(void *uset, size_t sigsetsize)
{
	k_sigset_t set = blocked_pending();

	if (sigsetsize > sizeof(k_sigset_t))
		return -EINVAL;
	return copy_to_user(uset, &set, sigsetsize);
}

long sys_sigpending(void *uset)
{
	return put_user_u32(uset, (uint32_t)blocked_pending());
}

/* ---- waiting for a signal ------------------------------------------------------------------- */

/*
 * Sleep until a signal is ready to be delivered. The state is set before the
 * test, so a signal sent in between finds us TASK_SLEEPING and wakes us.
 */
static void sleep_until_signal(void)
{
	struct task *t = current;

	might_sleep();
	for (;;) {
		t->state = TASK_SLEEPING;
		smp_mb();
		if (signal_pending(t))
			break;
		schedule();
	}
	t->state = TASK_RUNNING;
}

/* Returns -ERESTARTNOHAND: -EINTR once a handler has run, as pause() must. */
long sys_pause(void)
{
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

/* Wait with mask blocked; the handler that ends the wait returns to the old mask (see deliver.c). */
static long do_sigsuspend(k_sigset_t mask)
{
	struct task *t = current;
	struct sighand *sh;
	uint32_t flags;

	sh = signal_lock(t, &flags);
	t->sig.saved_blocked = t->sig.blocked;
	t->sig.restore_blocked = true;
	t->sig.blocked = mask & ~UNBLOCKABLE;
	signal_unlock(sh, flags);
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

long sys_rt_sigsuspend(const void *umask, size_t sigsetsize)
{
	k_sigset_t mask;

	if (sigsetsize != sizeof(k_sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)) < 0)
		return -EFAULT;
	return do_sigsuspend(mask);
}

/* i386's old sigsuspend(int, int, old_sigset_t): the first two arguments are history. */
long sys_sigsuspend(int unused1, int unused2, uint32_t mask)
{
	return do_sigsuspend((current->sig.blocked & ~0xFFFFFFFFULL) | mask);
}

/* ---- the alternate signal stack -------------------------------------------------------------- */

long sys_sigaltstack(const void *uss, void *uoss)
{
	struct task *t = current;
	uint32_t sp = task_trapframe(t)->esp;
	bool on = signal_on_altstack(t, sp);
	k_stack_t ss, old = {
		.ss_sp = t->sig.altstack_sp,
		.ss_size = t->sig.altstack_size,
		.ss_flags = (int32_t)((t->sig.altstack_flags & SS_DISABLE) ? SS_DISABLE :
				      (on ? SS_ONSTACK : 0) | (t->sig.altstack_flags & SS_AUTODISARM)),
	};

	if (uss) {
		uint32_t mode;

		if (copy_from_user(&ss, uss, sizeof(ss)) < 0)
			return -EFAULT;
		if (on)
			return -EPERM;  /* not while a handler runs on it */
		mode = (uint32_t)ss.ss_flags & ~SS_AUTODISARM;
		if (mode != 0 && mode != SS_DISABLE && mode != SS_ONSTACK)
			return -EINVAL;
		if (mode == SS_DISABLE) {
			ss.ss_sp = ss.ss_size = 0;
		} else if (ss.ss_size < MINSIGSTKSZ) {
			return -ENOMEM;
		}
		t->sig.altstack_sp = ss.ss_sp;
		t->sig.altstack_size = ss.ss_size;
		/* SS_AUTODISARM: each handler that starts gives the stack up until its sigreturn. */
		t->sig.altstack_flags = mode == SS_DISABLE ? SS_DISABLE : ((uint32_t)ss.ss_flags & SS_AUTODISARM);
	}
	if (uoss && copy_to_user(uoss, &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}
