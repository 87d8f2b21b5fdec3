/* Jobs: the processes of one pipeline, their process group, the terminal, waiting for them. */
#ifndef SH_JOBS_H
#define SH_JOBS_H

#include <sys/types.h>

struct job;

struct job *job_new(int background);
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
