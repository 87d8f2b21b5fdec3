/*
 * The builtins that change the shell itself (cd, set, shift, exit, ...),
 * and the table of all of them. echo, printf, test, read, getopts and
 * trap have files of their own; command is in command.c, next to the
 * lookup it shares.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "command.h"
#include "exec.h"
#include "func.h"
#include "input.h"
#include "jobctl.h"
#include "jobs.h"
#include "sh.h"
#include "str.h"
#include "vars.h"

/* A count argument (shift N, break N, exit N): its value, or -1 if it is not a number. */
static int number(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	return *s && !*end && n >= 0 ? (int)n : -1;
}

static int b_true(int argc, char **argv) { return 0; }
static int b_false(int argc, char **argv) { return 1; }

static int b_cd(int argc, char **argv)
{
	const char *dir = argv[1];
	char cwd[512];

	if (!dir)
		dir = var_get("HOME") ? var_get("HOME") : "/";
	else if (strcmp(dir, "-") == 0 && !(dir = var_get("OLDPWD"))) {
		sh_error("cd: OLDPWD not set");
		return 1;
	}
	if (chdir(dir) < 0) {
		sh_error("cd: %s: %s", dir, strerror(errno));
		return 2;
	}
	if (argv[1] && strcmp(argv[1], "-") == 0)
		printf("%s\n", dir);
	if (var_get("PWD"))
		var_set("OLDPWD", var_get("PWD"));
	if (getcwd(cwd, sizeof(cwd)))
		var_set("PWD", cwd);
	return 0;
}

static int b_pwd(int argc, char **argv)
{
	char cwd[512];

	if (!getcwd(cwd, sizeof(cwd))) {
		sh_error("pwd: %s", strerror(errno));
		return 1;
	}
	printf("%s\n", cwd);
	return 0;
}

static int b_exit(int argc, char **argv)
{
	sh_exit(argv[1] ? number(argv[1]) & 255 : sh.status);
}

static int b_export(int argc, char **argv)
{
	char *eq;
	int i;

	if (argc == 1 || (argc == 2 && strcmp(argv[1], "-p") == 0)) {
		var_print(1);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if ((eq = strchr(argv[i], '=')))
			*eq = '\0';
		if (!var_valid_name(argv[i], -1)) {
			sh_error("export: %s: bad variable name", argv[i]);
			return 1;
		}
		var_export(argv[i], eq ? eq + 1 : NULL);
	}
	return 0;
}

static int b_unset(int argc, char **argv)
{
	int i = 1, funcs = 0;

	if (argv[i] && (strcmp(argv[i], "-f") == 0 || strcmp(argv[i], "-v") == 0))
		funcs = argv[i++][1] == 'f';
	for (; i < argc; i++)
		if (funcs)
			func_unset(argv[i]);
		else
			var_unset(argv[i]);
	return 0;
}

static int b_local(int argc, char **argv)
{
	char *eq;
	int i;

	if (!var_locals) {
		sh_error("local: not in a function");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if ((eq = strchr(argv[i], '=')))
			*eq = '\0';
		var_save(var_locals, argv[i]);
		if (eq)
			var_set(argv[i], eq + 1);
	}
	return 0;
}

static int b_shift(int argc, char **argv)
{
	int n = argv[1] ? number(argv[1]) : 1, i;

	if (n < 0 || n > params.n) {
		sh_error("shift: can't shift that many");
		sh_abort(2);
		return 2;
	}
	for (i = 0; i < n; i++)
		free(params.v[i]);
	memmove(params.v, params.v + n, (params.n - n + 1) * sizeof(char *));
	params.n -= n;
	return 0;
}

/* set -exuf / +exuf, set -- ARGS, set ARGS; set alone lists the variables. */
static int b_set(int argc, char **argv)
{
	int i, on;
	char *c;

	if (argc == 1) {
		var_print(0);
		return 0;
	}
	for (i = 1; i < argc && (argv[i][0] == '-' || argv[i][0] == '+'); i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		on = argv[i][0] == '-';
		for (c = argv[i] + 1; *c; c++) {
			if (*c == 'e')
				sh.opt_e = on;
			else if (*c == 'x')
				sh.opt_x = on;
			else if (*c == 'u')
				sh.opt_u = on;
			else if (*c == 'f')
				sh.opt_f = on;
			else {
				sh_error("set: illegal option %c%c", argv[i][0], *c);
				return 2;
			}
		}
	}
	if (i < argc || (i > 1 && strcmp(argv[i - 1], "--") == 0)) {
		params_free(&params);
		params_set(&params, argc - i, argv + i);
	}
	return 0;
}

