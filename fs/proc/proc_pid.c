/*
 * The per-process /proc files: /proc/PID/stat, status, cmdline and exe.
 *
 * A file names its process by pid, never by pointer: each read finds the
 * task again with tasks_lock held (a task leaves all_tasks under that lock
 * before it is freed) and prints it before letting go, so a process that
 * exits between open() and read() is simply gone (the read shows nothing).
 * proc_lock is taken first, for the parent link, as kernel/process/proc.h orders.
 */
#include "fs/proc/proc_files.h"

#include "fs/proc/procbuf.h"
#include "fs/proc/task_state.h"
#include "kernel/cpu.h"
#include "kernel/process/exec_info.h"
#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/mm.h"
#include "kernel/process/proc.h"
#include "kernel/process/thread.h"
#include "kernel/signal/signal.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/signal.h"


/*
 * Processes and their threads, as kill() and tgkill() see them
 * (kernel/sched/task.c: task_find): a leader that exited before its
 * threads still stands for them. tasks_lock held.
 */
static bool shown(const struct task *t)
{
	if (t->state == TASK_DEAD || t->state == TASK_NEW)
		return false;
	return t->mm || (t->is_process && t->group_leader == t && !t->exited &&
			 READ_ONCE(t->group->nr_threads) > 0);
}

/* The task with pid, or NULL. tasks_lock held: the task stays valid while it is. */
static struct task *find_locked(int pid)
{
	struct list_head *pos;

	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);

		if (t->pid == pid && shown(t))
			return t;
	}
	return NULL;
}

bool proc_pid_exists(int pid)
{
	uint32_t flags;
	bool found;

	spin_lock_irqsave(&tasks_lock, flags);
	found = find_locked(pid) != NULL;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return found;
}

/* The smallest pid >= from of the tasks /proc shows for which pick(t, key) holds, or -1. */
static int smallest_shown(int from, bool (*pick)(const struct task *t, int key), int key)
{
	struct list_head *pos;
	int best = -1;
	uint32_t flags;

	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);

		if (shown(t) && pick(t, key) && t->pid >= from && (best < 0 || t->pid < best))
			best = t->pid;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return best;
}

/* /proc lists processes; a thread's own directory is there, unlisted, as in Linux. */
static bool is_process(const struct task *t, int unused)
{
	return t->group_leader == t;
}

static bool in_group(const struct task *t, int tgid)
{
	return t->tgid == tgid;
}

int proc_pid_next(int from)
{
	return smallest_shown(from, is_process, 0);
}

/* The smallest id >= from of a thread of process tgid that /proc shows, or -1: for /proc/PID/task. */
int proc_tid_next(int tgid, int from)
{
	return smallest_shown(from, in_group, tgid);
}

int proc_tid_tgid(int tid)
{
	struct task *t;
	uint32_t flags;
	int tgid;

	spin_lock_irqsave(&tasks_lock, flags);
	t = find_locked(tid);
	tgid = t ? t->tgid : -1;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return tgid;
}

static const char *state_name(char letter)
{
	switch (letter) {
	case 'S':
		return "S (sleeping)";
	case 'T':
		return "T (stopped)";
	case 'Z':
		return "Z (zombie)";
	case 'X':
		return "X (dead)";
	default:
		return "R (running)";
	}
}

/*
 * Everything the files print, copied under the locks so the printing
 * happens from a stable snapshot.
 */
struct pid_snapshot {
	int pid, ppid, pgid, sid, cpu;
	char state;
	char name[TASK_NAME_LEN];
	uint32_t cpus_allowed;
	int tgid, threads;
	uint64_t sig_pending, sig_shared, sig_blocked, sig_ignored, sig_caught; /* bit n-1: signal n */
	uint64_t runtime_ns, switches, start_ns;
	uint64_t wait_max_ns, wait_sum_ns, wait_max_ticks, wait_count;
	uint32_t vm_pages, brk_start, brk;
	/* CPU time (kernel/time/cputime.c): the thread's own, its whole group's, the group's reaped children's. */
	struct task_cputime thread_time, group_time, children_time;
};

