/*
 * Signals: sending, blocking, handlers, and delivery on the way back to user
 * mode (docs/signals.md tells the whole story). The frame a handler runs on
 * is built by kernel/x86/sigframe.c.
 */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include "kernel/locking/atomic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/types.h"
#include "kernel/uapi/signal.h"

struct task;
struct trapframe;

#define SIGBIT(sig) (1ULL << ((sig) - 1))

/* What a signal carries besides its number, until it is delivered (a k_siginfo_t then). */
struct ksiginfo {
	int code;               /* SI_USER, SI_KERNEL, SEGV_MAPERR, CLD_EXITED, ... */
	int pid;                /* the sender (kill), or the child (SIGCHLD) */
	int status;             /* SIGCHLD: exit code or signal */
	uint32_t addr;          /* faults: the address */
};

/*
 * Signal actions, shared by the tasks made with CLONE_SIGHAND (every thread
 * of a group): Linux's sighand_struct. Its lock is THE signal lock of every
 * task that shares it: it protects their struct sigstate, their actions
 * here, and their thread group's shared signal state (kernel/process/thread.h).
 * Taken with interrupts off (the alarm tick sends signals); found from a
 * task with signal_lock(), which copes with execve() giving it a new one.
 */
struct sighand {
	atomic_t refs;
	spinlock_t lock;
	struct k_sigaction action[_NSIG];       /* index sig - 1 */
};

/* A thread's own signal state, inside struct task; under its sighand's lock. */
struct sigstate {
	k_sigset_t pending;             /* sent to this thread (tkill, faults), not yet delivered */
	k_sigset_t blocked;             /* not delivered while blocked (stay pending) */
	k_sigset_t saved_blocked;       /* sigsuspend's mask to put back after the handler */
	bool restore_blocked;           /* saved_blocked is waiting to be put back */
	int fatal;                      /* the signal that is killing us, once task->killed */
	struct ksiginfo info[_NSIG];            /* of each pending signal (one each: no queueing) */
	uint32_t altstack_sp;           /* sigaltstack: base, size, flags (SS_DISABLE when none) */
	uint32_t altstack_size;
	uint32_t altstack_flags;
	/* ---- job control (deliver.c, "stopping") ---- */
	unsigned stop_gen;              /* the group stop this thread has counted itself in */
	bool job_stopped;               /* asleep in a group stop: /proc shows it as T */
	/*
	 * A relative nanosleep cut short by a signal with no handler (a stop,
	 * then SIGCONT) goes on for the time left, through restart_syscall:
	 * Linux's restart_block, for the one call that needs it here.
	 */
	struct {
		bool armed;
		uint64_t deadline;      /* clock_ns() at which the sleep ends */
		uint32_t urem;          /* where the remaining time goes if a handler cuts it short */
	} restart;
};

/* Set up the signal state of a new task: nothing pending or blocked, every action default. -ENOMEM. */
int signal_init_task(struct task *t);
/* The task is freed: let go of its actions. */
void signal_release_task(struct task *t);
/*
 * fork and clone: the child has the parent's mask and alternate stack, and
 * nothing pending; a copy of its actions, or (share: CLONE_SIGHAND) the very same.
 */
void signal_fork(struct task *child, struct task *parent, bool share);
/*
 * execve: actions shared with another process become t's own copy (-ENOMEM),
 * before the point of no return.
 */
int signal_unshare(struct task *t);
/* execve: handlers go back to SIG_DFL (ignored signals stay ignored); no alternate stack. */
void signal_exec_reset(struct task *t);
/* Lock t's signal state (its sighand's lock, interrupts off): the sighand locked. */
struct sighand *signal_lock(struct task *t, uint32_t *flags);
void signal_unlock(struct sighand *sh, uint32_t flags);

/*
 * Send sig to t's process from the kernel (SI_KERNEL), or with the given
 * info: any thread of its group that does not block it takes it, as
 * kill() does. Callers keep t from being freed (proc_lock, or t is
 * current). Safe from interrupt handlers.
 */
void signal_send(struct task *t, int sig);
void signal_send_info(struct task *t, int sig, const struct ksiginfo *info);
/* The same for thread t alone (tkill, faults): only t takes it. */
void signal_send_thread(struct task *t, int sig, const struct ksiginfo *info);
/*
 * Send sig (0: none, only check) to t on behalf of the current process (kill,
 * tgkill), with si_code code: to its whole process, or (to_thread) to t
 * alone. init gets only signals it has a handler for. Needs proc_lock. Returns 0.
 */
int signal_send_from_user(struct task *t, int sig, int code, bool to_thread);
/* Kill t's process with sig whatever its handlers and mask say (a bad signal frame: SIGSEGV). */
void signal_force_kill(struct task *t, int sig);
/*
 * Kill every thread of t's group but skip (NULL: none) with SIGKILL, for
 * exit_group() or execve(). Needs the sighand lock.
 */
void signal_kill_threads(struct task *t, struct task *skip);
/* The child's last word to its parent: SIGCHLD (or clone's exit signal) with CLD_* info. */
void signal_notify_parent(struct task *child, struct task *parent, int wait_status);

/*
 * SIGTSTP, SIGTTIN, SIGTTOU: would current take sig as ignored (SIG_IGN) or
 * not at all (blocked)? Then the tty lets a background job go on instead of
 * stopping it (Linux's is_ignored() in tty_io.c).
 */
bool signal_ignored_or_blocked(struct task *t, int sig);
/*
 * proc_exit: t is on its way out (signals for the process go to the other
 * threads now); a group stop no longer waits for it.
 */
void signal_exiting(struct task *t);
/*
 * wait4's WUNTRACED and WCONTINUED: take c's unreported stop (status
 * (sig << 8) | 0x7f) or continue (0xffff) if options ask for it and take;
 * without take, only look. c is a group leader; needs proc_lock.
 */
bool signal_wait_report(struct task *c, int options, bool take, int *status);

/* Does parent want its children to leave no zombies (SIGCHLD set to SIG_IGN, or SA_NOCLDWAIT)? */
bool signal_no_zombies(struct task *parent);

/*
 * Is a signal waiting that should end an interruptible sleep? (Unblocked and
 * pending, or the task is being killed.) See wait_event_interruptible().
 */
bool signal_pending(struct task *t);
/* Does t have a fatal signal coming (killable sleeps end for this only)? */
bool signal_fatal(struct task *t);
/* The signal that is killing t (SIGKILL if none was recorded). */
int signal_fatal_pending(struct task *t);

/*
 * On the way back to user mode (step 2 of trap_exit, kernel/x86/trap.c): finish an interrupted
 * system call (restart it or make it -EINTR), then deliver one signal: run
 * its default action or push a frame so the handler runs next.
 */
void signal_return_to_user(struct trapframe *tf);
/* From trap dispatch: CPU exceptions from user mode become SIGSEGV, SIGFPE, SIGILL, ... */
void signal_user_fault(struct trapframe *tf);

/* For kernel/x86/sigframe.c: the mask to restore (sigreturn). */
void signal_set_blocked(struct task *t, k_sigset_t mask);
/* Is sp on t's alternate signal stack? */
bool signal_on_altstack(struct task *t, uint32_t sp);
/* sigreturn's uc_stack: set the alternate stack again, quietly (errors are ignored, as Linux). */
void signal_restore_altstack(struct task *t, const k_stack_t *ss);

#endif
