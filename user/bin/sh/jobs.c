/*
 * Jobs. A job is the processes of one pipeline (or one command, or a
 * subshell). In an interactive shell each job runs in a process group of
 * its own, led by its first process; a job in the foreground is made the
 * terminal's foreground group (tcsetpgrp) while the shell waits, so ^C
 * goes to it and not to the shell. setpgid is called in both the parent
 * and the child, so whichever runs first the group exists before anyone
 * relies on it. A script (no job control) keeps every process in the
 * shell's group, as dash does: ^C stops the script and what it runs
 * together.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec.h"
#include "jobctl.h"
#include "jobs.h"
#include "sh.h"
#include "str.h"
#include "trap.h"

struct job *jobs;               /* every job with a process not yet waited for */

int status_of(int st)
{
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

struct job *job_new(int background)
{
	struct job *j = xmalloc(sizeof(*j));

	*j = (struct job){ .background = background, .next = jobs };
	if (sh.jobctl)
		j->cmd = xstrdup(jobctl_command());
	jobs = j;
	return j;
}

void job_free(struct job *j)
{
	struct job **pp;

	for (pp = &jobs; *pp; pp = &(*pp)->next)
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	free(j->pids);
	free(j->status);
	free(j->stopped);
	free(j->cmd);
	free(j);
}

void subshell_enter(int background)
{
	int was_interactive = sh.interactive, had_jobctl = sh.jobctl;
	struct job *j, *next;
	int fd;

	sh.subshell = 1;
	sh.interactive = sh.jobctl = sh.tty_owner = 0;
	trap_subshell();
	for (j = jobs; j; j = next) {   /* the parent's jobs are not our children */
		next = j->next;
		job_free(j);
	}
	if (was_interactive) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGTSTP, SIG_DFL);
		signal(SIGTTIN, SIG_DFL);
		signal(SIGTTOU, SIG_DFL);
	}
	signal(SIGPIPE, SIG_DFL);
	/* Without job control, ^C must not reach a background job, nor may it read the terminal. */
	if (background && !had_jobctl) {
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		fd = open("/dev/null", O_RDONLY);
		if (fd > 0) {
			dup2(fd, 0);
			close(fd);
		}
	}
}

pid_t job_fork(struct job *j)
{
	pid_t pid = fork();

	if (pid < 0) {
		sh_error("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (sh.jobctl) {
			setpgid(0, j->pgid);    /* the first process leads the job's group */
			if (!j->background && sh.tty_owner)
				tcsetpgrp(0, getpgrp());
		}
		subshell_enter(j->background);
		return 0;
	}
	if (sh.jobctl) {
		if (!j->pgid)
			j->pgid = pid;
		setpgid(pid, j->pgid);
	}
	j->pids = xrealloc(j->pids, (j->nprocs + 1) * sizeof(pid_t));
	j->status = xrealloc(j->status, (j->nprocs + 1) * sizeof(int));
	j->stopped = xrealloc(j->stopped, (j->nprocs + 1) * sizeof(int));
	j->pids[j->nprocs] = pid;
	j->stopped[j->nprocs] = 0;
	j->status[j->nprocs++] = 0;
	j->left++;
	return pid;
}

/* A process has ended, stopped or been continued: note it in its job. */
static void record(pid_t pid, int st)
{
	struct job *j;
	int i;

	for (j = jobs; j; j = j->next)
		for (i = 0; i < j->nprocs; i++)
			if (j->pids[i] == pid) {
				if (jobctl_record(j, i, st))
					return;         /* stopped or continued: still there */
				j->status[i] = st;
				j->pids[i] = -pid;      /* reaped; -pid still tells `wait PID` which it was */
				j->left--;
				return;
			}
}

/* Wait for any child (with job control, for a stop or continue too); 0 when there is none left to wait for. */
int reap_one(int options)
{
	int st;
	pid_t pid;

	if (sh.jobctl)
		options |= WUNTRACED | WCONTINUED;
	do
		pid = waitpid(-1, &st, options);
	while (pid < 0 && errno == EINTR);
	if (pid > 0)
		record(pid, st);
	return pid > 0;
}

int job_wait(struct job *j)
{
	int st, status, lost;

	if (j->nprocs == 0) {
		job_free(j);
		return 1;
	}
	if (sh.tty_owner && j->pgid)
		tcsetpgrp(0, j->pgid);
	while (j->left > 0 && !job_is_stopped(j) && reap_one(0))
		;
	lost = j->left > 0 && !job_is_stopped(j) ? errno : 0;
	if (sh.tty_owner)
		tcsetpgrp(0, getpgrp());
	jobctl_job_left_terminal(j, j->left == 0 ? j->status[j->nprocs - 1] : 0);
	if (job_is_stopped(j))
		return jobctl_stopped(j);       /* ^Z: the job waits in the list for fg or bg */
	if (lost) {
		/* The job's end went unseen (waitpid gave up): say so, and never call it a success. */
		fprintf(stderr, "sh: wait: %s\n", strerror(lost));
		job_free(j);
		return 127;
	}
	st = j->status[j->nprocs - 1];
	job_free(j);
	status = status_of(st);
	if (WIFSIGNALED(st) && WTERMSIG(st) != SIGPIPE)
		fprintf(stderr, "%s\n", WTERMSIG(st) == SIGINT ? "" : strsignal(WTERMSIG(st)));
	/* ^C at the terminal ends the whole command line, not just the command it hit. */
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGINT && sh.interactive)
		exec_skip = SKIP_ABORT;
	return status;
}

/* The next free job number: one more than the highest in use. */
int job_new_id(void)
{
	struct job *k;
	int id = 1;

	for (k = jobs; k; k = k->next)
		if (k->id >= id)
			id = k->id + 1;
	return id;
}

void job_background(struct job *j)
{
	j->id = job_new_id();
	if (j->nprocs > 0)
		sh.last_bg = j->pids[j->nprocs - 1];
	if (sh.interactive)
		fprintf(stderr, "[%d] %d\n", j->id, j->pgid ? j->pgid : j->pids[0]);
}

/* Say "[N] Done" (interactive) for each background job that has ended, and forget it. */
static void forget_done(void)
{
	struct job *j, *next;

	for (j = jobs; j; j = next) {
		next = j->next;
		if (j->background && j->left == 0) {
			if (sh.interactive)
				fprintf(stderr, "[%d] Done\n", j->id);
			job_free(j);
		}
	}
}

void jobs_notify(void)
{
	while (reap_one(WNOHANG))
		;
	jobctl_notify();
	forget_done();
}

/* The job and index of process pid (reaped or not), or NULL. */
static struct job *find_pid(pid_t pid, int *index)
{
	struct job *j;
	int i;

	for (j = jobs; j; j = j->next)
		for (i = 0; i < j->nprocs; i++)
			if (j->pids[i] == pid || j->pids[i] == -pid) {
				*index = i;
				return j;
			}
	return NULL;
}

int jobs_wait(pid_t pid)
{
	struct job *j;
	int i, st;

	if (pid == 0) {
		while (reap_one(0))
			;
		forget_done();
		return 0;
	}
	if (!(j = find_pid(pid, &i)))
		return 127;
	while (j->pids[i] > 0 && reap_one(0))
		;
	st = j->status[i];
	if (j->left == 0)
		job_free(j);
	return status_of(st);
}
