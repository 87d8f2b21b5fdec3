/* Jobs: the processes of one pipeline, their process group, the terminal, waiting for them. */
#ifndef SH_JOBS_H
#define SH_JOBS_H

#include <sys/types.h>

#include <termios.h>

struct job {
	int id;                 /* [N] of a background or stopped job; 0 in the foreground */
	pid_t pgid;             /* its process group (job control), else 0 */
	pid_t *pids;            /* each process; -pid once reaped */
	int *status;            /* each process's wait status, once reaped */
	int *stopped;           /* each process: stopped now (jobctl.c) */
	int nprocs, left;       /* processes started, and not yet reaped */
	int nstopped;           /* of those left, how many are stopped */
	int background;
	int notified;           /* its stop has been announced */
	int stop_sig;           /* the signal that stopped it last */
	char *cmd;              /* what it runs, for jobs, fg and bg (job control only) */
	struct termios modes;   /* the terminal's settings when it stopped (jobctl.c) */
	int has_modes;
	struct job *next;
};

extern struct job *jobs;        /* newest first */

struct job *job_new(int background);
void job_free(struct job *j);
/* The next free [N]. */
int job_new_id(void);
/* Collect one child's change (waitpid(-1), options as waitpid's); 0 when there is no child. */
int reap_one(int options);
/* Fork a process of job j: 0 in the child (already in the job's group), its pid, or -1. */
pid_t job_fork(struct job *j);
/* A foreground job: give it the terminal, wait for all its processes; the last one's status. Frees j. */
int job_wait(struct job *j);
/* A background job: keep it for `wait` and the "Done" message; say "[N] PID" when interactive. */
void job_background(struct job *j);
/* Before a prompt: collect finished background jobs, "[N] Done" for each. */
void jobs_notify(void);
/* The wait builtin: for the process pid (0: for every job); its status, 127 if it is not ours. */
int jobs_wait(pid_t pid);
/* In a forked child: not interactive, no job control, no jobs, default signals (see jobs.c). */
void subshell_enter(int background);
/* $? for a wait status: the exit status, or 128 + the signal. */
int status_of(int wstatus);

#endif
