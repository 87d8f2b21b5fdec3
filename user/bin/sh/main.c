/*
 * /bin/sh: a small POSIX shell.
 *
 *   sh [-efux] [FILE [ARG...]]        run a script, or read commands from stdin
 *   sh [-efux] -c COMMANDS [NAME [ARG...]]
 *
 * Reading stdin from a terminal (or with -i), the shell is interactive: it
 * prompts with $PS1 ("$ "), runs each job in a process group of its own
 * and hands it the terminal, ignores ^C itself, and an error takes it back
 * to the prompt instead of ending it.
 *
 * The pieces, one file each: input.c (reading), lex.c and parse.c (text to
 * a tree, node.h), exec.c (walking the tree), command.c (simple commands),
 * expand.c (words; with arith.c, cmdsub.c, pattern.c, glob.c), redir.c,
 * jobs.c, vars.c, func.c, builtins.c (with read.c, getopts.c, echo.c,
 * printf.c, test.c, trap.c) and timing.c. This file: starting up, the
 * main loop, errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"
#include "input.h"
#include "jobctl.h"
#include "jobs.h"
#include "node.h"
#include "parse.h"
#include "sh.h"
#include "str.h"
#include "trap.h"
#include "vars.h"

struct shell sh;

void sh_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "sh: %s\n", msg);
}

void sh_syntax_error(int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %d: Syntax error: %s\n", sh.name, line, msg);
}

void sh_abort(int status)
{
	sh.status = status;
	if (!sh.interactive)
		sh_exit(status);
	exec_skip = SKIP_ABORT;
}

void sh_exit(int status)
{
	sh.status = status;
	trap_run_exit();                /* it may change $? with exit N */
	exit(sh.status);
}

int shell_run(struct input *in, int top)
{
	struct parser p;
	struct node *n;
	int r;

	parser_init(&p, in);
	for (;;) {
		if (top && sh.interactive) {
			jobs_notify();
			in->prompt = 1;
		}
		r = parse_command(&p, &n);
		if (r == 0)
			break;
		if (r < 0) {
			sh.status = 2;
			if (top && sh.interactive)
				continue;
			sh_abort(2);
			break;
		}
		exec_node(n, 0);
		node_free(n);
		if (top && exec_skip == SKIP_RETURN && !sh.interactive)
			break;                  /* return outside a function ends the script */
		if (top)
			exec_skip = SKIP_NONE;  /* break or an error at the top: nothing left to unwind */
		if (exec_skip)
			break;
	}
	parser_free(&p);
	return sh.status;
}

static void usage(void)
{
	fprintf(stderr, "usage: sh [-efiux] [FILE [ARG...] | -c COMMANDS [NAME [ARG...]]]\n");
	exit(2);
}

/* An interactive shell: ^C and ^Z are for the job in front; a job gets the terminal while it runs. */
static void become_interactive(void)
{
	sh.interactive = sh.jobctl = 1;
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	if (tcgetpgrp(0) >= 0) {
		setpgid(0, 0);          /* a session leader (from init) already leads its group */
		sh.tty_owner = tcsetpgrp(0, getpgrp()) == 0;
	}
	jobctl_keep_modes();
}

/* -c -i -e -x -u -f (+ turns the last four off); the index of the first other argument. */
static int options(int argc, char **argv, int *command, int *interactive)
{
	char *c;
	int i, on;

	for (i = 1; i < argc && (argv[i][0] == '-' || argv[i][0] == '+') && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0)
			return i + 1;
		on = argv[i][0] == '-';
		for (c = argv[i] + 1; *c; c++) {
			if (*c == 'c' && on)
				*command = 1;
			else if (*c == 'i' && on)
				*interactive = 1;
			else if (*c == 'e')
				sh.opt_e = on;
			else if (*c == 'x')
				sh.opt_x = on;
			else if (*c == 'u')
				sh.opt_u = on;
			else if (*c == 'f')
				sh.opt_f = on;
			else if (*c != 's')
				usage();
		}
	}
	return i;
}

int main(int argc, char **argv)
{
	struct input *in = xmalloc(sizeof(*in));
	int i, fd, cflag = 0, force_interactive = 0;

	/* Children must stay to be waited for, even if whoever started us ignored SIGCHLD. */
	signal(SIGCHLD, SIG_DFL);
	sh.pid = getpid();
	sh.name = argv[0];
	var_import(environ);
	if (!var_get("PATH"))
		var_export("PATH", "/bin:/sbin");
	i = options(argc, argv, &cflag, &force_interactive);
	if (cflag) {
		if (i >= argc)
			usage();
		input_from_string(in, argv[i++], 1);
		if (i < argc)
			sh.name = argv[i++];
	} else if (i < argc) {
		sh.name = argv[i++];
		fd = open(sh.name, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "sh: %s: %s\n", sh.name, strerror(errno));
			return 127;
		}
		/* Out of the way of the fds scripts use, and not inherited by what the script runs. */
		input_from_fd(in, fcntl(fd, F_DUPFD_CLOEXEC, 10), 0);
		close(fd);
	} else {
		input_from_fd(in, 0, 0);
		if (force_interactive || isatty(0)) {
			become_interactive();
			in->prompt = 1;
		}
	}
	params_set(&params, argc - i, argv + i);
	shell_run(in, 1);
	sh_exit(sh.status);
}
