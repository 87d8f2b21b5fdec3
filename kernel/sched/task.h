/* Tasks: kernel threads and user processes share this one structure. */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include "kernel/cpu.h"
#include "kernel/list.h"
#include "kernel/locking/lockdep.h"
#include "kernel/signal/signal.h"
#include "kernel/types.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/gdt.h"

#define KSTACK_SIZE 8192                /* each task's kernel stack */
#define TASK_NAME_LEN 16
#define CPU_MASK_ALL 0xFFFFFFFFu

/*
 * As in Linux, TASK_RUNNING means "runnable": waiting on a run queue or on a
 * CPU right now (on_cpu says which). Only the task itself leaves TASK_RUNNING.
 */
enum task_state {
	TASK_NEW,               /* being built: nothing may wake it until wake_up_new_task() */
	TASK_RUNNING,           /* runnable: queued, or running (on_cpu) */
	TASK_SLEEPING,          /* waiting for a wake_up_process() */
	TASK_ZOMBIE,            /* exited; its parent has not collected it yet */
	TASK_DEAD,              /* gone: about to be freed */
};

struct mm;
struct trapframe;
struct bkl_site;
struct exec_info;
struct group_info;
struct thread_group;
struct sighand;
struct fs_struct;

struct task {
	uint32_t saved_esp;             /* kernel stack pointer while switched out (switch.S) */
	volatile enum task_state state;
	int pid;
	char name[TASK_NAME_LEN];

	/* Scheduling (kernel/sched/sched.c) */
	int cpu;                        /* CPU it is queued on, runs on, or last ran on */
	uint32_t cpus_allowed;          /* affinity: bit n set = may run on CPU n */
	struct list_head run_link;      /* on its CPU's run queue while waiting for the CPU */
	bool on_rq;                     /* counted by a run queue: queued or running */
	bool preempted;                 /* its last switch-out was a preemption, not a sleep */
	bool in_preempt;                /* inside the preemption path (preempt_now) */
	bool queued;                    /* linked on run_link */
	volatile bool on_cpu;           /* executing, or still switching out: its stack is in use */
	int migrate_to;                 /* -1, or the CPU to move to once switched out (affinity) */
	uint64_t wake_at_ns;            /* timed sleep deadline, 0 if none */
	struct list_head sleep_link;    /* on its CPU's list of timed sleepers */
	uint64_t switches;              /* times switched in */
	uint64_t runtime_ns;            /* CPU time used */
	uint64_t last_switch_in_ns;
	struct tick_samples ticks;      /* how the ticks split it: user, system, spin (kernel/time/cputime.c) */
	int iowait_cpu;                 /* while asleep waiting for a disk: the CPU that counts it */
	/*
	 * Scheduling latency: how long it waited, runnable, for a CPU. Measured
	 * in ns and in ticks of the CPU whose queue it waited on: a vCPU that
	 * the host did not run gets no ticks, so ticks measure the kernel's
	 * own lateness, whatever else the host machine was doing.
	 */
	/* The mutex it sleeps for in mutex_lock(), or NULL: for gdb's `smpix deadlock`. */
	struct mutex *blocked_on;
	uint64_t queued_at_ns;          /* when it last joined a run queue */
	uint64_t queued_at_tick;        /* cpus[queued_tick_cpu].sched_ticks then */
	int queued_tick_cpu;
	bool latency_reported;          /* "runnable but not picked" said once for this wait */
	uint64_t wait_max_ns, wait_sum_ns;
	uint64_t wait_max_ticks, wait_count;
	uint32_t trace_gen;             /* the trace that last recorded its name (kernel/trace/trace.c) */

	/*
	 * The Big Kernel Lock (kernel/locking/bkl.c): how many lock_kernel() calls this
	 * task has not yet undone, minus one. -1 means "not held", as in Linux
	 * 2.6. schedule() drops the lock for a task with lock_depth >= 0 and
	 * takes it back before the task runs again; the depth itself never changes.
	 */
	int lock_depth;
	struct bkl_site *bkl_site;      /* where its outermost lock_kernel() was */
	struct lockdep_held lockdep;    /* the locks it holds, for the lock-order checker (lockdep.c) */

	void *kstack;                   /* KSTACK_SIZE bytes; the task's trapframe sits at its top */
	struct fpu_state fpu;           /* its x87/SSE registers while it is switched out (fpu.c) */
	struct list_head all_link;      /* on the list of every task (task.c) */

