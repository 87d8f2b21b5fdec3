/*
 * Process groups and sessions, with Linux's rules. A session is what a login
 * and its terminal share; inside it, each job (a shell pipeline) is a
 * process group, so ^C can signal the whole job at once (kill(-pgid)). Every
 * process has the pgid and sid of its group and session; the leader of
 * either is the process whose pid they are. The fields live in struct task
 * and, like the rest of the process tree, are protected by proc_lock.
 */
#include "kernel/process/pgrp.h"

#include "kernel/locking/atomic.h"
#include "kernel/process/proc.h"
#include "kernel/process/thread.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"

void pgrp_fork(struct task *child, const struct task *parent)
{
	child->pgid = parent->pgid;
	child->sid = parent->sid;
}

void pgrp_make_leader(struct task *t)
{
	t->pgid = t->sid = t->pid;
}

/*
 * A live process (not a zombie, not a kernel thread), named by its group
 * leader: its other threads are the same process, not more of them; a
 * leader that has exited before its threads still stands for them. Needs tasks_lock.
 */
static bool is_live_process(const struct task *t)
{
	return t->is_process && !t->exited && t->state != TASK_NEW && t->state != TASK_DEAD &&
	       thread_group_leader(t) && READ_ONCE(t->group->nr_threads) > 0;
}

/*
 * Call fn(t, arg) for every live process that match(t, key) accepts, with
 * proc_lock held (so none is freed meanwhile); how many there were.
 */
static int for_each_process(bool (*match)(const struct task *, int), int key,
			    void (*fn)(struct task *, int), int arg)
{
	struct list_head *pos;
	uint32_t flags;
	int n = 0;

	assert_spin_held(&proc_lock);
	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);

		if (is_live_process(t) && match(t, key)) {
			n++;
			fn(t, arg);
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return n;
}

static bool in_group(const struct task *t, int pgid)
{
	return t->pgid == pgid;
}

#define ANY_SESSION (-1)               /* for group_member(): sids are pids, never negative */

/*
 * A live member of process group pgid in session sid (any session: ANY_SESSION),
 * the first in all_tasks; NULL if there is none. Needs proc_lock, which also keeps
 * the member from being freed while the caller looks at it.
 */
static struct task *group_member(int pgid, int sid)
{
	struct list_head *pos;
	struct task *member = NULL;
	uint32_t flags;

	assert_spin_held(&proc_lock);
	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);

		if (is_live_process(t) && t->pgid == pgid && (sid == ANY_SESSION || t->sid == sid)) {
			member = t;
			break;
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return member;
}

int pgrp_session(int pgid)
{
	struct task *t;
	int sid;

	spin_lock(&proc_lock);
	t = group_member(pgid, ANY_SESSION);
	sid = t ? t->sid : -ESRCH;
	spin_unlock(&proc_lock);
	return sid;
}

/*
 * Is group pgid orphaned? POSIX's word for a group no process could bring
 * back from a stop: none of its members has a parent in another group of
 * the same session (the shell that started the job, typically). init, which
 * adopts orphans, does not count. Linux's will_become_orphaned_pgrp().
 * Needs proc_lock.
 */
