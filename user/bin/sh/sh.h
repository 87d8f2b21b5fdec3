/*
 * The state every part of the shell shares: its mode, its options, $? and
 * the other special parameters, and how errors are reported.
 */
#ifndef SH_SH_H
#define SH_SH_H

#include <sys/types.h>

struct input;

struct shell {
	int interactive;        /* commands from a terminal: prompts, job messages; errors do not exit */
	int jobctl;             /* each job in a process group of its own (interactive shells only) */
	int tty_owner;          /* ...and the tty's foreground group follows the job in front */
	int opt_e;              /* set -e: exit when an untested command fails */
	int opt_x;              /* set -x: trace each simple command on stderr */
	int opt_u;              /* set -u: expanding an unset variable is an error */
	int opt_f;              /* set -f: no pathname expansion */
	int status;             /* $? */
	char *name;             /* $0 */
	pid_t pid;              /* $$: the shell's pid, the same in its subshells */
	pid_t last_bg;          /* $!: the last background job's pid */
	int lineno;             /* $LINENO: the line of the command running */
	int subshell;           /* a forked copy of the shell, not the one the user started */
	int cmdsub_status;      /* the status of the last $( ): a command of only assignments returns it */
};

extern struct shell sh;

/* "sh: ..." on stderr. */
void sh_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * An error that stops the command (a bad expansion, a syntax error in
 * eval): a script ends with status, an interactive shell goes back to its
 * prompt (exec.h's SKIP_ABORT unwinds to it).
 */
void sh_abort(int status);
void sh_exit(int status) __attribute__((noreturn));
/* "NAME: LINE: Syntax error: ...", as dash says it. */
void sh_syntax_error(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Read, parse and run every command from in: the shell's main loop, also for
 * eval, . and $( ). top: the input is the whole shell's (a script, the
 * terminal, sh -c), not an eval or . inside it.
 */
int shell_run(struct input *in, int top);

#endif
