/*
 * Job control: what an interactive shell does with a job that stops. ^Z at
 * the terminal sends SIGTSTP to the foreground job's process group (the
 * kernel's tty does that); the kernel stops every process of it and tells
 * us through waitpid(WUNTRACED). The shell then takes the terminal back,
 * keeps the job in its list as [N] and says "Stopped". fg gives the job the
 * terminal again and continues it (SIGCONT to its group) and waits for it;
 * bg continues it without the terminal, in the background. A background job
 * that reads the terminal is stopped by the kernel (SIGTTIN), which we say
 * at the next prompt. jobs lists them all. Linux's bash and dash do the same
 * with the same calls (setpgid, tcsetpgrp, waitpid, kill(-pgid, SIGCONT)).
 */
#include <signal.h>
#include <stdio.h>
#include <termios.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jobctl.h"
#include "jobs.h"
#include "node.h"
#include "sh.h"
#include "str.h"

static char *noted;             /* the command that runs now (jobctl_note) */
static int current_id;          /* the job fg and bg take without an argument: %+ */
static int previous_id;         /* the one current before it: %- */
static struct termios shell_modes;      /* the terminal's settings the shell reads its lines with */
static int have_shell_modes;

/* ---- naming jobs ------------------------------------------------------------------ */

static void describe(struct str *b, const struct node *n);

static void describe_words(struct str *b, char **w)
{
	for (; w && *w; w++) {
		if (b->len && b->s[b->len - 1] != ' ' && b->s[b->len - 1] != '(')
			str_add(b, ' ');
		str_adds(b, *w);
	}
}

static void describe_pair(struct str *b, const struct node *n, const char *op)
{
	describe(b, n->left);
	str_adds(b, op);
	describe(b, n->right);
}

/* The command as the user wrote it, near enough: words as typed, operators between. */
static void describe(struct str *b, const struct node *n)
{
	int i;

	if (!n)
		return;
	switch (n->type) {
	case N_CMD:
		describe_words(b, n->assigns);
		describe_words(b, n->args);
		break;
	case N_PIPE:
		for (i = 0; i < n->ncmds; i++) {
			if (i)
				str_adds(b, " | ");
			describe(b, n->cmds[i]);
		}
		break;
	case N_AND:
		describe_pair(b, n, " && ");
		break;
	case N_OR:
		describe_pair(b, n, " || ");
		break;
	case N_LIST:
		describe_pair(b, n, "; ");
		break;
	case N_BG:
	case N_TIME:
	case N_GROUP:
		describe(b, n->body);
		break;
	case N_SUBSHELL:
		str_add(b, '(');
		describe(b, n->body);
		str_add(b, ')');
		break;
	default:
		str_adds(b, "...");     /* a compound command: if, while, for, case */
		break;
	}
}

void jobctl_note(struct node *n)
{
	struct str b = { 0 };

	if (!sh.jobctl || !n || (n->type != N_CMD && n->type != N_PIPE && n->type != N_BG &&
				 n->type != N_SUBSHELL))
		return;
	describe(&b, n);
	free(noted);
	noted = str_take(&b);
}

const char *jobctl_command(void)
{
	return noted ? noted : "";
}

/* ---- stops and continues --------------------------------------------------------- */

int jobctl_record(struct job *j, int i, int st)
{
	if (WIFSTOPPED(st)) {
		if (!j->stopped[i]) {
			j->stopped[i] = 1;
			j->nstopped++;
		}
		j->stop_sig = WSTOPSIG(st);
		j->notified = 0;
		return 1;
	}
	if (WIFCONTINUED(st)) {
		if (j->stopped[i]) {
			j->stopped[i] = 0;
			j->nstopped--;
		}
		return 1;
	}
	if (j->stopped[i]) {            /* killed while stopped */
		j->stopped[i] = 0;
		j->nstopped--;
	}
	return 0;
}

int job_is_stopped(const struct job *j)
{
	return j->left > 0 && j->nstopped == j->left;
}

