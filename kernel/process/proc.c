/*
 * Processes: a task with an address space, a parent and children. fork()
 * copies the caller; exit() turns it into a zombie that keeps only its exit
 * status until the parent collects it with wait4(), which frees it.
 * Orphans are adopted by init (the first process), which reaps them; with
 * no init (ktest mode), an orphan is freed as soon as it has exited.
 */
#include "kernel/process/proc.h"

#include "fs/vfs.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/cmdline.h"
#include "kernel/process/exec.h"
#include "kernel/process/exec_info.h"
#include "kernel/process/fork.h"
#include "kernel/time/itimer.h"
#include "kernel/time/rusage.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/pgrp.h"
#include "kernel/process/thread.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/dispatch.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/sched.h"
#include "kernel/uapi/signal.h"
#include "kernel/uapi/wait.h"
#include "kernel/x86/power.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

spinlock_t proc_lock = SPINLOCK_INIT("proc");
struct task *init_task;

/* Give t an empty family and hang it under parent (NULL: nobody waits for it). */
static void proc_link(struct task *t, struct task *parent)
{
	list_init(&t->children);
	list_init(&t->sibling);
	wait_queue_init(&t->child_exit, "child_exit");
	spin_lock(&proc_lock);
	t->parent = parent;
	if (parent)
		list_add_tail(&t->sibling, &parent->children);
	spin_unlock(&proc_lock);
}

/*
 * init's environment: HOME and TERM, then, as Linux does, every key=value
 * word of the kernel command line whose key has no '.' (Linux leaves out the
 * words it knows itself; smpix passes them all). So "init=/bin/fuzz
 * fuzz_seed=7" hands the fuzzer its seed.
 */
static const char *const *init_environment(void)
{
	static char strings[CMDLINE_MAX + CMDLINE_WORDS];
	static const char *envp[CMDLINE_WORDS + 3] = { "HOME=/", "TERM=vt100" };
	size_t used = 0;
	int n = 2;

	for (int i = 0; i < kernel_cmdline.nwords; i++) {
		const char *key = kernel_cmdline.key[i], *value = kernel_cmdline.value[i];
		int len;

		if (!value[0] || strchr(key, '.'))
			continue;
		len = snprintf(strings + used, sizeof(strings) - used, "%s=%s", key, value);
		if (len < 0 || (size_t)len >= sizeof(strings) - used)
			break;
		envp[n++] = strings + used;
		used += (size_t)len + 1;
	}
	envp[n] = NULL;
	return envp;
}

int proc_start_init(const char *path)
{
	const char *const *envp = init_environment();
	const char *argv[] = { path, NULL };
	struct task *t = task_alloc("init");
	int r;

	if (!t)
		return -ENOMEM;
	task_make_init(t);
	pgrp_make_leader(t);
	proc_link(t, NULL);
	r = vfs_proc_init(t);           /* fds 0, 1, 2: /dev/console */
	if (r == 0)
		r = exec_kernel(t, path, argv, envp);
	if (r < 0) {
		vfs_proc_exit(t);
		task_free(t);
		return r;
	}
	init_task = t;
	task_start_in_user_mode(t);
	wake_up_new_task(t);
	return t->pid;
}

/* Let a kernel thread have children (its family fields start zeroed). */
static void proc_init_family(struct task *t)
{
	if (!t->children.next) {
		list_init(&t->children);
		list_init(&t->sibling);
		wait_queue_init(&t->child_exit, "child_exit");
	}
}

int proc_spawn(const char *path, const char *const *argv)
{
	struct task *t = task_alloc("spawn");
	int r, pid;

	if (!t)
		return -ENOMEM;
	proc_init_family(current);
	r = vfs_proc_init(t);
	if (r == 0)
		r = exec_kernel(t, path, argv, NULL);
	if (r < 0) {
		vfs_proc_exit(t);
		task_free(t);
		return r;
	}
	pgrp_make_leader(t);
	proc_link(t, current);
	task_start_in_user_mode(t);
	pid = t->pid;
	wake_up_new_task(t);
	return pid;
}