static bool orphaned_locked(int pgid)
{
	struct list_head *pos;
	uint32_t flags;
	bool orphaned = true;

	assert_spin_held(&proc_lock);
	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		struct task *parent;

		if (!is_live_process(t) || t->pgid != pgid)
			continue;
		parent = t->parent;
		if (!parent || parent == init_task)
			continue;
		if (parent->pgid != pgid && parent->sid == t->sid) {
			orphaned = false;
			break;
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return orphaned;
}

bool pgrp_orphaned(int pgid)
{
	bool yes;

	spin_lock(&proc_lock);
	yes = orphaned_locked(pgid);
	spin_unlock(&proc_lock);
	return yes;
}

/* Is any process of group pgid stopped, the stop complete? Linux's has_stopped_jobs(). Needs proc_lock. */
static bool has_stopped_jobs(int pgid)
{
	struct list_head *pos;
	uint32_t flags;
	bool yes = false;

	assert_spin_held(&proc_lock);
	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);

		/* Read without the signal lock, as Linux does: a stop racing with this exit may be missed. */
		if (is_live_process(t) && t->pgid == pgid && READ_ONCE(t->group->stopped) &&
		    READ_ONCE(t->group->stop_count) == 0) {
			yes = true;
			break;
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return yes;
}

static void send_kernel(struct task *t, int sig)
{
	signal_send(t, sig);
}

void pgrp_exit_check_orphaned(struct task *t, const struct task *parent)
{
	int pgid = t->pgid;

	assert_spin_held(&proc_lock);
	/* Only a link to another group of the same session can have been the last one. */
	if (!parent || parent->pgid == pgid || parent->sid != t->sid)
		return;
	if (!has_stopped_jobs(pgid) || !orphaned_locked(pgid))
		return;
	/* SIGHUP first: once continued, a member that does not catch it dies of it. */
	for_each_process(in_group, pgid, send_kernel, SIGHUP);
	for_each_process(in_group, pgid, send_kernel, SIGCONT);
}

static bool not_init_nor_caller(const struct task *t, int unused)
{
	return t != init_task && t->group != current->group;
}

static void send_one(struct task *t, int sig)
{
	signal_send_from_user(t, sig, SI_USER, false);
}

int pgrp_kill(int pgid, int sig)
{
	int n;

	if (pgid <= 0)
		return -ESRCH;
	spin_lock(&proc_lock);
	n = for_each_process(in_group, pgid, send_one, sig);
	spin_unlock(&proc_lock);
	return n ? 0 : -ESRCH;
}

int pgrp_kill_all(int sig)
{
	int n;

	spin_lock(&proc_lock);
	n = for_each_process(not_init_nor_caller, 0, send_one, sig);
	spin_unlock(&proc_lock);
	return n ? 0 : -ESRCH;
}

/* The process pid names for get*id (0: the caller). Needs proc_lock. */
static struct task *lookup(int pid)
{
	struct task *t = pid == 0 ? current : task_find(pid);

	return t && !t->exited ? t : NULL;
}

/* Every thread of t's process joins group pgid (and session sid): they are one process. Needs proc_lock. */
static void set_ids(struct task *t, int pgid, int sid)
{
	struct task *th;

	for_each_thread(t->group, th) {
		th->pgid = pgid;
		th->sid = sid;
	}
}

/*
 * setpgid(pid, pgid): move pid (the caller or one of its children) into
 * group pgid of its own session, or make it the leader of a new group
 * (pgid == pid). Linux's checks, in Linux's order. A process is its thread
 * group: pid 0 is the caller's, and any thread may move it.
 */
long sys_setpgid(int pid, int pgid)
{
	struct task *me = current->group_leader, *t;
	int r = 0;

	if (pid == 0)
		pid = me->pid;
	if (pgid == 0)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	spin_lock(&proc_lock);
	t = task_find(pid);
	if (t && !thread_group_leader(t)) {
		r = -EINVAL;            /* a thread's own id names no process */
	} else if (!t || t->exited || (t != me && t->parent != me)) {
		r = -ESRCH;
	} else if (t != me && t->sid != me->sid) {
		r = -EPERM;
	} else if (t != me && t->did_exec) {
		r = -EACCES;            /* a child that has exec'd is no longer ours to move */
	} else if (t->sid == t->pid) {
		r = -EPERM;             /* a session leader stays the leader of its group */
	} else if (pgid != pid && !group_member(pgid, me->sid)) {
		r = -EPERM;             /* only a group of our own session may be joined */
	} else {
		set_ids(t, pgid, t->sid);
	}
	spin_unlock(&proc_lock);
	return r;
}

enum which_id { PGID, SID };

/* For getpgid and getsid: the group or the session of the process pid names (0: the caller). */
static long id_of(int pid, enum which_id which)
{
	struct task *t;
	int r;

	if (pid < 0)
		return -ESRCH;
	spin_lock(&proc_lock);
	t = lookup(pid);
	if (!t)
		r = -ESRCH;
	else
		r = which == PGID ? t->pgid : t->sid;
	spin_unlock(&proc_lock);
	return r;
}

long sys_getpgid(int pid)
{
	return id_of(pid, PGID);
}

long sys_getpgrp(void)
{
	return sys_getpgid(0);
}

long sys_getsid(int pid)
{
	return id_of(pid, SID);
}

/*
 * setsid(): a new session and group, both led by the caller. Not for a
 * group leader: its group's other members would end up in another session.
 * The new session has no controlling terminal: a tty belongs to the session
 * whose id it recorded (drivers/tty/tty.c), and that is not this new one.
 */
long sys_setsid(void)
{
	struct task *me = current->group_leader;
	int r;

	spin_lock(&proc_lock);
	if (group_member(me->pid, ANY_SESSION)) {
		r = -EPERM;
	} else {
		set_ids(me, me->pid, me->pid);
		r = me->pid;
	}
	spin_unlock(&proc_lock);
	return r;
}