static bool snapshot(int pid, struct pid_snapshot *s)
{
	struct task *t;
	uint32_t flags;

	spin_lock(&proc_lock);
	spin_lock_irqsave(&tasks_lock, flags);
	t = find_locked(pid);
	if (t) {
		s->pid = t->pid;
		s->tgid = t->tgid;
		s->threads = READ_ONCE(t->group->nr_threads);
		s->ppid = t->group_leader->parent ? t->group_leader->parent->tgid : 0;
		s->cpu = t->cpu;
		s->state = task_state_letter(t->state);
		if (s->state == 'S' && READ_ONCE(t->sig.job_stopped))
			s->state = 'T';         /* asleep in a group stop (kernel/signal/deliver.c) */
		strlcpy(s->name, t->name, sizeof(s->name));
		s->pgid = t->pgid;
		s->sid = t->sid;
		/*
		 * The signal sets are read without t->sig.lock (not taken under
		 * tasks_lock anywhere else): a display may be one signal behind.
		 */
		s->sig_pending = READ_ONCE(t->sig.pending);
		s->sig_shared = READ_ONCE(t->group->shared_pending);
		s->sig_blocked = READ_ONCE(t->sig.blocked);
		s->sig_ignored = s->sig_caught = 0;
		for (int sig = 1; sig <= _NSIG; sig++) {
			uint32_t h = READ_ONCE(t->sighand->action[sig - 1].sa_handler);

			if (h == SIG_IGN)
				s->sig_ignored |= 1ull << (sig - 1);
			else if (h != SIG_DFL)
				s->sig_caught |= 1ull << (sig - 1);
		}
		s->cpus_allowed = t->cpus_allowed;
		cputime_of_task(t, &s->thread_time);
		cputime_of_group(t, &s->group_time);
		cputime_of_children(t, &s->children_time);
		s->runtime_ns = t->runtime_ns;
		s->switches = t->switches;
		s->start_ns = t->start_ns;
		s->wait_max_ns = t->wait_max_ns;
		s->wait_sum_ns = t->wait_sum_ns;
		s->wait_max_ticks = t->wait_max_ticks;
		s->wait_count = t->wait_count;
		/*
		 * mm is the process's own to replace (execve) without these locks:
		 * these few words are for display, and a struct mm stays readable
		 * kernel memory even just after it is freed.
		 */
		s->vm_pages = t->mm ? READ_ONCE(t->mm->npages) : 0;
		s->brk_start = t->mm ? READ_ONCE(t->mm->brk_start) : 0;
		s->brk = t->mm ? READ_ONCE(t->mm->brk) : 0;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	spin_unlock(&proc_lock);
	return t != NULL;
}

/* ns in clock ticks, the unit of /proc/PID/stat's times. */
static uint64_t ns_to_ticks(uint64_t ns)
{
	return ns / (1000000000ull / USER_HZ);
}

/*
 * /proc/PID/stat and /proc/PID/task/TID/stat: one line, Linux's 52 fields
 * in Linux's order (man 5 proc). A process's line has its whole thread
 * group's CPU time (whole), a thread's its own, as in Linux. Fields smpix
 * does not have (page faults, a controlling tty) are 0, as Linux shows for
 * a process that has none.
 */
static void show_stat(struct procbuf *pb, int pid, bool whole)
{
	struct pid_snapshot s;
	struct cputime_split own, children;

	if (!snapshot(pid, &s))
		return;
	cputime_split(whole ? &s.group_time : &s.thread_time, &own);
	cputime_split(&s.children_time, &children);
	/* 1 pid, 2 comm, 3 state, 4 ppid, 5 pgrp, 6 session, 7 tty_nr, 8 tpgid, 9 flags */
	procbuf_printf(pb, "%d (%s) %c %d %d %d 0 -1 0 ", s.pid, s.name, s.state, s.ppid, s.pgid, s.sid);
	/* 10 minflt, 11 cminflt, 12 majflt, 13 cmajflt, 14 utime, 15 stime, 16 cutime, 17 cstime */
	procbuf_printf(pb, "0 0 0 0 %llu %llu %llu %llu ", ns_to_ticks(own.user_ns), ns_to_ticks(own.system_ns),
		       ns_to_ticks(children.user_ns), ns_to_ticks(children.system_ns));
	/* 18 priority, 19 nice, 20 num_threads, 21 itrealvalue, 22 starttime (ticks since boot), 23 vsize, 24 rss */
	procbuf_printf(pb, "20 0 %d 0 %llu %u %u ", s.threads, ns_to_ticks(s.start_ns),
		       s.vm_pages * PAGE_SIZE, s.vm_pages);
	/* 25 rsslim, 26 startcode, 27 endcode, 28 startstack, 29 kstkesp, 30 kstkeip */
	procbuf_printf(pb, "4294967295 0 0 0 0 0 ");
	/* 31 signal, 32 blocked, 33 sigignore, 34 sigcatch (the first 32 signals, bit n-1), 35 wchan */
	procbuf_printf(pb, "%u %u %u %u 0 ", (uint32_t)s.sig_pending, (uint32_t)s.sig_blocked,
		       (uint32_t)s.sig_ignored, (uint32_t)s.sig_caught);
	/* 36 nswap, 37 cnswap, 38 exit_signal, 39 processor (the CPU it runs or last ran on), 40 rt_priority, 41 policy */
	procbuf_printf(pb, "0 0 17 %d 0 0 ", s.cpu);
	/* 42 delayacct_blkio_ticks, 43 guest_time, 44 cguest_time, 45 start_data, 46 end_data */
	procbuf_printf(pb, "0 0 0 0 0 ");
	/* 47 start_brk, 48 arg_start, 49 arg_end, 50 env_start, 51 env_end, 52 exit_code */
	procbuf_printf(pb, "%u 0 0 0 0 0\n", s.brk_start);
}

void proc_show_pid_stat(struct procbuf *pb, void *arg)
{
	show_stat(pb, (int)(uintptr_t)arg, true);
}

void proc_show_tid_stat(struct procbuf *pb, void *arg)
{
	show_stat(pb, (int)(uintptr_t)arg, false);
}

/* "12.340000 s": a status line's time. */
static void status_seconds(struct procbuf *pb, const char *name, uint64_t ns)
{
	procbuf_printf(pb, "%s:\t%llu.%06u s\n", name, ns / 1000000000ull, (uint32_t)(ns % 1000000000ull / 1000));
}

/*
 * smpix's own lines, after Linux's: the time spent spinning for locks, and
 * the BKL's share of it, which Linux counts as system time without a word
 * (kernel/time/cputime.c). The process's (all its threads) or the thread's,
 * then the children's it has waited for, as cutime beside utime.
 */
static void show_spin_lines(struct procbuf *pb, const struct pid_snapshot *s, bool whole)
{
	struct cputime_split own, children;

	cputime_split(whole ? &s->group_time : &s->thread_time, &own);
	cputime_split(&s->children_time, &children);
	status_seconds(pb, "SpinTime", own.spin_ns);
	status_seconds(pb, "BKLTime", own.bkl_ns);
	status_seconds(pb, "CSpinTime", children.spin_ns);
	status_seconds(pb, "CBKLTime", children.bkl_ns);
}

/* /proc/PID/status: "Name:\tvalue" lines, Linux's names and order for those smpix has, then smpix's. */
static void show_status(struct procbuf *pb, int pid, bool whole)
{
	struct pid_snapshot s;

	if (!snapshot(pid, &s))
		return;
	procbuf_printf(pb, "Name:\t%s\n", s.name);
	procbuf_printf(pb, "State:\t%s\n", state_name(s.state));
	procbuf_printf(pb, "Tgid:\t%d\n", s.tgid);
	procbuf_printf(pb, "Ngid:\t0\n");
	procbuf_printf(pb, "Pid:\t%d\n", s.pid);
	procbuf_printf(pb, "PPid:\t%d\n", s.ppid);
	procbuf_printf(pb, "TracerPid:\t0\n");
	procbuf_printf(pb, "Uid:\t0\t0\t0\t0\n");
	procbuf_printf(pb, "Gid:\t0\t0\t0\t0\n");
	procbuf_printf(pb, "VmSize:\t%8u kB\n", s.vm_pages * (PAGE_SIZE / 1024));
	procbuf_printf(pb, "VmRSS:\t%8u kB\n", s.vm_pages * (PAGE_SIZE / 1024));
	procbuf_printf(pb, "VmData:\t%8u kB\n", (s.brk - s.brk_start) / 1024);
	procbuf_printf(pb, "Threads:\t%d\n", s.threads);
	procbuf_printf(pb, "SigPnd:\t%016llx\n", s.sig_pending);    /* this thread's own */
	procbuf_printf(pb, "ShdPnd:\t%016llx\n", s.sig_shared);     /* its process's (kill) */
	procbuf_printf(pb, "SigBlk:\t%016llx\n", s.sig_blocked);
	procbuf_printf(pb, "SigIgn:\t%016llx\n", s.sig_ignored);
	procbuf_printf(pb, "SigCgt:\t%016llx\n", s.sig_caught);
	procbuf_printf(pb, "Cpus_allowed:\t%x\n", s.cpus_allowed);
	procbuf_printf(pb, "voluntary_ctxt_switches:\t%llu\n", s.switches);
	procbuf_printf(pb, "nonvoluntary_ctxt_switches:\t0\n");
	show_spin_lines(pb, &s, whole);
}

void proc_show_pid_status(struct procbuf *pb, void *arg)
{
	show_status(pb, (int)(uintptr_t)arg, true);
}

void proc_show_tid_status(struct procbuf *pb, void *arg)
{
	show_status(pb, (int)(uintptr_t)arg, false);
}

static void sched_line_ms(struct procbuf *pb, const char *name, uint64_t ns)
{
	procbuf_printf(pb, "%-45s:%14llu.%06u\n", name, ns / 1000000, (uint32_t)(ns % 1000000));
}

static void sched_line(struct procbuf *pb, const char *name, uint64_t n)
{
	procbuf_printf(pb, "%-45s:%21llu\n", name, n);
}

/*
 * /proc/PID/sched: the scheduler's view of a task, in the layout of
 * Linux's file (times in ms with six decimals), the lines smpix has.
 * wait_max is the longest it waited, runnable, for a CPU;
 * smpix.wait_max_ticks the same in ticks of the CPU it waited on, which a
 * busy host machine (a vCPU it did not run) cannot stretch.
 */
void proc_show_pid_sched(struct procbuf *pb, void *arg)
{
	struct pid_snapshot s;

	if (!snapshot((int)(uintptr_t)arg, &s))
		return;
	procbuf_printf(pb, "%s (%d, #threads: %d)\n", s.name, s.pid, s.threads);
	procbuf_printf(pb, "-------------------------------------------------------------------\n");
	sched_line_ms(pb, "se.sum_exec_runtime", s.runtime_ns);
	sched_line_ms(pb, "se.statistics.wait_max", s.wait_max_ns);
	sched_line_ms(pb, "se.statistics.wait_sum", s.wait_sum_ns);
	sched_line(pb, "se.statistics.wait_count", s.wait_count);
	sched_line(pb, "smpix.wait_max_ticks", s.wait_max_ticks);
	sched_line(pb, "nr_switches", s.switches);
}

/* /proc/PID/cmdline: the arguments, each ending in NUL, as execve got them. */
void proc_show_pid_cmdline(struct procbuf *pb, void *arg)
{
	struct task *t;
	uint32_t flags;

	spin_lock_irqsave(&tasks_lock, flags);
	t = find_locked((int)(uintptr_t)arg);
	/* Zombies have no address space left: Linux shows them with an empty command line. */
	if (t && t->exec_info && t->state != TASK_ZOMBIE)
		procbuf_write(pb, t->exec_info->args, t->exec_info->args_len);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

int proc_pid_exe(int pid, char *buf, size_t size)
{
	struct task *t;
	uint32_t flags;
	int len = -ENOENT;

	spin_lock_irqsave(&tasks_lock, flags);
	t = find_locked(pid);
	if (t && t->exec_info && t->state != TASK_ZOMBIE) {
		len = (int)MIN(strlen(t->exec_info->exe), size);
		memcpy(buf, t->exec_info->exe, len);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return len;
}