/* "[N]+  Stopped                 cmd", as bash says it. */
static char job_mark(const struct job *j)
{
	return j->id == current_id ? '+' : j->id == previous_id ? '-' : ' ';
}

static void print_job(const struct job *j, const char *state, const char *tail)
{
	fprintf(stderr, "[%d]%c  %-24s%s%s\n", j->id, job_mark(j), state, j->cmd, tail);
}

/* j becomes the current job (%+), the current one the previous (%-). */
static void make_current(const struct job *j)
{
	if (j->id != current_id) {
		previous_id = current_id;
		current_id = j->id;
	}
}

static const char *state_of(const struct job *j)
{
	return job_is_stopped(j) ? strsignal(j->stop_sig) : "Running";
}

int jobctl_stopped(struct job *j)
{
	if (!j->id)
		j->id = job_new_id();
	j->background = 1;              /* kept, and never waited for in the foreground until fg */
	j->notified = 1;
	make_current(j);
	fputc('\n', stderr);            /* after the ^Z the terminal echoed */
	print_job(j, state_of(j), "");
	return 128 + j->stop_sig;
}

void jobctl_notify(void)
{
	struct job *j;

	for (j = jobs; j; j = j->next)
		if (j->id && job_is_stopped(j) && !j->notified) {
			j->notified = 1;
			make_current(j);
			print_job(j, state_of(j), "");
		}
}

/* ---- the terminal's settings, per job ------------------------------------------------ */

/*
 * A job may change the terminal's settings (an editor turns echo and
 * canonical input off) and then stop or be killed: the shell must get its
 * own back to read the next line, and fg must give the job its own again.
 * bash's rule: a job that stops keeps its settings for fg and the shell's
 * are restored; one killed by a signal leaves no settings behind; one that
 * exits normally leaves its settings as the shell's (so `stty -echo` at the
 * prompt lasts).
 */
void jobctl_keep_modes(void)
{
	have_shell_modes = tcgetattr(0, &shell_modes) == 0;
}

void jobctl_job_left_terminal(struct job *j, int st)
{
	if (!sh.tty_owner || !have_shell_modes)
		return;
	if (job_is_stopped(j)) {
		j->has_modes = tcgetattr(0, &j->modes) == 0;
		tcsetattr(0, TCSADRAIN, &shell_modes);
	} else if (WIFSIGNALED(st)) {
		tcsetattr(0, TCSADRAIN, &shell_modes);
	} else {
		jobctl_keep_modes();
	}
}

/* ---- the builtins ------------------------------------------------------------------ */

static struct job *by_id(int id)
{
	struct job *j;

	for (j = jobs; j; j = j->next)
		if (j->id == id && id > 0)
			return j;
	return NULL;
}

/*
 * %string: the job whose command starts with string; %?string: the one
 * whose command contains it. More than one: ambiguous, as bash says.
 */
static struct job *by_command(const char *name, const char *spec, int anywhere)
{
	struct job *j, *found = NULL;
	const char *text = spec + 1 + anywhere;

	for (j = jobs; j; j = j->next) {
		if (!j->id || !(anywhere ? strstr(j->cmd, text) != NULL : !strncmp(j->cmd, text, strlen(text))))
			continue;
		if (found) {
			sh_error("%s: %s: ambiguous job spec", name, spec);
			return NULL;
		}
		found = j;
	}
	if (!found)
		sh_error("%s: %s: no such job", name, spec);
	return found;
}

/*
 * A job spec, as bash reads one: nothing, %%, %+ (the current job, else the
 * newest), %- (the previous), %N or N, %string, %?string. The job, or NULL
 * after saying why.
 */
static struct job *find_job(const char *name, const char *spec)
{
	struct job *j = NULL, *k;