/* break N and continue N: leave (or go on with) the Nth loop out. Outside a loop they do nothing. */
static int b_break(int argc, char **argv)
{
	int n = argv[1] ? number(argv[1]) : 1;

	if (n <= 0) {
		sh_error("%s: bad number: %s", argv[0], argv[1]);
		return 1;
	}
	if (exec_loop_depth == 0)
		return 0;
	exec_skip = argv[0][0] == 'b' ? SKIP_BREAK : SKIP_CONTINUE;
	exec_skip_count = n < exec_loop_depth ? n : exec_loop_depth;
	return 0;
}

/* return N: from a function or a . file; outside both, as in dash, from the script. */
static int b_return(int argc, char **argv)
{
	int n = argv[1] ? number(argv[1]) : sh.status;

	exec_skip = SKIP_RETURN;
	return n & 255;
}

/* eval ARGS: the arguments joined by blanks, run as commands. */
static int b_eval(int argc, char **argv)
{
	struct str text = { 0 };
	struct input in;
	int i, status;

	for (i = 1; i < argc; i++) {
		str_adds(&text, argv[i]);
		str_add(&text, i < argc - 1 ? ' ' : '\n');
	}
	if (!text.s)
		return 0;
	sh.status = 0;
	input_from_string(&in, text.s, sh.lineno);
	status = shell_run(&in, 0);
	str_free(&text);
	return status;
}

/* . FILE: its commands, in this shell. A name without a / is looked for in $PATH, then here. */
static int b_dot(int argc, char **argv)
{
	struct input *in;
	const char *path = var_get("PATH"), *p, *colon;
	struct str s = { 0 };
	int fd = -1, status;

	if (argc < 2) {
		sh_error(".: filename argument required");
		return 2;
	}
	if (strchr(argv[1], '/'))
		fd = open(argv[1], O_RDONLY);
	for (p = path ? path : ""; fd < 0 && !strchr(argv[1], '/'); p = colon + 1) {
		colon = strchr(p, ':');
		str_addn(&s, p, colon ? (size_t)(colon - p) : strlen(p));
		str_add(&s, '/');
		str_adds(&s, argv[1]);
		fd = open(s.s, O_RDONLY);
		str_free(&s);
		if (!colon)
			break;
	}
	if (fd < 0 && !strchr(argv[1], '/'))
		fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		sh_error(".: %s: not found", argv[1]);
		sh_abort(2);
		return 2;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	in = xmalloc(sizeof(*in));
	input_from_fd(in, fd, 0);
	sh.status = 0;
	exec_func_depth++;
	status = shell_run(in, 0);
	exec_func_depth--;
	if (exec_skip == SKIP_RETURN) {
		exec_skip = SKIP_NONE;
		status = sh.status;
	}
	close(fd);
	free(in);
	return status;
}

/* exec COMMAND, reached through `command exec` (command.c runs exec itself, for its redirections). */
static int b_exec(int argc, char **argv)
{
	return argc > 1 ? exec_program(argv + 1) : 0;
}

static int b_wait(int argc, char **argv)
{
	int i, status = 0;

	if (argc == 1)
		return jobs_wait(0);
	for (i = 1; i < argc; i++)
		status = jobs_wait(atoi(argv[i]));
	return status;
}

static const struct builtin builtins[] = {
	{ ":", b_true, 1 },
	{ ".", b_dot, 1 },
	{ "[", test_main, 0 },
	{ "bg", builtin_bg, 0 },
	{ "break", b_break, 1 },
	{ "cd", b_cd, 0 },
	{ "command", builtin_command, 0 },
	{ "continue", b_break, 1 },
	{ "echo", echo_main, 0 },
	{ "eval", b_eval, 1 },
	{ "exec", b_exec, 1 },          /* but see command.c's run_exec */
	{ "exit", b_exit, 1 },
	{ "export", b_export, 1 },
	{ "false", b_false, 0 },
	{ "fg", builtin_fg, 0 },
	{ "getopts", builtin_getopts, 0 },
	{ "jobs", builtin_jobs, 0 },
	{ "local", b_local, 0 },
	{ "printf", printf_main, 0 },
	{ "pwd", b_pwd, 0 },
	{ "read", builtin_read, 0 },
	{ "return", b_return, 1 },
	{ "set", b_set, 1 },
	{ "shift", b_shift, 1 },
	{ "test", test_main, 0 },
	{ "trap", builtin_trap, 1 },
	{ "true", b_true, 0 },
	{ "unset", b_unset, 1 },
	{ "wait", b_wait, 0 },
	{ NULL, NULL, 0 },
};

const struct builtin *builtin_find(const char *name)
{
	const struct builtin *b;

	for (b = builtins; b->name; b++)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}
