/*
 * Thread groups: clone(CLONE_THREAD) joins one, exit() leaves it,
 * exit_group() ends it, execve() empties it (Linux's de_thread).
 *
 * The rules, as in Linux 2.6:
 *  - a group is named by its leader's pid (getpid() in every thread);
 *  - only the leader is anybody's child: the group's children hang under
 *    it, so wait4 in any thread sees them, and its parent reaps it once,
 *    when the LAST thread has gone; a leader that exits first waits for the
 *    others as a zombie nobody can reap yet;
 *  - the other threads are nobody's child: each is freed after its last
 *    switch (task_exit_final(), as an orphan would be);
 *  - a fatal signal, exit_group() or a fault nobody handles kills every
 *    thread (kernel/signal/deliver.c), and the group's wait status is then
 *    the one exit_group() gave, whichever thread ends last;
 *  - execve() kills the others first, and a thread that is not the leader
 *    takes the leader's place and pid, so the parent's wait4 still finds it.
 */
#include "kernel/process/thread.h"

#include "kernel/futex/futex.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/proc.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"

int thread_group_init(struct task *t)
{
	struct thread_group *g = kzalloc(sizeof(*g));

	if (!g)
		return -ENOMEM;
	atomic_set(&g->refs, 1);
	list_init(&g->threads);
	list_add_tail(&t->thread_link, &g->threads);
	g->nr_threads = 1;
	atomic_set(&g->live, 1);
	g->leader = t;
	wait_queue_init(&g->exec_wait, "exec_wait");
	t->group = g;
	t->group_leader = t;
	t->tgid = t->pid;
	return 0;
}

static void group_put(struct thread_group *g)
{
	if (g && atomic_dec_and_test(&g->refs))
		kfree(g);
}

void thread_group_release(struct task *t)
{
	group_put(t->group);
	t->group = NULL;
}

bool thread_group_leader(const struct task *t)
{
	return t->group_leader == t;
}

bool thread_group_empty(const struct task *t)
{
	return t->group->nr_threads <= 1;
}

int thread_join_group(struct task *c)
{
	struct task *p = current;
	struct thread_group *g = p->group, *own = NULL;
	struct sighand *sh;
	uint32_t flags;
	int r = 0;

	/* c shares p's sighand already (CLONE_THREAD needs CLONE_SIGHAND): one lock covers both. */
	spin_lock(&proc_lock);
	sh = signal_lock(p, &flags);
	if (g->group_exit || g->exec_task || p->killed) {
		/* The group is going: no new thread may escape it. Invisible: p dies on its way out. */
		r = -ERESTARTNOINTR;
	} else {
		list_del(&c->thread_link);
		own = c->group;         /* c's group of one, freed below: not under the signal lock */
		atomic_inc(&g->refs);
		c->group = g;
		c->tgid = p->tgid;
		c->group_leader = p->group_leader;
		list_add_tail(&c->thread_link, &g->threads);
		g->nr_threads++;
		atomic_inc(&g->live);
	}
	signal_unlock(sh, flags);
	spin_unlock(&proc_lock);
	/*
	 * kfree() takes the heap's lock, which is taken with interrupts on; the
	 * signal lock is taken in the timer interrupt (itimer_tick): freeing
	 * under it would order the two in a way that can deadlock (lockdep says so).
	 */
	group_put(own);
	return r;
}

void thread_group_exit(int code)
{
	struct task *t = current;
	struct thread_group *g = t->group;
	struct sighand *sh;
	uint32_t flags;

	sh = signal_lock(t, &flags);
	if (g->group_exit) {
		code = g->group_exit_code;      /* someone ended the group first: its status wins */
	} else if (!g->exec_task || g->exec_task == t) {
		g->group_exit = true;
		g->group_exit_code = code;
		g->stopped = false;
		signal_kill_threads(t, t);
	}
	/* else an execve() in another thread killed us: go quietly, the group lives on there. */
	signal_unlock(sh, flags);
	proc_exit(code);
}

bool thread_exit_begin(struct task *t)
{
	return atomic_dec_and_test(&t->group->live);
}

