/*
 * A simple command. Its words are expanded (fields, then globbing), its
 * NAME=value words too; then the name is looked up in POSIX's order:
 * special builtins (exit, set, ...), functions, other builtins, and last a
 * program in $PATH, run in a child. A builtin or function runs in the
 * shell itself, with the redirections applied for its duration and the
 * NAME=value words set for it alone (for a special builtin, for good).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins.h"
#include "command.h"
#include "exec.h"
#include "expand.h"
#include "func.h"
#include "jobs.h"
#include "redir.h"
#include "sh.h"
#include "vars.h"

/* NAME=value words, expanded: two lists, names and values. */
struct assigns {
	struct strv names, values;
};

static int expand_assigns(char **raw, struct assigns *a)
{
	char *eq, *value;

	for (; raw && *raw; raw++) {
		eq = strchr(*raw, '=');
		if (!(value = expand_word(eq + 1)))
			return -1;
		strv_add(&a->names, xstrndup(*raw, eq - *raw));
		strv_add(&a->values, value);
	}
	return 0;
}

static void assigns_free(struct assigns *a)
{
	strv_free(&a->names);
	strv_free(&a->values);
}

/* set -x: "+ NAME=value ... command args" on stderr, in one write. */
static void trace(struct assigns *a, struct strv *argv)
{
	const char *ps4 = var_get("PS4");
	struct str line = { 0 };
	int i;

	str_adds(&line, ps4 ? ps4 : "+ ");
	for (i = 0; i < a->names.n; i++) {
		str_adds(&line, a->names.v[i]);
		str_add(&line, '=');
		str_adds(&line, a->values.v[i]);
		if (i < a->names.n - 1 || argv->n)
			str_add(&line, ' ');
	}
	for (i = 0; i < argv->n; i++) {
		str_adds(&line, argv->v[i]);
		if (i < argv->n - 1)
			str_add(&line, ' ');
	}
	str_add(&line, '\n');
	write(2, line.s, line.len);
	str_free(&line);
}

/* The file name would run, searching $PATH unless it has a /; NULL if none. Malloc'd. */
static char *find_program(const char *name)
{
	const char *path = var_get("PATH"), *p, *colon;
	struct str s = { 0 };
	struct stat st;

	if (strchr(name, '/'))
		return xstrdup(name);
	for (p = path ? path : "/bin:/sbin"; ; p = colon + 1) {
		colon = strchr(p, ':');
		str_addn(&s, p, colon ? (size_t)(colon - p) : strlen(p));
		if (s.len == 0)
			str_add(&s, '.');
		str_add(&s, '/');
		str_adds(&s, name);
		if (stat(s.s, &st) == 0 && S_ISREG(st.st_mode) && access(s.s, X_OK) == 0)
			return str_take(&s);
		str_free(&s);
		if (!colon)
			return NULL;
	}
}

int exec_program(char **argv)
{
	char **env = var_environ(), *path = find_program(argv[0]);
	struct strv script = { 0 };
	int i;

	if (!path) {
		sh_error("%s: not found", argv[0]);
		var_free_environ(env);
		return 127;
	}
	execve(path, argv, env);
	if (errno == ENOEXEC) {
		/* A script without a #! line: it is a shell script, as POSIX says. */
		strv_add(&script, xstrdup("sh"));
		strv_add(&script, xstrdup(path));
		for (i = 1; argv[i]; i++)
			strv_add(&script, xstrdup(argv[i]));
		execve("/bin/sh", script.v, env);
	}
	sh_error("%s: %s", argv[0], strerror(errno));
	free(path);
	var_free_environ(env);
	return errno == ENOENT ? 127 : 126;
}

/* A program: in a child (unless this is the last thing this process does anyway). */
static int run_program(struct node *n, struct assigns *a, char **argv, int flags)
{
	struct job *j;
	int i;

	if (!(flags & EV_EXIT)) {
		j = job_new(0);
		if (job_fork(j) != 0)
			return job_wait(j);
	}
	if (redir_apply(n->redirs, NULL) < 0)
		_exit(1);
	for (i = 0; i < a->names.n; i++)
		var_export(a->names.v[i], a->values.v[i]);   /* VAR=x cmd: in cmd's environment */
	_exit(exec_program(argv));
}

/* NAME=value words set for the builtin or function only: the old values go on *saved. */
static void set_assigns(struct assigns *a, struct saved_var **saved)
{
	int i;

	for (i = 0; i < a->names.n; i++) {
		if (saved)
			var_save(saved, a->names.v[i]);
		var_set(a->names.v[i], a->values.v[i]);
	}
}

static int run_builtin(const struct builtin *b, struct node *n, struct assigns *a, struct strv *argv)
{
	struct redir_undo *undo = NULL;
	struct saved_var *saved = NULL;
	int status = 1;

	if (redir_apply(n->redirs, &undo) == 0) {
		set_assigns(a, b->special ? NULL : &saved);
		status = b->fn(argv->n, argv->v);
		fflush(stdout);         /* a C library that buffers (a host build) must write before the fds go back */
		var_restore(&saved);
	}
	redir_undo(&undo);
	return status;
}