/*
 * Whose child a new process is: the leader of our group (so wait4 in any
 * of our threads finds it), or with CLONE_PARENT our own parent's.
 */
static struct task *new_parent(struct task *p, unsigned long flags)
{
	return (flags & CLONE_PARENT) ? p->group_leader->parent : p->group_leader;
}

struct task *proc_fork(unsigned long flags)
{
	struct task *p = current, *c = task_alloc(p->name);
	struct trapframe *tf;

	if (!c)
		return NULL;
	c->mm = (flags & CLONE_VM) ? mm_get(p->mm) : mm_fork(p->mm);
	if (!c->mm) {
		task_free(c);
		return NULL;
	}
	/* The same open files, directory and umask: copies, or shared (CLONE_FILES, CLONE_FS). */
	if (vfs_proc_fork(p, c, flags & CLONE_FILES, flags & CLONE_FS) < 0) {
		mm_put(c->mm);
		task_free(c);
		return NULL;
	}
	tf = task_trapframe(c);
	*tf = *task_trapframe(p);
	tf->eax = 0;                    /* the child sees fork() return 0 */
	c->cpus_allowed = p->cpus_allowed;
	c->exec_info = exec_info_get(p->exec_info);     /* same program, same arguments */
	fpu_copy_live(&c->fpu);         /* the child starts with the parent's FPU registers */
	fork_inherit(c, p, flags & CLONE_SIGHAND);     /* signal actions, process group, TLS (fork.c) */
	/* A thread is nobody's child: its group's leader is (kernel/process/thread.c). */
	proc_link(c, (flags & CLONE_THREAD) ? NULL : new_parent(p, flags));
	task_start_in_user_mode(c);
	return c;
}

/* A child that never ran: undo proc_fork() (clone failed after it). */
void proc_fork_abort(struct task *c)
{
	vfs_proc_exit(c);
	mm_put(c->mm);
	c->mm = NULL;
	spin_lock(&proc_lock);
	list_del(&c->sibling);
	task_free(c);
	spin_unlock(&proc_lock);
}

long sys_fork(void)
{
	struct task *c = proc_fork(0);
	int pid;

	if (!c)
		return -ENOMEM;
	pid = c->pid;
	wake_up_new_task(c);
	return pid;
}

/*
 * Hand t's children to init; zombies among them are init's to reap now.
 * Without an init (ktest mode) nobody reaps: a child still running is freed
 * when it exits (it finds no parent), and a zombie is freed here, or it
 * would never be. Needs proc_lock.
 */
static void reparent_children(struct task *t)
{
	struct list_head *pos, *tmp;
	bool adopt = init_task && init_task != t;
	bool wake = false;

	assert_spin_held(&proc_lock);
	list_for_each_safe(pos, tmp, &t->children) {
		struct task *c = list_entry(pos, struct task, sibling);

		list_del(&c->sibling);
		/*
		 * Its new parent hears of its death by SIGCHLD, whatever clone()
		 * asked for: an orphan with exit signal SIGKILL must not kill init
		 * (Linux's reparent_leader: "We don't want people slaying init").
		 */
		c->exit_signal = SIGCHLD;
		if (adopt) {
			c->parent = init_task;
			list_add_tail(&c->sibling, &init_task->children);
			wake |= c->exited;
			pgrp_exit_check_orphaned(c, t);        /* was t its group's last link outside? */
		} else {
			c->parent = NULL;
			/* It may still be switching out: the scheduler decides who frees it. */
			if (c->exited)
				sched_free_zombie(c);
		}
	}
	if (wake)
		wake_up(&init_task->child_exit);
}

void proc_orphan_children(struct task *t)
{
	uint32_t flags;

	if (!t->children.next || list_empty(&t->children))
		return;         /* never had children (its family fields are still zeroed) */
	spin_lock_irqsave(&proc_lock, flags);
	reparent_children(t);
	spin_unlock_irqrestore(&proc_lock, flags);
}

/*
 * The group of t (its last thread, t, is exiting) is gone: its leader becomes
 * the zombie its parent reaps, with the group's status; without a parent
 * (or one that wants no zombies) it is freed instead. Needs proc_lock.
 */
