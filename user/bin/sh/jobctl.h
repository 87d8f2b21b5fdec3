/* Job control: stopped jobs (^Z), the jobs, fg and bg builtins, and each job's command text. */
#ifndef SH_JOBCTL_H
#define SH_JOBCTL_H

struct job;
struct node;

/* exec_node: n is about to run; a job made for it now is named after it (interactive shells only). */
void jobctl_note(struct node *n);
/* The text of the command noted last, for a new job. */
const char *jobctl_command(void);
/* Process i of j stopped or was continued (wait status st): noted, 1; it ended: 0. */
int jobctl_record(struct job *j, int i, int st);
/* Is every process of j that is left stopped? */
int job_is_stopped(const struct job *j);
/* The foreground job j has stopped: keep it as [N], say "Stopped"; the status for $? (128 + signal). */
int jobctl_stopped(struct job *j);
/* The terminal's settings now are the shell's own: what it gives back after a job stops or is killed. */
void jobctl_keep_modes(void);
/* The foreground job j is back with the shell (stopped, or ended with wait status st): the terminal's settings. */
void jobctl_job_left_terminal(struct job *j, int st);
/* Before a prompt: say which background jobs have stopped since the last one. */
void jobctl_notify(void);

int builtin_bg(int argc, char **argv);
int builtin_fg(int argc, char **argv);
int builtin_jobs(int argc, char **argv);

#endif