	if (spec && spec[0] == '%' && spec[1] && spec[1] != '%' && spec[1] != '+' && spec[1] != '-' &&
	    (spec[1] < '0' || spec[1] > '9'))
		return by_command(name, spec, spec[1] == '?');
	if (spec && !strcmp(spec, "%-")) {
		j = by_id(previous_id);
	} else if (!spec || !strcmp(spec, "%%") || !strcmp(spec, "%+")) {
		j = by_id(current_id);
		for (k = jobs; !j && k; k = k->next)
			if (k->id)
				j = k;          /* the newest with a number */
	} else {
		j = by_id(atoi(spec[0] == '%' ? spec + 1 : spec));
	}
	if (!j)
		sh_error("%s: %s: no such job", name, spec ? spec : "current");
	return j;
}

/* Let every stopped process of j go on (SIGCONT to its group) and count it as running. */
static void continue_job(struct job *j)
{
	int i;

	for (i = 0; i < j->nprocs; i++)
		j->stopped[i] = 0;
	j->nstopped = 0;
	if (j->pgid)
		kill(-j->pgid, SIGCONT);
	else
		for (i = 0; i < j->nprocs; i++)
			if (j->pids[i] > 0)
				kill(j->pids[i], SIGCONT);
}

int builtin_fg(int argc, char **argv)
{
	struct job *j;

	if (!sh.jobctl) {
		sh_error("fg: no job control");
		return 1;
	}
	if (!(j = find_job("fg", argc > 1 ? argv[1] : NULL)))
		return 1;
	printf("%s\n", j->cmd);
	fflush(stdout);
	/* The terminal first: continued without it, a job that reads would stop again (SIGTTIN). */
	if (sh.tty_owner && j->pgid)
		tcsetpgrp(0, j->pgid);
	if (sh.tty_owner && j->has_modes)
		tcsetattr(0, TCSADRAIN, &j->modes);     /* its own settings, as it left them */
	continue_job(j);
	j->background = 0;              /* its number stays, should it stop again */
	return job_wait(j);
}

int builtin_bg(int argc, char **argv)
{
	struct job *j;

	if (!sh.jobctl) {
		sh_error("bg: no job control");
		return 1;
	}
	if (!(j = find_job("bg", argc > 1 ? argv[1] : NULL)))
		return 1;
	if (!job_is_stopped(j)) {
		sh_error("bg: job %d already in background", j->id);
		return 0;
	}
	make_current(j);
	continue_job(j);
	j->notified = 0;
	fprintf(stderr, "[%d]+ %s &\n", j->id, j->cmd);
	return 0;
}

/* jobs -l: "[N]+  PID State  cmd", the first process's pid (the group's leader), as bash. */
static void print_job_long(const struct job *j, const char *state, const char *tail)
{
	pid_t pid = j->pids[0] < 0 ? -j->pids[0] : j->pids[0];

	fprintf(stderr, "[%d]%c  %d %-24s%s%s\n", j->id, job_mark(j), (int)pid, state, j->cmd, tail);
}

/* jobs [-l|-p]: every job, its state, and with -l its pid; -p: the pids alone. */
int builtin_jobs(int argc, char **argv)
{
	struct job *j;
	int id, top = 0, mode = 0;

	if (argc > 1) {
		if (argc > 2 || (strcmp(argv[1], "-l") && strcmp(argv[1], "-p"))) {
			sh_error("jobs: usage: jobs [-l|-p]");
			return 2;
		}
		mode = argv[1][1];
	}
	while (reap_one(WNOHANG))
		;
	for (j = jobs; j; j = j->next)
		if (j->id > top)
			top = j->id;
	for (id = 1; id <= top; id++) {
		if (!(j = by_id(id)))
			continue;
		if (mode == 'p')
			printf("%d\n", (int)(j->pids[0] < 0 ? -j->pids[0] : j->pids[0]));
		else
			(mode == 'l' ? print_job_long : print_job)(j, j->left == 0 ? "Done" : state_of(j),
								   j->left == 0 || job_is_stopped(j) ? "" : " &");
		j->notified = 1;
	}
	return 0;
}