static void group_end(struct task *t)
{
	struct task *leader = t->group_leader, *parent;
	int status = thread_group_status(t);

	assert_spin_held(&proc_lock);
	itimer_group_exit(t->group);    /* no SIGALRM, SIGVTALRM or SIGPROF for a process that is gone */
	reparent_children(leader);
	pgrp_exit_check_orphaned(leader, leader->parent);      /* were we our own group's last link outside? */
	fork_release_vfork_parent(leader);      /* a parent in vfork() waits for our exit (or exec) */
	leader->exit_status = status;
	leader->exited = true;
	parent = leader->parent;
	if (parent && signal_no_zombies(parent)) {
		/* The parent ignores SIGCHLD (or set SA_NOCLDWAIT): no zombie; a waiting wait4 sees -ECHILD. */
		signal_notify_parent(leader, parent, status);
		list_del(&leader->sibling);
		leader->parent = NULL;
		wake_up(&parent->child_exit);
		parent = NULL;
	}
	if (parent) {
		/* A zombie until the parent reaps it; the parent cannot be reaped and freed meanwhile. */
		leader->state = TASK_ZOMBIE;
		signal_notify_parent(leader, parent, status);   /* SIGCHLD, CLD_EXITED or CLD_KILLED */
		wake_up(&parent->child_exit);
	} else if (leader != t) {
		sched_free_zombie(leader);      /* went first, as a zombie: nobody will reap it now */
	}
	/* else t itself: the scheduler frees it after its last switch (task_exit_final). */
}

void proc_exit(int status)
{
	struct task *t = current;
	struct mm *mm = t->mm;

	/*
	 * The last live thread, not the last on the list: a thread that has
	 * cleared its tid word for pthread_join() may still be closing its
	 * files, on the list, when the leader exits; each would see the other.
	 */
	if (thread_exit_begin(t) && init_task && t->group == init_task->group) {
		t->exit_status = status;
		printk("smpix: init (pid %d) exited with status 0x%x; powering off\n", t->tgid,
		       thread_group_status(t));
		power_off();
	}
	signal_exiting(t);              /* signals for the process go to the other threads now */
	/* A process may die inside a syscall that runs under the BKL (bkl=syscalls). */
#ifdef CONFIG_BKL
	while (kernel_locked())
		unlock_kernel();
#endif
	thread_exit_mm(t);              /* robust futexes, CLONE_CHILD_CLEARTID: pthread_join() */
	vfs_proc_exit(t);               /* let go of the files (a release may sleep: before cli below) */
	/* Under proc_lock: the OOM killer reads t->mm->npages under it (kernel/mm/oom_kill.c). */
	spin_lock(&proc_lock);
	t->mm = NULL;
	spin_unlock(&proc_lock);
	mm_activate(NULL, (char *)t->kstack + KSTACK_SIZE);
	mm_put(mm);                     /* a vfork child's: its parent's, which lives on; a thread's: the group's */

	/*
	 * Interrupts stay off from here: a preemption between becoming a zombie
	 * and waking the parent would take us off the run queue for good, with
	 * the parent never told. task_exit_final() switches away for the last time.
	 */
	cli();
	spin_lock(&proc_lock);
	t->exit_status = status;
	/* As Linux's mm_release(): any task that exits lets its vfork parent go, a thread too. */
	fork_release_vfork_parent(t);
	if (thread_unlink(t)) {
		group_end(t);
	} else if (thread_group_leader(t)) {
		/* The others live on: a zombie its parent cannot reap until the last of them is gone. */
		t->state = TASK_ZOMBIE;
	}
	/* A thread that is not the leader is nobody's child: the scheduler frees it. */
	spin_unlock(&proc_lock);
	task_exit_final();
}

long sys_exit(int code)
{
	proc_exit(W_EXITCODE(code, 0));
}

/*
 * ---- wait4 and waitid ----------------------------------------------------------
 * Both are one wait (Linux's do_wait): a query says which children (all,
 * one pid, one process group) and which events (WEXITED, WSTOPPED,
 * WCONTINUED); the first matching child with such an event is reported,
 * and a zombie reaped unless WNOWAIT. They differ only in what they write:
 * wait4 a status word, waitid a siginfo_t; both an rusage.
 */