void thread_exit_mm(struct task *t)
{
	uint32_t uaddr = t->clear_child_tid;

	if (!t->mm)
		return;
	/* Linux's mm_release() order: robust futexes first, then the tid word. */
	futex_exit_robust_list(t);
	t->clear_child_tid = 0;
	/* Nobody else can see the word when nobody else uses the memory. */
	if (uaddr && READ_ONCE(t->mm->users) > 1) {
		put_user_u32((void *)uaddr, 0);         /* a bad address is ignored, as in Linux */
		futex_wake_uaddr(t->mm, uaddr, 1);      /* pthread_join() sleeps on it */
	}
}

bool thread_unlink(struct task *t)
{
	struct thread_group *g = t->group;
	struct sighand *sh;
	uint32_t flags;
	bool last, exec_may_go;

	assert_spin_held(&proc_lock);
	cputime_thread_exit(t);         /* its time stays in the group's books (times, getrusage) */
	sh = signal_lock(t, &flags);
	list_del(&t->thread_link);
	list_init(&t->thread_link);
	g->nr_threads--;
	last = g->nr_threads == 0;
	exec_may_go = g->exec_task && g->nr_threads == 1;
	signal_unlock(sh, flags);
	if (exec_may_go)
		wake_up(&g->exec_wait);
	return last;
}

int thread_group_status(const struct task *last)
{
	const struct thread_group *g = last->group;

	/* Not the leader's own: Linux 6.1 reports the last thread's exit(), as the Linux reference shows. */
	return g->group_exit ? g->group_exit_code : last->exit_status;
}

/*
 * current (not the leader) becomes the leader: it takes the old leader's
 * pid, parent, place among the parent's children, children, process group
 * and start time, as Linux's de_thread() does; the old leader, a zombie
 * with no one to report to, is freed. The other threads are gone already.
 */
static void take_leadership(struct task *t)
{
	struct task *old = t->group_leader;
	struct list_head *pos, *tmp;
	uint32_t flags;
	int pid;

	/* It exited before us (it is off the thread list): wait until its CPU has left its stack. */
	while (READ_ONCE(old->state) != TASK_ZOMBIE || READ_ONCE(old->on_cpu))
		sched_yield();
	spin_lock(&proc_lock);
	spin_lock_irqsave(&tasks_lock, flags);
	pid = t->pid;
	t->pid = old->pid;
	old->pid = pid;
	spin_unlock_irqrestore(&tasks_lock, flags);
	t->parent = old->parent;
	if (old->parent)
		list_add_tail(&t->sibling, &old->parent->children);
	list_del(&old->sibling);
	list_init(&old->sibling);
	list_for_each_safe(pos, tmp, &old->children) {
		struct task *c = list_entry(pos, struct task, sibling);

		list_del(&c->sibling);
		c->parent = t;
		list_add_tail(&c->sibling, &t->children);
	}
	t->exit_signal = old->exit_signal;
	t->pgid = old->pgid;
	t->sid = old->sid;
	t->start_ns = old->start_ns;
	t->group_leader = t;
	itimer_set_leader(t->group, t);        /* the real timer's SIGALRM goes to the leader */
	old->parent = NULL;
	old->exited = true;             /* kill() and tgkill() must not find it any more */
	task_free(old);
	spin_unlock(&proc_lock);
}

static bool others_gone(struct thread_group *g)
{
	return READ_ONCE(g->nr_threads) == 1;
}

int thread_de_thread(void)
{
	struct task *t = current;
	struct thread_group *g = t->group;
	struct sighand *sh;
	uint32_t flags;
	int r;

	if (others_gone(g) && thread_group_leader(t))
		return 0;               /* a process of one thread: the common case */
	sh = signal_lock(t, &flags);
	if (g->group_exit || g->exec_task) {
		signal_unlock(sh, flags);
		return -EINTR;          /* killed, or another thread's execve() won: we are on our way out */
	}
	g->exec_task = t;
	signal_kill_threads(t, t);
	signal_unlock(sh, flags);
	r = wait_event_killable(g->exec_wait, others_gone(g));
	if (r == 0 && !thread_group_leader(t))
		take_leadership(t);
	sh = signal_lock(t, &flags);
	g->exec_task = NULL;
	signal_unlock(sh, flags);
	return r < 0 ? -EINTR : 0;
}
