/*
 * /bin/jobtest: job control as Linux 2.6 does it. The stop signals (SIGSTOP,
 * and the terminal's SIGTSTP, SIGTTIN, SIGTTOU) stop every thread of a
 * process; wait4 reports a stop once with WUNTRACED and a continue once
 * with WCONTINUED; the parent's SIGCHLD says CLD_STOPPED or CLD_CONTINUED
 * unless it set SA_NOCLDSTOP; an orphaned process group is not stopped by
 * the terminal's stop signals; a background group that reads the terminal
 * gets SIGTTIN (or -EIO when it cannot be stopped), one that changes it gets
 * SIGTTOU; setpgid from a thread moves its whole process. waitid reports
 * exits, stops and continues as siginfo (WNOWAIT leaving the child
 * waitable), and an exit that orphans a group with a stopped member sends
 * it SIGHUP and SIGCONT.
 *
 * The terminal tests need one as the controlling terminal, with this
 * program's group in its foreground: smpix boots it as init on the console
 * (tools/test/cases/45_jobs.py); the Linux reference runs the same binary
 * (build/jobtest-linux) in its "tty" mode, on a serial line of its own
 * session. Each test runs in a child of its own (GT_ISOLATED).
 */
#define GT_ISOLATED
#include "gtest.h"

#include "kernel/uapi/sched.h"
#include "kernel/uapi/termios.h"

#define SETSIZE 8
#define STACK_SIZE 16384
#define NTHREADS 2
#define THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
		      CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)
#ifndef __NR_setpgid
#define __NR_setpgid 57
#endif
#ifndef __NR_getpgid
#define __NR_getpgid 132
#endif

/* clone() a thread running fn(arg) on stack_top; it exits alone. As threadtest's. */
long job_clone(unsigned long flags, void *stack_top, volatile int *ptid, void *tls,
	       volatile int *ctid, int (*fn)(void *), void *arg);
__asm__(".text\n.globl job_clone\n"
	"job_clone: pushl %ebp\n pushl %ebx\n pushl %esi\n pushl %edi\n"
	" movl 24(%esp), %ecx\n subl $8, %ecx\n"
	" movl 44(%esp), %eax\n movl %eax, 4(%ecx)\n"
	" movl 40(%esp), %eax\n movl %eax, 0(%ecx)\n"
	" movl 20(%esp), %ebx\n movl 28(%esp), %edx\n movl 32(%esp), %esi\n movl 36(%esp), %edi\n"
	" movl $120, %eax\n int $0x80\n"
	" testl %eax, %eax\n jnz 1f\n"
	" xorl %ebp, %ebp\n popl %eax\n call *%eax\n"
	" movl %eax, %ebx\n movl $1, %eax\n int $0x80\n hlt\n"
	"1: popl %edi\n popl %esi\n popl %ebx\n popl %ebp\n ret\n");

void job_restore_rt(void);
__asm__(".text\njob_restore_rt: movl $173, %eax\n int $0x80\n");     /* rt_sigreturn */

static char stacks[NTHREADS][STACK_SIZE] __attribute__((aligned(16)));
static volatile int tids[NTHREADS];

/* ---- small helpers ------------------------------------------------------------------- */

static int waitpid_raw(int pid, int *status, int options)
{
	return (int)SYS4(__NR_wait4, pid, status, options, 0);
}

#ifndef __NR_alarm
#define __NR_alarm 27
#endif
static int kill_raw(int pid, int sig) { return (int)SYS2(__NR_kill, pid, sig); }
static int setpgid_raw(int pid, int pgid) { return (int)SYS2(__NR_setpgid, pid, pgid); }
static int getpgid_raw(int pid) { return (int)SYS1(__NR_getpgid, pid); }
static int getpid_raw(void) { return (int)SYS0(__NR_getpid); }

static int set_action(int sig, uint32_t handler, uint32_t flags)
{
	struct k_sigaction sa = { handler, flags | SA_RESTORER, (uint32_t)job_restore_rt, 0 };

	return (int)SYS4(__NR_rt_sigaction, sig, &sa, 0, SETSIZE);
}

static int block(int sig)
{
	k_sigset_t set = 1ULL << (sig - 1);

	return (int)SYS4(__NR_rt_sigprocmask, SIG_BLOCK, &set, 0, SETSIZE);
}

/* Wait up to 5 s for pid to stop or exit (WUNTRACED): its status, or -1 if it did neither. */
static int wait_stopped(int pid)
{
	int64_t end = gt_now_ms() + 5000;
	int st = 0, r;

	do {
		r = waitpid_raw(pid, &st, WUNTRACED | WNOHANG);
		if (r == pid)
			return st;
		gt_msleep(5);
	} while (r == 0 && gt_now_ms() < end);
	return -1;
}