/* Which children a wait is for, and what it wants to hear of them (Linux's struct wait_opts). */
struct wait_query {
	int idtype;             /* P_ALL, P_PID or P_PGID */
	int id;                 /* the pid or the pgid */
	int options;            /* WEXITED, WSTOPPED, WCONTINUED, WNOHANG, WNOWAIT */
};

/* What a wait found: the child, its wait4 status word, its rusage (zeroes but for an exit). */
struct wait_report {
	int pid;
	int status;
	struct rusage32 ru;
};

/* waitid's part of siginfo_t: the fields it writes, in siginfo_t's layout (k_siginfo_t's u.chld). */
struct waitid_info32 {
	int32_t signo, errno_, code, pid;
	uint32_t uid;
	int32_t status;
};

/* Where the report goes in user memory: the status word (wait4) or siginfo (waitid), and the rusage; each may be NULL. */
struct wait_dest {
	int *ustatus;
	struct waitid_info32 *uinfo;
	void *urusage;
};

/* Does child c match q's idtype and id? Needs proc_lock. */
static bool wait_matches(const struct task *c, const struct wait_query *q)
{
	switch (q->idtype) {
	case P_PID:
		return c->pid == q->id;
	case P_PGID:
		return c->pgid == q->id;
	default:
		return true;
	}
}

/* Fill rep from zombie c; with take, unlink it for the caller to reap (not with WNOWAIT). Needs proc_lock. */
static void report_zombie(struct task *c, const struct wait_query *q, struct wait_report *rep, struct task **reap_me)
{
	rep->pid = c->pid;
	rep->status = c->exit_status;
	rusage_of_zombie(c, &rep->ru);
	if (!(q->options & WNOWAIT)) {
		list_del(&c->sibling);
		*reap_me = c;
	}
}

enum wait_scan {
	WAIT_NO_CHILD,          /* nothing matches: -ECHILD */
	WAIT_NOTHING_YET,       /* a match, but nothing to report: sleep, or 0 for WNOHANG */
	WAIT_FOUND,
};

/*
 * Look through p's children for the first one q wants to hear of: a zombie
 * (WEXITED), or a stop or continue not yet reported (Linux's
 * wait_task_stopped, wait_task_continued). Only with take is it reported
 * in *rep (the stop or continue consumed, unless WNOWAIT) and a zombie
 * unlinked into *reap_me. As in Linux, a zombie that q does not want
 * (no WEXITED) does not count as a child at all.
 */
static enum wait_scan scan_children(struct task *p, const struct wait_query *q, bool take,
				    struct wait_report *rep, struct task **reap_me)
{
	enum wait_scan r = WAIT_NO_CHILD;
	struct list_head *pos;
	bool consume = take && !(q->options & WNOWAIT);
	int status;

	spin_lock(&proc_lock);
	list_for_each(pos, &p->children) {
		struct task *c = list_entry(pos, struct task, sibling);

		if (!wait_matches(c, q))
			continue;
		if (c->exited) {
			if (!(q->options & WEXITED))
				continue;
			r = WAIT_FOUND;
			if (take)
				report_zombie(c, q, rep, reap_me);
			break;
		}
		r = WAIT_NOTHING_YET;
		if (signal_wait_report(c, q->options, consume, &status)) {
			r = WAIT_FOUND;
			if (take) {
				rep->pid = c->pid;
				rep->status = status;
			}
			break;
		}
	}
	spin_unlock(&proc_lock);
	return r;
}

/* The condition a waiting wait sleeps on: something to report, or no child left (-ECHILD). */
static bool wait_ready(struct task *p, const struct wait_query *q)
{
	return scan_children(p, q, false, NULL, NULL) != WAIT_NOTHING_YET;
}