/* A function: its own $1..., its own locals; return ends it (SKIP_RETURN stops here). */
static int run_function(struct node *body, struct node *n, struct assigns *a, struct strv *argv, int flags)
{
	struct redir_undo *undo = NULL;
	struct saved_var *locals = NULL, **outer_locals = var_locals;
	struct params outer = params;
	int status = 1, outer_loops = exec_loop_depth;

	if (redir_apply(n->redirs, &undo) == 0) {
		set_assigns(a, &locals);
		params_set(&params, argv->n - 1, argv->v + 1);
		var_locals = &locals;
		exec_loop_depth = 0;            /* break and continue do not reach the caller's loops */
		exec_func_depth++;
		body->refs++;                   /* the function may redefine itself while it runs */
		status = exec_node(body, flags & EV_TESTED);
		node_free(body);
		exec_func_depth--;
		if (exec_skip == SKIP_RETURN)
			exec_skip = SKIP_NONE;
		exec_loop_depth = outer_loops;
		var_restore(&locals);
		var_locals = outer_locals;
		params_free(&params);
		params = outer;
	}
	redir_undo(&undo);
	return status;
}

/* exec: with a command, it replaces the shell; without one, its redirections stay for good. */
static int run_exec(struct node *n, struct assigns *a, struct strv *argv)
{
	int i;

	if (redir_apply(n->redirs, NULL) < 0)
		return 1;
	if (argv->n == 1) {
		set_assigns(a, NULL);
		return 0;
	}
	for (i = 0; i < a->names.n; i++)
		var_export(a->names.v[i], a->values.v[i]);
	i = exec_program(argv->v + 1);
	if (!sh.interactive)
		sh_exit(i);             /* a script whose exec failed has nothing sensible left to do */
	return i;
}

/*
 * Only NAME=value words (and perhaps redirections): set the variables in
 * the shell, one after the other, so `a=1 b=$a` sees the new a. The status
 * is that of the last $( ) in them, or 0.
 */
static int run_assignments(struct node *n)
{
	struct redir_undo *undo = NULL;
	struct assigns a = { 0 };
	char *one[2] = { NULL, NULL };
	int status = 0, i;

	for (i = 0; n->assigns && n->assigns[i]; i++) {
		one[0] = n->assigns[i];
		if (expand_assigns(one, &a) < 0) {
			assigns_free(&a);
			return 2;
		}
		var_set(a.names.v[i], a.values.v[i]);
	}
	if (sh.opt_x)
		trace(&a, &(struct strv){ 0 });
	assigns_free(&a);
	if (sh.cmdsub_status >= 0)
		status = sh.cmdsub_status;
	if (redir_apply(n->redirs, &undo) < 0)
		status = 1;
	redir_undo(&undo);
	return status;
}

int exec_simple(struct node *n, int flags)
{
	struct assigns a = { 0 };
	struct strv argv = { 0 };
	const struct builtin *b;
	struct node *body;
	int status;

	sh.lineno = n->line;
	sh.cmdsub_status = -1;
	if (!n->args)
		return run_assignments(n);
	if (expand_fields(n->args, &argv) < 0 || expand_assigns(n->assigns, &a) < 0) {
		status = 2;
		goto out;
	}
	if (sh.opt_x)
		trace(&a, &argv);
	if (argv.n == 0) {             /* the words expanded to nothing: `$empty x=1` is x=1 */
		set_assigns(&a, NULL);
		status = sh.cmdsub_status >= 0 ? sh.cmdsub_status : 0;
		goto out;
	}
	b = builtin_find(argv.v[0]);
	body = func_find(argv.v[0]);
	if (strcmp(argv.v[0], "exec") == 0)
		status = run_exec(n, &a, &argv);
	else if (b && (b->special || !body))
		status = run_builtin(b, n, &a, &argv);
	else if (body)
		status = run_function(body, n, &a, &argv, flags);
	else
		status = run_program(n, &a, argv.v, flags);
out:
	assigns_free(&a);
	strv_free(&argv);
	return status;
}

int builtin_command(int argc, char **argv)
{
	const struct builtin *b;
	char *path;
	int i = 1, verbose = 0;
	struct job *j;

	if (argc > 1 && strcmp(argv[1], "-v") == 0) {
		verbose = 1;
		i++;
	}
	if (i >= argc)
		return 0;
	if (verbose) {
		if (builtin_find(argv[i]) || func_find(argv[i])) {
			printf("%s\n", argv[i]);
			return 0;
		}
		if (!(path = find_program(argv[i])) || access(path, X_OK) < 0) {
			free(path);
			return 1;
		}
		printf("%s\n", path);
		free(path);
		return 0;
	}
	if ((b = builtin_find(argv[i])))
		return b->fn(argc - i, argv + i);
	j = job_new(0);
	if (job_fork(j) != 0)
		return job_wait(j);
	_exit(exec_program(argv + i));
}
