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
	reparent_children(leader);
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
	struct sighand *sh;
	uint32_t flags;

	if (init_task && t->group == init_task->group && READ_ONCE(t->group->nr_threads) == 1) {
		printk("smpix: init (pid %d) exited with status 0x%x; powering off\n", t->tgid, status);
		power_off();
	}
	sh = signal_lock(t, &flags);
	t->exiting = true;              /* signals for the process go to the other threads now */
	signal_unlock(sh, flags);
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
	itimer_exit(t);                 /* no SIGALRM for a process that is gone */

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

/* Does c match wait4's pid argument? -1 any child, 0 one of our group, < -1 one of group -pid. Needs proc_lock. */
static bool wait_matches(const struct task *c, int pid)
{
	if (pid == -1)
		return true;
	if (pid == 0)
		return c->pgid == current->pgid;
	if (pid < -1)
		return c->pgid == -pid;
	return c->pid == pid;
}

/* Look for a matching zombie; unlink and return it. *any says whether any child matched. */
static struct task *take_zombie(struct task *p, int pid, bool *any)
{
	struct list_head *pos;
	struct task *found = NULL;

	*any = false;
	spin_lock(&proc_lock);
	list_for_each(pos, &p->children) {
		struct task *c = list_entry(pos, struct task, sibling);

		if (!wait_matches(c, pid))
			continue;
		*any = true;
		if (c->exited) {
			list_del(&c->sibling);
			found = c;
			break;
		}
	}
	spin_unlock(&proc_lock);
	return found;
}

static bool has_zombie(struct task *p, int pid)
{
	struct list_head *pos;
	bool yes = false;

	spin_lock(&proc_lock);
	list_for_each(pos, &p->children) {
		struct task *c = list_entry(pos, struct task, sibling);
		if (wait_matches(c, pid) && c->exited)
			yes = true;
	}
	/* No matching child at all is also a reason to stop waiting (-ECHILD follows). */
	if (!yes) {
		yes = true;
		list_for_each(pos, &p->children)
			if (wait_matches(list_entry(pos, struct task, sibling), pid))
				yes = false;
	}
	spin_unlock(&proc_lock);
	return yes;
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
 * Check the rusage and status pointers of a wait4() that found a child to
 * reap, before reaping it: so a bad pointer loses no child (Linux reaps it
 * and then answers -EFAULT). Nothing is written when nothing is reaped.
 */
static int wait_check_pointers(int *ustatus, void *urusage)
{
	static const struct rusage32 zeroes;

	if (urusage && copy_to_user(urusage, &zeroes, sizeof(zeroes)) < 0)
		return -EFAULT;
	if (ustatus && put_user_u32(ustatus, 0) < 0)
		return -EFAULT;
	return 0;
}

/* Put a zombie that take_zombie() unlinked back among p's children. */
static void untake_zombie(struct task *p, struct task *c)
{
	spin_lock(&proc_lock);
	list_add_tail(&c->sibling, &p->children);
	spin_unlock(&proc_lock);
}

/*
 * Wait for a child matching pid to exit and reap it: its pid (0 with WNOHANG
 * if none yet) or -errno, in Linux's order: -ECHILD when nothing matches, 0
 * for WNOHANG when nothing has exited, and only then -EFAULT for a bad
 * pointer (checked while the child is still ours to give back).
 */
static int do_wait(int pid, int options, int *status, int *ustatus, void *urusage)
{
	struct task *c;
	struct rusage32 ru;
	bool any;
	int r, cpid;

	/* The group's children hang under its leader: any thread may wait for them. */
	struct task *me = current->group_leader;

	for (;;) {
		c = take_zombie(me, pid, &any);
		if (c)
			break;
		if (!any)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		/* A signal ends the wait: -ERESTARTSYS, restarted if its handler has SA_RESTART. */
		r = wait_event_interruptible(me->child_exit, has_zombie(me, pid));
		if (r < 0)
			return r;
	}
	r = wait_check_pointers(ustatus, urusage);
	if (r < 0) {
		untake_zombie(me, c);
		return r;
	}
	cpid = c->pid;
	*status = c->exit_status;
	if (urusage)
		rusage_of_zombie(c, &ru);
	reap(c);
	/* Checked above; it can only fail now if the process unmapped it meanwhile. */
	if (urusage && copy_to_user(urusage, &ru, sizeof(ru)) < 0)
		return -EFAULT;
	return cpid;
}

long sys_wait4(int pid, int *ustatus, int options, void *urusage)
{
	int r, status = 0;

	/* Stopped and continued children do not exist yet: those flags are accepted and find none. */
	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE))
		return -EINVAL;
	r = do_wait(pid, options, &status, ustatus, urusage);
	/* Checked in do_wait(); it can only fail now if the process unmapped it meanwhile. */
	if (r > 0 && ustatus && put_user_u32(ustatus, (uint32_t)status) < 0)
		return -EFAULT;
	return r;
}

int proc_wait(int pid, int *status)
{
	return do_wait(pid, 0, status, NULL, NULL);
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