	/* ---- process fields (kernel/process/proc.c, kernel/process/exec.c, kernel/signal/deliver.c) ---- */
	struct mm *mm;                  /* user address space; NULL for kernel threads */
	/*
	 * The thread group (kernel/process/thread.c). pid is this thread's id
	 * (gettid), tgid the group's (getpid): the pid of its leader. A process
	 * is a group of one, its own leader. Only a leader has a parent and
	 * children: a thread's children are its leader's, as wait4 from any
	 * thread of the group sees them.
	 */
	int tgid;
	struct task *group_leader;
	struct thread_group *group;     /* the group's shared signals and exit state (refcounted) */
	struct sighand *sighand;        /* signal actions, shared by CLONE_SIGHAND (refcounted) */
	struct list_head thread_link;   /* on group->threads: changed under proc_lock and the sighand lock */
	bool exiting;                   /* in proc_exit: signals to the group go to another thread */
	struct task *parent;
	struct list_head children;      /* tasks whose parent we are */
	struct list_head sibling;       /* on parent->children */
	int exit_status;                /* wait4() status word once a zombie */
	struct wait_queue child_exit;   /* a child of ours became a zombie */
	bool killed;                    /* a fatal signal: exit at the next return to user mode */
	bool exited;                    /* exit_status is final: a zombie for its parent to reap */
	uint64_t start_ns;              /* clock_ns() when it was made: /proc/PID/stat's starttime */
	/* Its program's path and arguments (kernel/process/exec_info.c); changed under tasks_lock. */
	struct exec_info *exec_info;
	bool is_process;                /* started in user mode: kill() finds it, a zombie too */

	/* ---- what a Linux program expects of its process (kernel/signal/deliver.c, pgrp.c, clone.c, ...) ---- */
	struct sigstate sig;            /* handlers, blocked and pending signals (signal.h) */
	int syscall_nr;                 /* the system call in progress (for restarts), -1 if none */
	int pgid, sid;                  /* process group and session (pgrp.c), under proc_lock */
	int exit_signal;                /* sent to the parent when we exit: SIGCHLD, or clone's choice */
	bool did_exec;                  /* has run execve since fork (setpgid() may not move it then) */
	struct task *vfork_parent;      /* sleeping in vfork() until we exec or exit; under proc_lock */
	struct wait_queue vfork_done;   /* we sleep here in vfork() until the child lets go */
	bool vfork_waiting;             /* in vfork(): the child has not let go yet; under proc_lock */
	uint64_t tls[TLS_ENTRIES];      /* TLS descriptors, in the GDT while we run (x86/tls.c) */
	uint32_t clear_child_tid;       /* set_tid_address(), CLONE_CHILD_CLEARTID: zeroed and woken at exit */
	uint32_t robust_list;           /* set_robust_list(): walked at exit (kernel/futex/) */
	struct group_info *groups;      /* supplementary groups, shared and immutable; NULL: none (groups.c) */
	unsigned itimer_gen;            /* CPU-time itimers: which setting itimer_seen_ns counts for (itimer.c) */
	uint64_t itimer_seen_ns;        /* our runtime_ns when the last tick charged them */

	/* ---- the VFS's per-process state (fs/vfs.c), shared by CLONE_FILES and CLONE_FS ---- */
	struct fdtable *files;          /* descriptors; NULL for kernel threads */
	struct fs_struct *fs;           /* current directory and umask (fs/fs_struct.h); NULL likewise */
	bool uaccess_kernel;            /* in kernel_read(): the user-copy functions take kernel buffers */
};

/*
 * The task running on this CPU, read with ONE instruction: "find my CPU, then
 * read its curr" in two steps could be preempted in between and moved to
 * another CPU, returning the task that now runs on the old one.
 */
static inline struct task *current_task(void)
{
	struct task *t;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(t) : "i"(offsetof(struct cpu, curr)));
	return t;
}
#define current current_task()

/* A new task: zeroed, with a kernel stack, a pid and state TASK_NEW (see wake_up_new_task()). */
struct task *task_alloc(const char *name);
/* Give t pid 1 (init's); kernel threads and other processes get pids from 2 up. */
void task_make_init(struct task *t);
/* Free a task that no CPU runs any more (its kernel stack included). */
void task_free(struct task *t);
/* The trapframe at the top of t's kernel stack (where entry from user mode saves registers). */
struct trapframe *task_trapframe(struct task *t);
/*
 * Arrange t's kernel stack so that, when first scheduled, it returns through
 * trap_return with the registers in task_trapframe(t): how a new user process
 * (or a forked child) starts.
 */
void task_start_in_user_mode(struct task *t);
/*
 * Find a process or thread (not a kernel thread; a zombie too) by pid (a
 * thread id), NULL if none; for kill() and affinity.
 */
struct task *task_find(int pid);
void task_set_name(struct task *t, const char *name);
/* Tasks made since boot, kernel threads too (/proc/stat's processes), and the last pid given. */
uint64_t task_count_created(void);
int task_last_pid(void);
/* Tasks that exist now, zombies and kernel threads too, idle tasks not: /proc/loadavg's second number. */
int task_count_live(void);

/* Protects the list of all tasks and pid allocation. */
extern spinlock_t tasks_lock;
extern struct list_head all_tasks;

#endif
