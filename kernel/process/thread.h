/*
 * Thread groups: several tasks, one process. As in Linux 2.6 (NPTL), a
 * thread is a task made by clone(CLONE_THREAD); it shares its leader's
 * address space, descriptors, directory and signal handlers as the clone
 * flags say, and the group itself: one pid (getpid() is the group's id,
 * gettid() the thread's), one set of signals sent to the process, one exit
 * status. The leader is the task the group is named after; its parent
 * hears of the group only when the last thread is gone.
 */
#ifndef KERNEL_PROCESS_THREAD_H
#define KERNEL_PROCESS_THREAD_H

#include "kernel/list.h"
#include "kernel/locking/atomic.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/signal/signal.h"
#include "kernel/time/cputime.h"
#include "kernel/time/itimer.h"
#include "kernel/types.h"

struct task;

/*
 * What the threads of a group share besides their memory and files
 * (Linux's signal_struct). The list and the count change under proc_lock
 * AND the sighand lock of the group, so either is enough to walk them; the
 * signal fields are under the sighand lock.
 */
struct thread_group {
	atomic_t refs;                  /* tasks that point here, zombies included */
	struct list_head threads;       /* every thread that has not yet exited, by thread_link */
	int nr_threads;                 /* on the list */
	atomic_t live;                  /* threads not yet in proc_exit(): Linux's signal->live */
	struct task *leader;
	/* ---- signals sent to the whole process (kill, not tkill), under the sighand lock ---- */
	k_sigset_t shared_pending;
	struct ksiginfo shared_info[_NSIG];
	bool group_exit;                /* exit_group() or a fatal signal: every thread is on its way out */
	int group_exit_code;            /* the wait status then, whichever thread ends last */
	bool stopped;                   /* a stop signal: every thread sleeps on its way to user mode until SIGCONT */
	/* ---- job control (kernel/signal/deliver.c, "stopping"), under the sighand lock ---- */
	int stop_signal;                /* the signal that stopped it: wait4's WSTOPSIG */
	unsigned stop_gen;              /* which stop this is: each thread counts itself in once */
	int stop_count;                 /* threads yet to stop; 0 while stopped: the stop is complete */
	bool report_stop;               /* complete and not yet seen by wait4(WUNTRACED) */
	bool report_cont;               /* continued and not yet seen by wait4(WCONTINUED) */
	bool notify_cont;               /* continued: the parent's SIGCHLD (CLD_CONTINUED) is still to send */
	struct task *exec_task;         /* execve() in progress in this thread: the others must go */
	struct wait_queue exec_wait;    /* where exec_task waits for them */
	/* ---- CPU time (kernel/time/cputime.c), under proc_lock ---- */
	struct task_cputime exited_time;        /* of its threads that have exited */
	struct task_cputime children_time;      /* of the children it has reaped, with theirs */
	struct prev_cputime shown_self, shown_children;        /* what times() and getrusage() last said */
	/* ---- interval timers: the process's, not a thread's (kernel/time/itimer.c, its lock) ---- */
	struct itimers itimers;
};

/* A new task's group: a group of one, itself the leader. -ENOMEM. */
int thread_group_init(struct task *t);
/* The task is freed: let go of its group. */
void thread_group_release(struct task *t);
/* Is t the leader of its group (the task a pid names to wait4, /proc and ps)? */
bool thread_group_leader(const struct task *t);
/* Is t the only thread left in its group? Needs proc_lock or the sighand lock. */
bool thread_group_empty(const struct task *t);
/* clone(CLONE_THREAD): c (not started yet) joins the group of current. 0, or -errno. */
int thread_join_group(struct task *c);
/*
 * End the whole group (exit_group(), a fatal signal): every other thread is
 * killed, and current exits with code, or with the code of an exit_group()
 * already in progress.
 */
void thread_group_exit(int code) __noreturn;
/*
 * The first step of exit for a thread: true if t is the group's last live
 * thread. Threads leave the list (thread_unlink) late in their exit, so
 * two exiting threads can both still see the other on it; only one of them
 * takes the live count to zero, and that one knows the process is ending.
 */
bool thread_exit_begin(struct task *t);
/*
 * The first half of exit for a thread: its robust futexes and
 * CLONE_CHILD_CLEARTID word (zeroed, a waiter woken: how pthread_join()
 * learns of it), while its memory is still there.
 */
void thread_exit_mm(struct task *t);
/*
 * Take t off its group's list (proc_exit, under proc_lock with interrupts
 * off). Returns true if it was the last thread: the group is gone and its
 * leader's parent may now hear of it.
 */
bool thread_unlink(struct task *t);
/*
 * execve() in a thread of a group (Linux's de_thread): kill the others and
 * wait for them to go; a thread that is not the leader then takes the
 * leader's place and pid. 0, or -EINTR when current is killed meanwhile.
 */
int thread_de_thread(void);
/*
 * The wait status of a group whose last thread, last, has gone: exit_group()'s
 * (or the fatal signal's), else that of last's own exit().
 */
int thread_group_status(const struct task *last);

/* Every thread t of group g. Needs proc_lock or the sighand lock. */
#define for_each_thread(g, t)                                                             \
	for (struct list_head *_pos = (g)->threads.next;                                   \
	     _pos != &(g)->threads && ((t) = list_entry(_pos, struct task, thread_link), 1); \
	     _pos = _pos->next)

#endif