/* Free a zombie once its CPU has switched away from its kernel stack. */
static void reap(struct task *c)
{
	while (READ_ONCE(c->state) != TASK_ZOMBIE || READ_ONCE(c->on_cpu))
		sched_yield();
	/* Its group is gone: times(), getrusage() and wait4 report its time as the parent's children's. */
	cputime_reap(current, c);
	spin_lock(&proc_lock);
	task_free(c);
	spin_unlock(&proc_lock);
}

/*
 * Check the user memory a report goes to before reaping a child, by writing
 * zeroes there: so a bad pointer loses no child (Linux reaps it and then
 * answers -EFAULT). Nothing is written when nothing is found.
 */
static int wait_check_dest(const struct wait_dest *d)
{
	static const struct rusage32 no_rusage;
	static const struct waitid_info32 no_info;

	if (d->urusage && copy_to_user(d->urusage, &no_rusage, sizeof(no_rusage)) < 0)
		return -EFAULT;
	if (d->ustatus && put_user_u32(d->ustatus, 0) < 0)
		return -EFAULT;
	if (d->uinfo && copy_to_user(d->uinfo, &no_info, sizeof(no_info)) < 0)
		return -EFAULT;
	return 0;
}

/* Put a zombie that scan_children() unlinked back among p's children. */
static void untake_zombie(struct task *p, struct task *c)
{
	spin_lock(&proc_lock);
	list_add_tail(&c->sibling, &p->children);
	spin_unlock(&proc_lock);
}

/*
 * Wait for a child that q wants to hear of; report it in *rep and reap it
 * if it exited (unless WNOWAIT). Its pid, or 0 with WNOHANG if nothing is
 * ready yet, or -errno in Linux's order: -ECHILD when nothing matches, 0 for
 * WNOHANG, and only then -EFAULT for bad memory in d (checked while the
 * child is still ours to give back). The caller writes *rep to d.
 */
static int do_wait(const struct wait_query *q, const struct wait_dest *d, struct wait_report *rep)
{
	/* The group's children hang under its leader: any thread may wait for them. */
	struct task *me = current->group_leader, *c = NULL;
	int r;

	for (;;) {
		enum wait_scan found = scan_children(me, q, true, rep, &c);

		if (found == WAIT_FOUND)
			break;
		if (found == WAIT_NO_CHILD)
			return -ECHILD;
		if (q->options & WNOHANG)
			return 0;
		/* A signal ends the wait: -ERESTARTSYS, restarted if its handler has SA_RESTART. */
		r = wait_event_interruptible(me->child_exit, wait_ready(me, q));
		if (r < 0)
			return r;
	}
	r = wait_check_dest(d);
	if (r < 0) {
		if (c)
			untake_zombie(me, c);
		return r;
	}
	if (c)
		reap(c);
	return rep->pid;
}

/* wait4's pid as a query: -1 any child, 0 one of our group, < -1 one of group -pid, > 0 that child. */
static struct wait_query wait4_query(int pid, int options)
{
	struct wait_query q = { P_ALL, 0, options | WEXITED };

	if (pid == 0) {
		q.idtype = P_PGID;
		q.id = current->pgid;
	} else if (pid < -1) {
		q.idtype = P_PGID;
		q.id = -pid;
	} else if (pid > 0) {
		q.idtype = P_PID;
		q.id = pid;
	}
	return q;
}

/* Write what was found (and checked by do_wait) to d: it can only fail if the process unmapped it meanwhile. */
static int wait_put_rusage(const struct wait_dest *d, const struct wait_report *rep)
{
	if (d->urusage && copy_to_user(d->urusage, &rep->ru, sizeof(rep->ru)) < 0)
		return -EFAULT;
	return 0;
}

long sys_wait4(int pid, int *ustatus, int options, void *urusage)
{
	struct wait_dest d = { ustatus, NULL, urusage };
	struct wait_report rep = { 0 };
	struct wait_query q;
	int r;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE))
		return -EINVAL;
	if (pid == -2147483647 - 1)
		return -ESRCH;          /* -pid would overflow: Linux's answer */
	q = wait4_query(pid, options);
	r = do_wait(&q, &d, &rep);
	if (r > 0 && (wait_put_rusage(&d, &rep) < 0 ||
		      (ustatus && put_user_u32(ustatus, (uint32_t)rep.status) < 0)))
		return -EFAULT;
	return r;
}