/* Kill and reap pid: its last status (it was killed by SIGKILL, unless it had ended already). */
static int finish(int pid)
{
	kill_raw(pid, SIGKILL);
	return gt_wait(pid);
}

/* The state letter of /proc/PID/task/TID/stat ('?' if it cannot be read). */
static char task_state(int pid, int tid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	if (gt_read_file(path, buf, sizeof(buf)) <= 0)
		return '?';
	p = gt_strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/*
 * Put a new child in a process group of its own, as a shell does with a
 * job: its parent (us) is then in another group of the same session, so
 * its group is not orphaned and the terminal's stop signals stop it. Both
 * sides call setpgid, so the group exists whichever runs first.
 */
static void own_group(int pid)
{
	setpgid_raw(pid, pid);
}

/* A child in a group of its own that sleeps until killed, or continued and killed. */
static int spawn_sleeper(void)
{
	int pid = gt_fork();

	if (pid == 0) {
		own_group(0);
		for (;;)
			gt_msleep(1000);
	}
	own_group(pid);
	return pid;
}

/* ---- stop, continue, wait4 ----------------------------------------------------------- */

/* SIGTSTP's default action stops (it used to be ignored); WUNTRACED says so once. */
static void t_tstp_stops_and_reports_once(void)
{
	int pid = spawn_sleeper(), st = 0;

	CHECK(pid > 0);
	CHECK(kill_raw(pid, SIGTSTP) == 0);
	st = wait_stopped(pid);
	CHECK(st == ((SIGTSTP << 8) | 0x7f));
	CHECK(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP && !WIFEXITED(st) && !WIFSIGNALED(st));
	/* Reported once: a second look finds nothing new, with or without WUNTRACED. */
	CHECK(waitpid_raw(pid, &st, WUNTRACED | WNOHANG) == 0);
	CHECK(waitpid_raw(pid, &st, WNOHANG) == 0);
	CHECK(task_state(pid, pid) == 'T');
	st = finish(pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
}

/* Without WUNTRACED a stop is not reported; WCONTINUED reports a continue once, as 0xffff. */
static void t_continued_reported_once(void)
{
	int pid = spawn_sleeper(), st = 0;

	CHECK(pid > 0);
	CHECK(kill_raw(pid, SIGSTOP) == 0);
	gt_msleep(50);
	CHECK(waitpid_raw(pid, &st, WNOHANG) == 0);
	CHECK(wait_stopped(pid) == ((SIGSTOP << 8) | 0x7f));
	CHECK(kill_raw(pid, SIGCONT) == 0);
	st = 0;
	CHECK(waitpid_raw(pid, &st, WCONTINUED) == pid);
	CHECK(st == 0xffff && WIFCONTINUED(st) && !WIFSTOPPED(st) && !WIFEXITED(st));
	CHECK(waitpid_raw(pid, &st, WCONTINUED | WNOHANG) == 0);
	CHECK(waitpid_raw(pid, &st, WUNTRACED | WNOHANG) == 0);
	/* A second SIGCONT to a running process is no continue to report. */
	CHECK(kill_raw(pid, SIGCONT) == 0);
	gt_msleep(20);
	CHECK(waitpid_raw(pid, &st, WCONTINUED | WNOHANG) == 0);
	CHECK(task_state(pid, pid) == 'S');
	finish(pid);
}

/* A stopped process reports its stop, is continued, is stopped again: each stop is new. */
static void t_stop_twice(void)
{
	int pid = spawn_sleeper();

	CHECK(pid > 0);
	CHECK(kill_raw(pid, SIGTTIN) == 0);
	CHECK(wait_stopped(pid) == ((SIGTTIN << 8) | 0x7f));
	CHECK(kill_raw(pid, SIGCONT) == 0);
	CHECK(kill_raw(pid, SIGTTOU) == 0);
	CHECK(wait_stopped(pid) == ((SIGTTOU << 8) | 0x7f));
	finish(pid);
}

/* A handler for SIGTSTP runs instead of the stop; SIG_IGN leaves the process running. */
static volatile int tstp_caught;
static void on_tstp(int sig) { (void)sig; tstp_caught++; }

static void t_tstp_catchable_ignorable(void)
{
	int st = 0, pid;

	CHECK(set_action(SIGTSTP, (uint32_t)on_tstp, SA_SIGINFO) == 0);
	CHECK(kill_raw(getpid_raw(), SIGTSTP) == 0);
	CHECK(tstp_caught == 1);
	CHECK(set_action(SIGTSTP, SIG_IGN, 0) == 0);
	CHECK(kill_raw(getpid_raw(), SIGTSTP) == 0);
	CHECK(tstp_caught == 1);
	/* And the SIG_IGN is inherited: a child ignores it too. */
	pid = spawn_sleeper();
	CHECK(pid > 0);
	CHECK(kill_raw(pid, SIGTSTP) == 0);
	gt_msleep(50);
	CHECK(waitpid_raw(pid, &st, WUNTRACED | WNOHANG) == 0);
	finish(pid);
}

/* ---- the parent's SIGCHLD ------------------------------------------------------------ */

static volatile int chld_codes[8], chld_status[8], chld_pids[8], nchld;

static void on_chld(int sig, k_siginfo_t *info, void *uc)
{
	(void)sig;
	(void)uc;
	if (nchld < 8) {
		chld_codes[nchld] = info->si_code;
		chld_status[nchld] = info->u.chld.status;
		chld_pids[nchld] = info->u.chld.pid;
		nchld++;
	}
}

static bool wait_chld(int n)
{
	int64_t end = gt_now_ms() + 5000;

	while (nchld < n && gt_now_ms() < end)
		gt_msleep(2);
	return nchld >= n;
}

static void t_sigchld_codes(void)
{
	int pid;

	CHECK(set_action(SIGCHLD, (uint32_t)on_chld, SA_SIGINFO) == 0);
	pid = spawn_sleeper();
	CHECK(pid > 0);
	CHECK(kill_raw(pid, SIGSTOP) == 0);
	CHECK(wait_chld(1));
	CHECK(chld_codes[0] == CLD_STOPPED && chld_status[0] == SIGSTOP && chld_pids[0] == pid);
	CHECK(kill_raw(pid, SIGCONT) == 0);
	CHECK(wait_chld(2));
	CHECK(chld_codes[1] == CLD_CONTINUED && chld_status[1] == SIGCONT && chld_pids[1] == pid);
	kill_raw(pid, SIGKILL);
	CHECK(wait_chld(3));
	CHECK(chld_codes[2] == CLD_KILLED && chld_status[2] == SIGKILL);
	CHECK(WTERMSIG(gt_wait(pid)) == SIGKILL);
}

/* SA_NOCLDSTOP: no SIGCHLD for stops and continues, but wait4 still sees them. */
static void t_nocldstop(void)
{
	int pid, st = 0;

	CHECK(set_action(SIGCHLD, (uint32_t)on_chld, SA_SIGINFO | SA_NOCLDSTOP) == 0);
	pid = spawn_sleeper();
	CHECK(pid > 0);
	CHECK(kill_raw(pid, SIGTSTP) == 0);
	CHECK(wait_stopped(pid) == ((SIGTSTP << 8) | 0x7f));
	CHECK(kill_raw(pid, SIGCONT) == 0);
	CHECK(waitpid_raw(pid, &st, WCONTINUED) == pid && st == 0xffff);
	gt_msleep(30);
	CHECK(nchld == 0);
	kill_raw(pid, SIGKILL);
	CHECK(wait_chld(1));
	CHECK(chld_codes[0] == CLD_KILLED);
	gt_wait(pid);
}

/* ---- waitid ---------------------------------------------------------------------------- */

struct rusage32 {
	int32_t utime_sec, utime_usec, stime_sec, stime_usec;
	int32_t rest[14];
};

static int waitid_raw(int idtype, int id, k_siginfo_t *info, int options, struct rusage32 *ru)
{
	return (int)gt_syscall6(__NR_waitid, idtype, id, (long)info, options, (long)ru, 0);
}

/* Fill info with garbage, so a test sees what waitid wrote. */
static void scribble(k_siginfo_t *info)
{
	memset(info, 0x55, sizeof(*info));
}

/* Did waitid report child pid with si_code code and si_status status? */
static bool info_is(const k_siginfo_t *info, int pid, int code, int status)
{
	return info->si_signo == SIGCHLD && info->si_errno == 0 && info->si_code == code &&
	       info->u.chld.pid == pid && info->u.chld.status == status &&
	       info->u.chld.uid == (uint32_t)SYS0(__NR_getuid32);
}

/* WNOHANG with nothing ready: 0, and si_signo and si_pid (Linux: si_code, si_status too) zeroed. */
static bool info_is_empty(const k_siginfo_t *info)
{
	return info->si_signo == 0 && info->u.chld.pid == 0 && info->si_code == 0 && info->u.chld.status == 0;
}

static int spawn_exit(int code)
{
	int pid = gt_fork();

	if (pid == 0)
		gt_exit(code);
	return pid;
}

/* An exit, reported with WNOWAIT (twice: the child stays waitable), then reaped by wait4. */
static void t_waitid_exited_nowait(void)
{
	k_siginfo_t info;
	struct rusage32 ru;
	int pid = spawn_exit(7), st = 0;

	CHECK(pid > 0);
	scribble(&info);
	memset(&ru, 0xff, sizeof(ru));
	CHECK(waitid_raw(P_PID, pid, &info, WEXITED | WNOWAIT, &ru) == 0);
	CHECK(info_is(&info, pid, CLD_EXITED, 7));
	CHECK(ru.utime_sec >= 0 && ru.utime_usec >= 0 && ru.utime_usec < 1000000);
	CHECK(ru.stime_sec >= 0 && ru.stime_usec >= 0 && ru.stime_usec < 1000000);
	scribble(&info);
	CHECK(waitid_raw(P_ALL, 0, &info, WEXITED | WNOWAIT, 0) == 0);
	CHECK(info_is(&info, pid, CLD_EXITED, 7));
	CHECK(waitpid_raw(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7);
	CHECK(waitid_raw(P_ALL, 0, &info, WEXITED | WNOHANG, 0) == -ECHILD);
}

/* A kill: CLD_KILLED with the signal; waitid reaps it (wait4 finds nothing after); __WALL is wait4's. */
static void t_waitid_killed(void)
{
	k_siginfo_t info;
	int pid = spawn_sleeper();

	CHECK(pid > 0);
	CHECK(kill_raw(pid, SIGTERM) == 0);
	scribble(&info);
	CHECK(waitid_raw(P_PID, pid, &info, WEXITED | __WALL, 0) == 0);
	CHECK(info_is(&info, pid, CLD_KILLED, SIGTERM));
	CHECK(waitpid_raw(pid, 0, WNOHANG) == -ECHILD);
}

/* WSTOPPED and WCONTINUED: each event once (WNOWAIT leaves it), and nothing ready is si_pid 0. */
static void t_waitid_stopped_continued(void)
{
	k_siginfo_t info;
	int pid = spawn_sleeper(), st = 0;
	int64_t end = gt_now_ms() + 5000;

	CHECK(pid > 0);
	scribble(&info);
	CHECK(waitid_raw(P_PID, pid, &info, WSTOPPED | WCONTINUED | WEXITED | WNOHANG, 0) == 0);
	CHECK(info_is_empty(&info));
	CHECK(kill_raw(pid, SIGTSTP) == 0);
	do {
		scribble(&info);
		CHECK(waitid_raw(P_PID, pid, &info, WSTOPPED | WNOHANG | WNOWAIT, 0) == 0);
		if (info.si_signo == 0)
			gt_msleep(5);
	} while (info.si_signo == 0 && gt_now_ms() < end);
	CHECK(info_is(&info, pid, CLD_STOPPED, SIGTSTP));
	/* Still there to report, to waitid and to wait4, which takes it. */
	scribble(&info);
	CHECK(waitid_raw(P_ALL, 0, &info, WSTOPPED | WNOWAIT, 0) == 0);
	CHECK(info_is(&info, pid, CLD_STOPPED, SIGTSTP));
	CHECK(waitpid_raw(pid, &st, WUNTRACED) == pid && st == ((SIGTSTP << 8) | 0x7f));
	scribble(&info);
	CHECK(waitid_raw(P_PID, pid, &info, WSTOPPED | WNOHANG, 0) == 0 && info_is_empty(&info));
	CHECK(kill_raw(pid, SIGCONT) == 0);
	scribble(&info);
	CHECK(waitid_raw(P_PID, pid, &info, WCONTINUED, 0) == 0);
	CHECK(info_is(&info, pid, CLD_CONTINUED, SIGCONT));
	scribble(&info);
	CHECK(waitid_raw(P_PID, pid, &info, WCONTINUED | WSTOPPED | WNOHANG, 0) == 0 && info_is_empty(&info));
	/* A stop taken by waitid without WNOWAIT is gone for wait4 too. */
	CHECK(kill_raw(pid, SIGSTOP) == 0);
	CHECK(waitid_raw(P_PID, pid, &info, WSTOPPED, 0) == 0 && info_is(&info, pid, CLD_STOPPED, SIGSTOP));
	CHECK(waitpid_raw(pid, &st, WUNTRACED | WNOHANG) == 0);
	finish(pid);
}

/* P_PGID: only the children of that group; 0 is the caller's own group. */
static void t_waitid_pgid(void)
{
	k_siginfo_t info;
	int other = spawn_sleeper(), mine = spawn_exit(3);

	CHECK(other > 0 && mine > 0);
	CHECK(kill_raw(other, SIGKILL) == 0);
	scribble(&info);
	CHECK(waitid_raw(P_PGID, other, &info, WEXITED, 0) == 0);
	CHECK(info_is(&info, other, CLD_KILLED, SIGKILL));
	scribble(&info);
	CHECK(waitid_raw(P_PGID, 0, &info, WEXITED, 0) == 0);
	CHECK(info_is(&info, mine, CLD_EXITED, 3));
	CHECK(waitid_raw(P_PGID, 0, &info, WEXITED | WNOHANG, 0) == -ECHILD);
	CHECK(waitid_raw(P_PGID, other, &info, WEXITED | WNOHANG, 0) == -ECHILD);
}

/* Linux's errors: -EINVAL for bad arguments, -ECHILD, -EFAULT for bad memory (infop is written even then). */
static void t_waitid_errors(void)
{
	k_siginfo_t info;
	int pid;

	CHECK(waitid_raw(P_ALL, 0, &info, 0, 0) == -EINVAL);                 /* no WEXITED, WSTOPPED, WCONTINUED */
	CHECK(waitid_raw(P_ALL, 0, &info, WNOHANG | WNOWAIT, 0) == -EINVAL);
	CHECK(waitid_raw(P_ALL, 0, &info, WEXITED | 0x100, 0) == -EINVAL);   /* an unknown option */
	CHECK(waitid_raw(7, 0, &info, WEXITED, 0) == -EINVAL);               /* an unknown idtype */
	CHECK(waitid_raw(-1, 0, &info, WEXITED, 0) == -EINVAL);
	CHECK(waitid_raw(P_PID, 0, &info, WEXITED, 0) == -EINVAL);
	CHECK(waitid_raw(P_PID, -1, &info, WEXITED, 0) == -EINVAL);
	CHECK(waitid_raw(P_PGID, -1, &info, WEXITED, 0) == -EINVAL);
	CHECK(waitid_raw(P_ALL, 0, &info, WEXITED, 0) == -ECHILD);           /* no children */
	CHECK(waitid_raw(P_PID, NO_PID, &info, WEXITED, 0) == -ECHILD);
	CHECK(waitid_raw(P_PID, (int)SYS0(__NR_getppid), &info, WEXITED, 0) == -ECHILD);
	CHECK(waitid_raw(P_ALL, 0, BAD_UNMAP, WEXITED, 0) == -EFAULT);       /* written even for -ECHILD */
	CHECK(waitid_raw(P_ALL, 0, 0, WEXITED, 0) == -ECHILD);               /* no infop: nothing written */
	/* A zombie is no child for a waitid without WEXITED: -ECHILD, not a wait for ever. */
	pid = spawn_exit(1);
	CHECK(pid > 0);
	gt_msleep(50);
	CHECK(waitid_raw(P_ALL, 0, &info, WSTOPPED | WCONTINUED, 0) == -ECHILD);
	CHECK(waitid_raw(P_PID, pid, BAD_UNMAP, WEXITED, 0) == -EFAULT);
	/* Linux reaps the child before it finds the bad pointer; smpix leaves it. Either way it ends here. */
	waitpid_raw(pid, 0, 0);
	pid = spawn_exit(1);
	CHECK(pid > 0);
	CHECK(waitid_raw(P_PID, pid, &info, WEXITED, BAD_UNMAP) == -EFAULT);
	waitpid_raw(pid, 0, 0);
	/* A null infop is allowed: the reap still happens. */
	pid = spawn_exit(2);
	CHECK(pid > 0);
	CHECK(waitid_raw(P_PID, pid, 0, WEXITED, 0) == 0);
	CHECK(waitpid_raw(pid, 0, WNOHANG) == -ECHILD);
}

/* ---- threads ------------------------------------------------------------------------- */

static int spin_fd;

/* One thread spins in user mode, writing now and then; the other sleeps in the kernel. */
static int spinner(void *arg)
{
	(void)arg;
	for (;;) {
		for (volatile int i = 0; i < 100000; i++)
			;
		gt_write(spin_fd, "x", 1);
	}
	return 0;
}

static int napper(void *arg)
{
	(void)arg;
	for (;;)
		gt_msleep(1000);
	return 0;
}

static long drain(int fd)
{
	char buf[256];
	long n, total = 0;

	while ((n = gt_read(fd, buf, sizeof(buf))) > 0)
		total += n;
	return total;
}

/* A stop of a process stops every one of its threads (T in /proc); SIGCONT starts them all. */
static void t_threads_all_stopped(void)
{
	int p[2], info[2], pid, st;
	int ids[NTHREADS + 1];

	CHECK(SYS2(__NR_pipe2, p, O_NONBLOCK) == 0);
	CHECK(SYS1(__NR_pipe, info) == 0);
	pid = gt_fork();
	if (pid == 0) {
		own_group(0);
		spin_fd = p[1];
		ids[0] = getpid_raw();
		ids[1] = (int)job_clone(THREAD_FLAGS, stacks[0] + STACK_SIZE, &tids[0], 0, &tids[0], spinner, 0);
		ids[2] = (int)job_clone(THREAD_FLAGS, stacks[1] + STACK_SIZE, &tids[1], 0, &tids[1], napper, 0);
		gt_write(info[1], ids, sizeof(ids));
		SYS1(__NR_pipe, info);          /* a pipe nobody writes to: the leader sleeps in read() */
		for (;;)
			gt_read(info[0], ids, 1);
	}
	CHECK(pid > 0);
	own_group(pid);
	CHECK(gt_read(info[0], ids, sizeof(ids)) == sizeof(ids));
	CHECK(ids[1] > 0 && ids[2] > 0);
	gt_msleep(50);
	CHECK(drain(p[0]) > 0);                 /* the spinner spins */
	CHECK(kill_raw(pid, SIGTSTP) == 0);
	st = wait_stopped(pid);
	CHECK(st == ((SIGTSTP << 8) | 0x7f));
	/* Reported only once the stop is complete: every thread is stopped already. */
	for (int i = 0; i < NTHREADS + 1; i++)
		CHECK(task_state(pid, ids[i]) == 'T');
	drain(p[0]);
	gt_msleep(100);
	CHECK(drain(p[0]) == 0);                /* nobody runs */
	CHECK(kill_raw(pid, SIGCONT) == 0);
	CHECK(waitpid_raw(pid, &st, WCONTINUED) == pid && st == 0xffff);
	gt_msleep(100);
	CHECK(drain(p[0]) > 0);                 /* the spinner spins again */
	for (int i = 0; i < NTHREADS + 1; i++)
		CHECK(task_state(pid, ids[i]) != 'T');
	/* A stop signal sent to one thread (tgkill) stops the whole process too. */
	CHECK(SYS3(__NR_tgkill, pid, ids[2], SIGSTOP) == 0);
	CHECK(wait_stopped(pid) == ((SIGSTOP << 8) | 0x7f));
	for (int i = 0; i < NTHREADS + 1; i++)
		CHECK(task_state(pid, ids[i]) == 'T');
	st = finish(pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
}

/* setpgid(0, 0) in a thread that is not the leader moves the whole process. */
static volatile int setpgid_answer = 1;

static int make_group(void *arg)
{
	(void)arg;
	setpgid_answer = setpgid_raw(0, 0);
	return 0;
}

static void t_setpgid_from_thread(void)
{
	int me = getpid_raw(), tid;
	int64_t end = gt_now_ms() + 5000;

	CHECK(getpgid_raw(0) != me);
	tid = (int)job_clone(THREAD_FLAGS, stacks[0] + STACK_SIZE, &tids[0], 0, &tids[0], make_group, 0);
	CHECK(tid > 0);
	while (setpgid_answer == 1 && gt_now_ms() < end)
		gt_msleep(1);
	CHECK(setpgid_answer == 0);
	CHECK(getpgid_raw(0) == me);
	CHECK(getpgid_raw(me) == me);
	/* A thread's own id names no process to setpgid. */
	tid = (int)job_clone(THREAD_FLAGS, stacks[1] + STACK_SIZE, &tids[1], 0, &tids[1], napper, 0);
	CHECK(tid > 0);
	CHECK(setpgid_raw(tid, me) == -EINVAL);
}

/* ---- orphaned groups and the terminal ------------------------------------------------ */

static int tty_pgrp(void)
{
	int pgrp = -1;

	return gt_ioctl(0, TIOCGPGRP, &pgrp) == 0 ? pgrp : -1;
}

/* Is fd 0 our controlling terminal, with our group in its foreground? (The terminal tests need that.) */
static bool own_terminal(void)
{
	return tty_pgrp() == getpgid_raw(0);
}

/*
 * A grandchild in a group of its own whose parent has exited: its group is
 * orphaned (its new parent, init, does not count). It reports through the
 * pipe what SIGTSTP did (it is discarded: the process goes on) and what
 * reading the terminal from the background gives (-EIO).
 */
static void t_orphaned_group(void)
{
	int p[2], mid, results[3] = { 0, 0, 0 };

	SKIP_IF(ON_LINUX && !own_terminal(), "stdin is not our controlling terminal");
	CHECK(SYS1(__NR_pipe, p) == 0);
	mid = gt_fork();
	if (mid == 0) {
		int parent = getpid_raw();
		if (gt_fork() == 0) {
			char c;
			int64_t end = gt_now_ms() + 5000;
			int r[3];

			setpgid_raw(0, 0);
			while ((int)SYS0(__NR_getppid) == parent && gt_now_ms() < end)
				gt_msleep(2);
			r[0] = kill_raw(0, SIGTSTP);    /* to its own group: discarded, we go on */
			r[1] = 1;                       /* still running */
			r[2] = (int)gt_read(0, &c, 1);  /* background and orphaned: -EIO, no SIGTTIN */
			gt_write(p[1], r, sizeof(r));
			gt_exit(0);
		}
		gt_exit(0);
	}
	CHECK(mid > 0);
	CHECK(WEXITSTATUS(gt_wait(mid)) == 0);
	gt_close(p[1]);
	CHECK(gt_read(p[0], results, sizeof(results)) == sizeof(results));
	CHECK(results[0] == 0 && results[1] == 1);
	CHECK(results[2] == -EIO);
}

/*
 * POSIX's rule for exits, Linux's kill_orphaned_pgrp(): a process group that
 * an exit leaves orphaned, with a stopped member, gets SIGHUP then SIGCONT
 * (both from the kernel: SI_KERNEL). A member reports, through a pipe, each
 * signal it catches ('H', 'C'; lower case if si_code is wrong) and 'E' when
 * it goes on.
 */
static int orphan_fd;

static void on_hup_cont(int sig, k_siginfo_t *info, void *uc)
{
	char c = sig == SIGHUP ? 'H' : 'C';

	(void)uc;
	if (info->si_code != SI_KERNEL)
		c = (char)(c + ('a' - 'A'));
	gt_write(orphan_fd, &c, 1);
}

static void orphan_member(bool stop, int parent)
{
	int64_t end = gt_now_ms() + 5000;

	set_action(SIGHUP, (uint32_t)on_hup_cont, SA_SIGINFO);
	set_action(SIGCONT, (uint32_t)on_hup_cont, SA_SIGINFO);
	if (stop) {
		kill_raw(getpid_raw(), SIGSTOP);        /* goes on once continued, after the handlers */
	} else {
		while ((int)SYS0(__NR_getppid) == parent && gt_now_ms() < end)
			gt_msleep(2);
		gt_msleep(100);                         /* time for a signal that should not come */
	}
	gt_write(orphan_fd, "E", 1);
	gt_exit(0);
}

/*
 * A middle process makes the member and exits once it has stopped (stop),
 * or at once. whole_group: the middle leads a group of its own and the
 * member is in it (the exit orphans the exiting process's own group); else
 * the member leads a group of its own (the exit orphans a child's group).
 * What the member wrote comes back in out.
 */
static void orphan_case(bool whole_group, bool stop, char *out, int size)
{
	int p[2], ids[2], mid, member = 0, n = 0, r;
	int64_t end = gt_now_ms() + 5000;

	CHECK(SYS2(__NR_pipe2, p, O_NONBLOCK) == 0);
	CHECK(SYS1(__NR_pipe, ids) == 0);
	orphan_fd = p[1];
	mid = gt_fork();
	if (mid == 0) {
		int self = getpid_raw(), pid, st;

		if (whole_group)
			setpgid_raw(0, 0);
		pid = gt_fork();
		if (pid == 0) {
			if (!whole_group)
				setpgid_raw(0, 0);
			orphan_member(stop, self);
		}
		if (!whole_group)
			setpgid_raw(pid, pid);
		gt_write(ids[1], &pid, sizeof(pid));
		st = stop ? wait_stopped(pid) : 0;
		gt_exit(stop && !WIFSTOPPED(st) ? 1 : 0);
	}
	CHECK(mid > 0);
	CHECK(gt_read(ids[0], &member, sizeof(member)) == sizeof(member) && member > 0);
	CHECK(WEXITSTATUS(gt_wait(mid)) == 0);
	gt_close(p[1]);
	while (n < size - 1 && gt_now_ms() < end && !(n > 0 && out[n - 1] == 'E')) {
		r = (int)gt_read(p[0], out + n, 1);
		if (r == 1)
			n++;
		else
			gt_msleep(5);
	}
	out[n] = 0;
	if (n == 0 || out[n - 1] != 'E')
		kill_raw(-(whole_group ? mid : member), SIGKILL);       /* still stopped: end it */
	gt_close(p[0]);
	gt_close(ids[0]);
	gt_close(ids[1]);
}

/* The member has one of each: SIGHUP and SIGCONT in either order (Linux runs SIGCONT's handler first). */
static bool hup_then_cont_seen(const char *out)
{
	return (strcmp(out, "HCE") == 0 || strcmp(out, "CHE") == 0);
}

static void t_orphaned_child_group_hup_cont(void)
{
	char out[16];

	orphan_case(false, true, out, sizeof(out));
	CHECK(hup_then_cont_seen(out));
}

static void t_orphaned_own_group_hup_cont(void)
{
	char out[16];

	orphan_case(true, true, out, sizeof(out));
	CHECK(hup_then_cont_seen(out));
}

/* Orphaned, but nobody stopped: no signal. */
/*
 * init takes only the signals it has a handler for, the kernel's own too (Linux's
 * SIGNAL_UNKILLABLE): an alarm whose SIGALRM has the default action ends any other
 * process, but not init. Run by init itself, not in a child (main()): if it fails,
 * init dies and the boot ends without the summary line.
 */
static void init_survives_default_signals(void)
{
	SYS1(__NR_alarm, 1);
	gt_msleep(1300);                /* SIGALRM came and went */
	kill_raw(1, SIGTERM);           /* and a SIGTERM of its own */
	printf("jobtest: init_survives_default_signals ok\n");
	gt_passed++;
}

static void t_orphaned_running_group_no_hup(void)
{
	char out[16];

	orphan_case(false, false, out, sizeof(out));
	CHECK(strcmp(out, "E") == 0);
}

/* A child in a background group of our terminal: fn runs there (and ends the child). */
static int in_background(void (*fn)(void))
{
	int pid = gt_fork();

	if (pid == 0) {
		own_group(0);
		fn();
		gt_exit(0);
	}
	if (pid > 0)
		own_group(pid);
	return pid;
}

static void read_tty(void)
{
	char c;

	gt_exit(gt_read(0, &c, 1) == -EIO ? 3 : 4);
}

static void read_tty_ttin_ignored(void)
{
	set_action(SIGTTIN, SIG_IGN, 0);
	read_tty();
}

static void read_tty_ttin_blocked(void)
{
	block(SIGTTIN);
	read_tty();
}

/* A background read of the terminal stops the reader with SIGTTIN; ignored or blocked: -EIO. */
static void t_background_read(void)
{
	int pid, st;

	SKIP_IF(ON_LINUX && !own_terminal(), "stdin is not our controlling terminal");
	pid = in_background(read_tty);
	CHECK(pid > 0);
	CHECK(wait_stopped(pid) == ((SIGTTIN << 8) | 0x7f));
	CHECK(tty_pgrp() == getpgid_raw(0));    /* the terminal stays ours */
	finish(pid);
	pid = in_background(read_tty_ttin_ignored);
	st = gt_wait(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	pid = in_background(read_tty_ttin_blocked);
	st = gt_wait(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3);
}

static int fg_pgrp_at_start;

static void set_fg(void)
{
	int pgrp = fg_pgrp_at_start;

	gt_exit(gt_ioctl(0, TIOCSPGRP, &pgrp) == 0 ? 5 : 6);
}

static void set_fg_ttou_ignored(void)
{
	set_action(SIGTTOU, SIG_IGN, 0);
	set_fg();
}

static void write_tty(void)
{
	gt_exit(gt_write(1, "\n", 1) == 1 ? 7 : 8);
}

/* tcsetpgrp from the background: SIGTTOU, unless it is ignored; writes with TOSTOP likewise. */
static void t_background_tcsetpgrp_and_tostop(void)
{
	struct termios saved, t;
	int pid, st;

	SKIP_IF(ON_LINUX && !own_terminal(), "stdin is not our controlling terminal");
	fg_pgrp_at_start = tty_pgrp();
	pid = in_background(set_fg);
	CHECK(pid > 0);
	CHECK(wait_stopped(pid) == ((SIGTTOU << 8) | 0x7f));
	finish(pid);
	pid = in_background(set_fg_ttou_ignored);
	st = gt_wait(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 5);
	CHECK(tty_pgrp() == fg_pgrp_at_start);
	/* Writing from the background is allowed, until TOSTOP is set. */
	pid = in_background(write_tty);
	st = gt_wait(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	CHECK(gt_ioctl(0, TCGETS, &saved) == 0);
	t = saved;
	t.c_lflag |= TOSTOP;
	CHECK(gt_ioctl(0, TCSETS, &t) == 0);
	pid = in_background(write_tty);
	st = wait_stopped(pid);
	CHECK(gt_ioctl(0, TCSETS, &saved) == 0);
	CHECK(st == ((SIGTTOU << 8) | 0x7f));
	finish(pid);
}

int main(void)
{
	gt_start("jobtest");
	/* smpix boots us as init, a session leader: the console becomes our terminal when we ask. */
	if (tty_pgrp() < 0)
		gt_ioctl(0, TIOCSCTTY, 0);
	gt_run("tstp_stops_and_reports_once", t_tstp_stops_and_reports_once);
	gt_run("continued_reported_once", t_continued_reported_once);
	gt_run("stop_twice", t_stop_twice);
	gt_run("tstp_catchable_ignorable", t_tstp_catchable_ignorable);
	gt_run("sigchld_codes", t_sigchld_codes);
	gt_run("nocldstop", t_nocldstop);
	gt_run("threads_all_stopped", t_threads_all_stopped);
	gt_run("setpgid_from_thread", t_setpgid_from_thread);
	gt_run("waitid_exited_nowait", t_waitid_exited_nowait);
	gt_run("waitid_killed", t_waitid_killed);
	gt_run("waitid_stopped_continued", t_waitid_stopped_continued);
	gt_run("waitid_pgid", t_waitid_pgid);
	gt_run("waitid_errors", t_waitid_errors);
	gt_run("orphaned_group", t_orphaned_group);
	gt_run("orphaned_child_group_hup_cont", t_orphaned_child_group_hup_cont);
	gt_run("orphaned_own_group_hup_cont", t_orphaned_own_group_hup_cont);
	gt_run("orphaned_running_group_no_hup", t_orphaned_running_group_no_hup);
	if (getpid_raw() == 1)
		init_survives_default_signals();
	gt_run("background_read", t_background_read);
	gt_run("background_tcsetpgrp_and_tostop", t_background_tcsetpgrp_and_tostop);
	gt_finish();
}
