/*
 * trap ACTION SIGNAL...: a command to run when a signal arrives (or, for
 * EXIT or 0, when the shell exits); ACTION '' ignores the signal, - puts
 * the default back. trap alone lists them, as input the shell could read.
 *
 * The handler only notes that the signal came: the command runs at the
 * next safe point, when the command running has finished (exec.c), since
 * the signal may land while the shell's own lists are half changed. So a
 * trap on INT runs after the foreground job ^C stopped, as in dash.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "input.h"
#include "sh.h"
#include "str.h"
#include "trap.h"

#define NTRAPS 32               /* 0 for EXIT, then the classic signals 1..31 */

static char *traps[NTRAPS];     /* the command, "" to ignore; NULL: no trap */
static volatile int pending[NTRAPS], any_pending;

static void note(int sig)
{
	pending[sig] = 1;
	any_pending = 1;
}

/* A signal by name (INT or SIGINT) or number, EXIT or 0 for the shell's exit; -1 if there is none. */
static int signal_number(const char *s)
{
	if (strcmp(s, "EXIT") == 0 || strcmp(s, "SIGEXIT") == 0)
		return 0;
	return sig_from_word(s, NTRAPS - 1);
}

/* What a signal does with no trap: an interactive shell keeps ignoring ^C and the job-control signals. */
static void default_action(int sig)
{
	int keep_ignored = sh.interactive && (sig == SIGINT || sig == SIGQUIT || sig == SIGTSTP ||
					       sig == SIGTTIN || sig == SIGTTOU);

	signal(sig, keep_ignored ? SIG_IGN : SIG_DFL);
}

static int set_trap(const char *action, int sig)
{
	if (sig == SIGKILL || sig == SIGSTOP)
		return -1;
	free(traps[sig]);
	traps[sig] = strcmp(action, "-") == 0 ? NULL : xstrdup(action);
	if (sig == 0)
		return 0;
	if (!traps[sig])
		default_action(sig);
	else
		signal(sig, *traps[sig] ? note : SIG_IGN);
	return 0;
}

static void list(void)
{
	struct str line = { 0 };
	char name[SIG2STR_MAX];
	const char *p;
	int i;

	for (i = 0; i < NTRAPS; i++) {
		if (!traps[i])
			continue;
		str_adds(&line, "trap -- '");
		for (p = traps[i]; *p; p++)
			str_adds(&line, *p == '\'' ? "'\\''" : (char[]){ *p, 0 });
		str_adds(&line, "' ");
		if (i == 0)
			strcpy(name, "EXIT");
		else
			sig2str(i, name);       /* every classic signal has a name */
		str_adds(&line, name);
		str_add(&line, '\n');
	}
	if (line.s)
		fputs(line.s, stdout);
	str_free(&line);
}

int builtin_trap(int argc, char **argv)
{
	const char *action;
	int i = 1, n, status = 0;

	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc) {
		list();
		return 0;
	}
	/* As POSIX says: when the first operand is a number, all of them are signals to reset. */
	if (argv[i][0] && strspn(argv[i], "0123456789") == strlen(argv[i]))
		action = "-";
	else
		action = argv[i++];
	for (; i < argc; i++) {
		n = signal_number(argv[i]);
		if (n < 0 || set_trap(action, n) < 0) {
			sh_error("trap: %s: bad trap", argv[i]);
			status = 1;
		}
	}
	return status;
}

/* The command of a trap, run as if typed, with $? kept for what follows. */
static void run(const char *command)
{
	struct input in;
	int status = sh.status;

	input_from_string(&in, command, sh.lineno);
	shell_run(&in, 0);
	sh.status = status;
}

void trap_run_pending(void)
{
	static int running;
	int sig;

	if (!any_pending || running)
		return;
	running = 1;
	any_pending = 0;
	for (sig = 1; sig < NTRAPS; sig++)
		if (pending[sig]) {
			pending[sig] = 0;
			if (traps[sig] && *traps[sig])
				run(traps[sig]);
		}
	running = 0;
}

void trap_run_exit(void)
{
	char *command = traps[0];

	if (!command || sh.subshell)
		return;
	traps[0] = NULL;                /* once: an exit inside it ends the shell for good */
	run(command);
	free(command);
}

void trap_subshell(void)
{
	int sig;

	for (sig = 0; sig < NTRAPS; sig++)
		if (traps[sig] && *traps[sig]) {
			free(traps[sig]);
			traps[sig] = NULL;
			if (sig)
				signal(sig, SIG_DFL);
		}
}