/* waitid's arguments as a query, checked as Linux checks them: 0 or -EINVAL. */
static int waitid_query(int idtype, int id, int options, struct wait_query *q)
{
	if (options & ~(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE))
		return -EINVAL;
	if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
		return -EINVAL;         /* nothing to wait for */
	switch (idtype) {
	case P_ALL:
		id = 0;
		break;
	case P_PID:
		if (id <= 0)
			return -EINVAL;
		break;
	case P_PGID:
		if (id < 0)
			return -EINVAL;
		if (id == 0)
			id = current->pgid;     /* Linux 5.4 and later: the caller's group */
		break;
	default:
		return -EINVAL;         /* P_PIDFD among them: smpix has no pidfds */
	}
	q->idtype = idtype;
	q->id = id;
	q->options = options;
	return 0;
}

/* A wait4 status word as waitid tells it: si_code (CLD_*) and si_status. */
static void waitid_info_of(const struct wait_report *rep, struct waitid_info32 *info)
{
	int st = rep->status;

	info->signo = SIGCHLD;
	info->pid = rep->pid;
	info->uid = 0;                  /* every process is root's on smpix (getuid() is 0) */
	if (WIFCONTINUED(st)) {
		info->code = CLD_CONTINUED;
		info->status = SIGCONT;
	} else if (WIFSTOPPED(st)) {
		info->code = CLD_STOPPED;
		info->status = WSTOPSIG(st);
	} else if (WIFSIGNALED(st)) {
		info->code = (st & 0x80) ? CLD_DUMPED : CLD_KILLED;
		info->status = WTERMSIG(st);
	} else {
		info->code = CLD_EXITED;
		info->status = WEXITSTATUS(st);
	}
}

/*
 * waitid(idtype, id, infop, options, rusage): as Linux, 0 when a child was
 * reported (in infop: si_signo SIGCHLD, si_code, si_pid, si_uid,
 * si_status), 0 with si_signo and si_pid 0 for WNOHANG with nothing ready.
 * Like Linux, infop is written (zeroes) even when the wait fails, so a bad
 * infop turns any answer into -EFAULT.
 */
long sys_waitid(int idtype, int id, void *uinfo, int options, void *urusage)
{
	struct wait_dest d = { NULL, uinfo, urusage };
	struct wait_report rep = { 0 };
	struct waitid_info32 info = { 0 };
	struct wait_query q;
	int r;

	r = waitid_query(idtype, id, options, &q);
	if (r == 0)
		r = do_wait(&q, &d, &rep);
	if (r > 0) {
		waitid_info_of(&rep, &info);
		if (wait_put_rusage(&d, &rep) < 0)
			return -EFAULT;
		r = 0;
	}
	if (uinfo && copy_to_user(uinfo, &info, sizeof(info)) < 0)
		return -EFAULT;
	return r;
}

int proc_wait(int pid, int *status)
{
	struct wait_dest d = { NULL, NULL, NULL };
	struct wait_report rep = { 0 };
	struct wait_query q = wait4_query(pid, 0);
	int r = do_wait(&q, &d, &rep);

	*status = rep.status;
	return r;
}

long sys_waitpid(int pid, int *ustatus, int options)
{
	return sys_wait4(pid, ustatus, options, NULL);
}

/* The process's id: its thread group's (gettid() is the thread's own). */
long sys_getpid(void)
{
	return current->tgid;
}

long sys_getppid(void)
{
	struct task *parent;
	int ppid;

	spin_lock(&proc_lock);
	parent = current->group_leader->parent;
	ppid = parent ? parent->tgid : 0;
	spin_unlock(&proc_lock);
	return ppid;
}

long sys_brk(uintptr_t addr)
{
	return (long)mm_brk(current->mm, addr);
}

void proc_init(void)
{
	syscall_init();
}

/* Every thread of the process ends (exit() ends only the caller's). */
long sys_exit_group(int code)
{
	thread_group_exit(W_EXITCODE(code, 0));
}
