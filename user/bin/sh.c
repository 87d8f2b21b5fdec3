/*
 * /bin/sh: a small Bourne-style shell.
 *
 *   sh                 interactive: prompt "$ ", one line at a time from the tty
 *   sh FILE [ARG...]   run a script (also what a "#!/bin/sh" line leads to)
 *   sh -c 'COMMANDS'   run one command line
 *
 * A line is a list of pipelines joined by ; & && ||; a pipeline is commands
 * joined by |; a command is words and redirections (< > >> N> N>> N<
 * N>&M). Words may be quoted with '' (literal) and "" ($ expands inside);
 * $NAME and ${NAME} are variables, $? the last status, $$ the shell's pid,
 * $0..$9 the script's arguments. # starts a comment. There is no word
 * splitting after expansion and no globbing.
 *
 * Job control: each pipeline runs in a process group of its own, which the
 * shell makes the tty's foreground group (TIOCSPGRP) while it runs, so ^C
 * reaches the job and not the shell; the shell itself ignores SIGINT and
 * SIGQUIT and its children start with the default actions again. Without a
 * tty that does job control (tcgetpgrp fails) everything still runs, just
 * without the foreground switch.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- variables ---------------------------------------------------------------------- */

struct var {
	char *name, *value;
	int exported;
	struct var *next;
};

static struct var *vars;
static int last_status;                 /* $? */
static int script_argc;                 /* $0..$9 */
static char **script_argv;

static struct var *var_find(const char *name)
{
	struct var *v;

	for (v = vars; v; v = v->next)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

static void var_set(const char *name, const char *value, int export)
{
	struct var *v = var_find(name);

	if (!v) {
		v = calloc(1, sizeof(*v));
		v->name = strdup(name);
		v->next = vars;
		vars = v;
	}
	if (value) {
		free(v->value);
		v->value = strdup(value);
	}
	if (export)
		v->exported = 1;
}

static void var_unset(const char *name)
{
	struct var **pp, *v;

	for (pp = &vars; (v = *pp); pp = &v->next)
		if (strcmp(v->name, name) == 0) {
			*pp = v->next;
			free(v->name);
			free(v->value);
			free(v);
			return;
		}
}

/* The environment a child gets: every exported variable that has a value. */
static char **var_environ(void)
{
	struct var *v;
	char **env;
	int n = 0;

	for (v = vars; v; v = v->next)
		n++;
	env = calloc(n + 1, sizeof(char *));
	n = 0;
	for (v = vars; v; v = v->next)
		if (v->exported && v->value) {
			env[n] = malloc(strlen(v->name) + strlen(v->value) + 2);
			sprintf(env[n++], "%s=%s", v->name, v->value);
		}
	return env;
}

static void var_import(char **env)
{
	for (; env && *env; env++) {
		char *eq = strchr(*env, '=');
		char *name;

		if (!eq)
			continue;
		name = strndup(*env, eq - *env);
		var_set(name, eq + 1, 1);
		free(name);
	}
}

/* ---- growing strings ---------------------------------------------------------------- */

struct str {
	char *s;
	size_t len, cap;
};

static void str_add(struct str *b, char c)
{
	if (b->len + 2 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 32;
		b->s = realloc(b->s, b->cap);
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

static void str_adds(struct str *b, const char *s)
{
	while (*s)
		str_add(b, *s++);
}

/* ---- words: raw text from the tokenizer, expanded just before the command runs ------ */

static int is_name_char(int c) { return isalnum(c) || c == '_'; }

/* $... at *pp: append its value to out, advance *pp past it. */
static void expand_dollar(const char **pp, struct str *out)
{
	const char *p = *pp + 1;
	char name[64], num[16];
	struct var *v;
	size_t n = 0;

	if (isdigit(*p)) {
		str_adds(out, *p - '0' < script_argc ? script_argv[*p - '0'] : "");
		*pp = p + 1;
		return;
	}
	if (*p == '?' || *p == '$') {
		snprintf(num, sizeof(num), "%d", *p == '?' ? last_status : getpid());
		str_adds(out, num);
		*pp = p + 1;
		return;
	}
	if (*p == '{') {
		for (p++; *p && *p != '}' && n < sizeof(name) - 1; p++)
			name[n++] = *p;
		if (*p == '}')
			p++;
	} else {
		for (; is_name_char(*p) && n < sizeof(name) - 1; p++)
			name[n++] = *p;
	}
	name[n] = '\0';
	if (n == 0) {
		str_add(out, '$');              /* a lone $ stands for itself */
	} else if ((v = var_find(name)) && v->value) {
		str_adds(out, v->value);
	}
	*pp = p;
}

/* Quotes and backslashes removed, variables replaced. The result is malloc'd. */
static char *expand(const char *raw)
{
	struct str out = { 0 };
	const char *p = raw;
	char quote = 0;

	str_adds(&out, "");
	while (*p) {
		if (quote == '\'') {
			if (*p == '\'')
				quote = 0;
			else
				str_add(&out, *p);
			p++;
		} else if (*p == '\\' && p[1] && (!quote || strchr("$\"\\`", p[1]))) {
			str_add(&out, p[1]);
			p += 2;
		} else if (*p == '$') {
			expand_dollar(&p, &out);
		} else if (*p == '"' || (*p == '\'' && !quote)) {
			quote = quote ? 0 : *p;
			p++;
		} else {
			str_add(&out, *p++);
		}
	}
	return out.s;
}

/* ---- the tokenizer ------------------------------------------------------------------ */

enum tok { T_WORD, T_PIPE, T_BG, T_SEMI, T_AND, T_OR, T_REDIR, T_END, T_ERROR };

enum redir_kind { R_IN, R_OUT, R_APPEND, R_DUP };

struct token {
	enum tok type;
	char *word;                     /* T_WORD: raw text; T_REDIR: the target (raw) */
	enum redir_kind kind;           /* T_REDIR */
	int fd, to_fd;                  /* T_REDIR: fd is redirected; R_DUP: to a copy of to_fd */
};

static const char *scan;                /* where the tokenizer is in the line */

/* The raw word at scan: up to a blank or an operator outside quotes. */
static char *scan_word(void)
{
	struct str w = { 0 };
	char quote = 0;

	str_adds(&w, "");
	while (*scan) {
		if (!quote && (isspace(*scan) || strchr("|&;<>", *scan)))
			break;
		if (*scan == '\\' && scan[1] && quote != '\'') {
			str_add(&w, *scan++);
		} else if ((*scan == '\'' || *scan == '"') && (!quote || quote == *scan)) {
			quote = quote ? 0 : *scan;
		}
		str_add(&w, *scan++);
	}
	if (quote) {
		fprintf(stderr, "sh: unterminated %c quote\n", quote);
		free(w.s);
		return NULL;
	}
	return w.s;
}

static struct token next_token(void)
{
	struct token t = { T_END, NULL, R_IN, 0, -1 };

	while (*scan == ' ' || *scan == '\t')
		scan++;
	if (*scan == '#' || *scan == '\0' || *scan == '\n')
		return t;
	if (isdigit(scan[0]) && (scan[1] == '<' || scan[1] == '>')) {
		t.fd = *scan++ - '0';
	} else if (*scan == '|' || *scan == '&' || *scan == ';') {
		char c = *scan++;

		if (c == '|' && *scan == '|')
			t.type = T_OR;
		else if (c == '&' && *scan == '&')
			t.type = T_AND;
		else
			t.type = c == '|' ? T_PIPE : c == '&' ? T_BG : T_SEMI;
		if (t.type == T_OR || t.type == T_AND)
			scan++;
		return t;
	} else if (*scan != '<' && *scan != '>') {
		t.type = (t.word = scan_word()) ? T_WORD : T_ERROR;
		return t;
	} else {
		t.fd = *scan == '<' ? 0 : 1;
	}
	/* A redirection: < > >> or >&N, then (but for >&N) its target word. */
	t.type = T_REDIR;
	if (*scan == '<') {
		t.kind = R_IN;
		scan++;
	} else if (scan[1] == '>') {
		t.kind = R_APPEND;
		scan += 2;
	} else if (scan[1] == '&' && isdigit(scan[2])) {
		t.kind = R_DUP;
		t.to_fd = scan[2] - '0';
		scan += 3;
		return t;
	} else {
		t.kind = R_OUT;
		scan++;
	}
	while (*scan == ' ' || *scan == '\t')
		scan++;
	if (!*scan || strchr("|&;<>#\n", *scan) || !(t.word = scan_word())) {
		fprintf(stderr, "sh: a redirection needs a file name\n");
		t.type = T_ERROR;
	}
	return t;
}

/* ---- the parsed line ---------------------------------------------------------------- */

struct cmd {
	char **words;                   /* raw, NULL-terminated */
	int nwords;
	struct token *redirs;
	int nredirs;
};

struct pipeline {
	struct cmd *cmds;
	int ncmds;
	int background;
	enum tok then;                  /* how the next pipeline follows: T_SEMI, T_AND, T_OR, T_END */
};

static void cmd_add_word(struct cmd *c, char *w)
{
	c->words = realloc(c->words, (c->nwords + 2) * sizeof(char *));
	c->words[c->nwords++] = w;
	c->words[c->nwords] = NULL;
}

static void cmd_add_redir(struct cmd *c, struct token t)
{
	c->redirs = realloc(c->redirs, (c->nredirs + 1) * sizeof(t));
	c->redirs[c->nredirs++] = t;
}

static void pipeline_free(struct pipeline *pl)
{
	int i, j;

	for (i = 0; i < pl->ncmds; i++) {
		for (j = 0; j < pl->cmds[i].nwords; j++)
			free(pl->cmds[i].words[j]);
		for (j = 0; j < pl->cmds[i].nredirs; j++)
			free(pl->cmds[i].redirs[j].word);
		free(pl->cmds[i].words);
		free(pl->cmds[i].redirs);
	}
	free(pl->cmds);
	pl->cmds = NULL;
	pl->ncmds = 0;
}

/*
 * One pipeline from scan. 1: got one (pl->then says what follows), 0: the
 * line is empty, -1: a syntax error (already reported).
 */
static int parse_pipeline(struct pipeline *pl)
{
	struct cmd *c;
	struct token t;

	memset(pl, 0, sizeof(*pl));
	pl->cmds = calloc(1, sizeof(struct cmd));
	pl->ncmds = 1;
	for (;;) {
		c = &pl->cmds[pl->ncmds - 1];
		t = next_token();
		if (t.type == T_WORD) {
			cmd_add_word(c, t.word);
		} else if (t.type == T_REDIR) {
			cmd_add_redir(c, t);
		} else if (t.type == T_PIPE) {
			if (c->nwords == 0)
				goto syntax;
			pl->cmds = realloc(pl->cmds, (pl->ncmds + 1) * sizeof(struct cmd));
			memset(&pl->cmds[pl->ncmds++], 0, sizeof(struct cmd));
		} else if (t.type == T_ERROR) {
			goto fail;
		} else {
			if (c->nwords == 0 && c->nredirs == 0) {
				if (pl->ncmds == 1 && t.type == T_END)
					return 0;
				goto syntax;
			}
			pl->background = t.type == T_BG;
			pl->then = t.type == T_BG ? T_SEMI : t.type;
			return 1;
		}
	}
syntax:
	fprintf(stderr, "sh: syntax error\n");
fail:
	pipeline_free(pl);
	return -1;
}

/* ---- redirections -------------------------------------------------------------------- */

/* Apply a command's redirections to this process's fds. 0, or -1 with a message. */
static int apply_redirs(struct cmd *c)
{
	int i, fd, flags;
	char *path;

	for (i = 0; i < c->nredirs; i++) {
		struct token *r = &c->redirs[i];

		if (r->kind == R_DUP) {
			if (dup2(r->to_fd, r->fd) < 0) {
				fprintf(stderr, "sh: %d: %s\n", r->to_fd, strerror(errno));
				return -1;
			}
			continue;
		}
		flags = r->kind == R_IN ? O_RDONLY
			: O_WRONLY | O_CREAT | (r->kind == R_APPEND ? O_APPEND : O_TRUNC);
		path = expand(r->word);
		fd = open(path, flags, 0666);
		if (fd < 0) {
			fprintf(stderr, "sh: %s: %s\n", path, strerror(errno));
			free(path);
			return -1;
		}
		free(path);
		if (fd != r->fd) {
			dup2(fd, r->fd);
			close(fd);
		}
	}
	return 0;
}

/* ---- jobs ---------------------------------------------------------------------------- */

#define MAX_JOBS 32

struct job {
	int id;                         /* [N]; 0: a free slot */
	pid_t pgid;
	int running;                    /* processes not yet reaped */
};

static struct job jobs[MAX_JOBS];
static int job_control;                 /* the tty answers tcgetpgrp: switch foreground groups */
static int interactive;

/* A process of background job pgid has been reaped: count it off, report the job once all are. */
static void job_reaped(pid_t pgid)
{
	int i;

	for (i = 0; i < MAX_JOBS; i++)
		if (jobs[i].id && jobs[i].pgid == pgid && --jobs[i].running == 0) {
			if (interactive)
				fprintf(stderr, "[%d] Done\n", jobs[i].id);
			jobs[i].id = 0;
		}
}

/* Which background job a pid was in: each job remembers its pids' group. */
static pid_t bg_pid_group[256][2];      /* (pid, pgid) of background processes */

static void bg_remember(pid_t pid, pid_t pgid)
{
	int i;

	for (i = 0; i < 256; i++)
		if (bg_pid_group[i][0] == 0) {
			bg_pid_group[i][0] = pid;
			bg_pid_group[i][1] = pgid;
			return;
		}
}

static void bg_forget(pid_t pid)
{
	int i;

	for (i = 0; i < 256; i++)
		if (bg_pid_group[i][0] == pid) {
			bg_pid_group[i][0] = 0;
			job_reaped(bg_pid_group[i][1]);
			return;
		}
}

/* Collect finished background processes without waiting. */
static void reap_background(void)
{
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
		bg_forget(pid);
}

static void job_start(pid_t pgid, int nprocs)
{
	int i;
	int id = 1;

	for (i = 0; i < MAX_JOBS; i++)
		if (jobs[i].id >= id)
			id = jobs[i].id + 1;
	for (i = 0; i < MAX_JOBS; i++)
		if (!jobs[i].id) {
			jobs[i].id = id;
			jobs[i].pgid = pgid;
			jobs[i].running = nprocs;
			if (interactive)
				fprintf(stderr, "[%d] %d\n", id, pgid);
			return;
		}
}

/* ---- builtins ------------------------------------------------------------------------ */

static int builtin_cd(char **argv)
{
	struct var *home = var_find("HOME");
	const char *dir = argv[1] ? argv[1] : home && home->value ? home->value : "/";

	if (chdir(dir) < 0) {
		fprintf(stderr, "sh: cd: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return 0;
}

static int builtin_export(char **argv)
{
	int i;

	for (i = 1; argv[i]; i++) {
		char *eq = strchr(argv[i], '=');

		if (eq) {
			*eq = '\0';
			var_set(argv[i], eq + 1, 1);
			*eq = '=';
		} else {
			var_set(argv[i], NULL, 1);
		}
	}
	if (i == 1) {
		struct var *v;

		for (v = vars; v; v = v->next)
			if (v->exported && v->value)
				printf("export %s=\"%s\"\n", v->name, v->value);
	}
	return 0;
}

static int builtin_wait(char **argv)
{
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, 0)) > 0 || (pid < 0 && errno == EINTR))
		if (pid > 0)
			bg_forget(pid);
	return 0;
}

static void shell_exit(int status) __attribute__((noreturn));

static int run_builtin(char **argv, int *handled)
{
	*handled = 1;
	if (strcmp(argv[0], "cd") == 0)
		return builtin_cd(argv);
	if (strcmp(argv[0], "exit") == 0)
		shell_exit(argv[1] ? atoi(argv[1]) : last_status);
	if (strcmp(argv[0], "export") == 0)
		return builtin_export(argv);
	if (strcmp(argv[0], "unset") == 0) {
		for (argv++; *argv; argv++)
			var_unset(*argv);
		return 0;
	}
	if (strcmp(argv[0], "wait") == 0)
		return builtin_wait(argv);
	*handled = 0;
	return 0;
}

static int is_builtin(const char *name)
{
	static const char *const names[] = { "cd", "exit", "export", "unset", "wait", NULL };
	int i;

	for (i = 0; names[i]; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* NAME=value words before the command: 1 when w is one. */
static int is_assignment(const char *w)
{
	const char *p = w;

	if (!isalpha(*p) && *p != '_')
		return 0;
	while (is_name_char(*p))
		p++;
	return *p == '=';
}

/* ---- running a pipeline -------------------------------------------------------------- */

static char **expand_words(struct cmd *c, int skip)
{
	char **argv = calloc(c->nwords + 1, sizeof(char *));
	int i;

	for (i = skip; i < c->nwords; i++)
		argv[i - skip] = expand(c->words[i]);
	return argv;
}

static void free_words(char **argv)
{
	int i;

	for (i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* In a child: become the command. Never returns. */
static void exec_command(struct cmd *c)
{
	int nassign = 0, handled, status;
	char **argv, **env;

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTTOU, SIG_DFL);
	signal(SIGTTIN, SIG_DFL);
	signal(SIGTSTP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (apply_redirs(c) < 0)
		_exit(1);
	while (nassign < c->nwords && is_assignment(c->words[nassign])) {
		char *a = expand(c->words[nassign++]), *eq = strchr(a, '=');

		*eq = '\0';
		var_set(a, eq + 1, 1);          /* VAR=x cmd: in cmd's environment only */
	}
	argv = expand_words(c, nassign);
	if (!argv[0])
		_exit(0);
	status = run_builtin(argv, &handled);
	if (handled)
		_exit(status);
	env = var_environ();
	environ = env;
	execvp(argv[0], argv);
	if (errno == ENOENT)
		fprintf(stderr, "sh: %s: not found\n", argv[0]);
	else
		fprintf(stderr, "sh: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* What a command's wait status means as $?, with a word for a signal's victim. */
static int status_of(int st)
{
	if (WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);

		if (sig == SIGINT)
			fprintf(stderr, "\n");
		else if (sig != SIGPIPE)
			fprintf(stderr, "%s\n", strsignal(sig));
		return 128 + sig;
	}
	return WEXITSTATUS(st);
}

static void give_tty_to(pid_t pgid)
{
	if (job_control)
		tcsetpgrp(0, pgid);
}

/* Only NAME=value words: they set shell variables. */
static int only_assignments(struct cmd *c)
{
	int i;

	for (i = 0; i < c->nwords; i++)
		if (!is_assignment(c->words[i]))
			return 0;
	return c->nwords > 0;
}

/*
 * A single builtin, or only assignments, runs in the shell itself, its
 * redirections undone after. -1: not one of those (fork and exec it).
 */
static int run_in_shell(struct cmd *c)
{
	int saved[3], i, status = 1, handled;
	char **argv;

	if (c->nwords > 0 && !only_assignments(c) && !is_builtin(c->words[0]))
		return -1;
	for (i = 0; i < 3; i++)
		saved[i] = fcntl(i, F_DUPFD_CLOEXEC, 10);
	if (apply_redirs(c) == 0) {
		argv = expand_words(c, 0);
		if (only_assignments(c)) {
			for (i = 0; argv[i]; i++) {
				char *eq = strchr(argv[i], '=');

				*eq = '\0';
				var_set(argv[i], eq + 1, 0);
			}
			status = 0;
		} else {
			status = argv[0] ? run_builtin(argv, &handled) : 0;
		}
		free_words(argv);
	}
	for (i = 0; i < 3; i++)
		if (saved[i] >= 0) {
			dup2(saved[i], i);
			close(saved[i]);
		}
	return status;
}

static int run_pipeline(struct pipeline *pl)
{
	pid_t pgid = 0, *pids, pid;
	int i, in = -1, p[2], st, status = 0, left;

	if (pl->ncmds == 1 && !pl->background && (status = run_in_shell(&pl->cmds[0])) >= 0)
		return status;
	pids = calloc(pl->ncmds, sizeof(pid_t));
	for (i = 0; i < pl->ncmds; i++) {
		p[0] = p[1] = -1;
		if (i < pl->ncmds - 1 && pipe(p) < 0) {
			fprintf(stderr, "sh: pipe: %s\n", strerror(errno));
			break;
		}
		pid = fork();
		if (pid == 0) {
			setpgid(0, pgid);       /* the first child leads the job's group */
			if (!pl->background)
				give_tty_to(getpgrp());
			if (in >= 0) {
				dup2(in, 0);
				close(in);
			}
			if (p[1] >= 0) {
				dup2(p[1], 1);
				close(p[1]);
				close(p[0]);
			}
			exec_command(&pl->cmds[i]);
		}
		if (pid < 0) {
			fprintf(stderr, "sh: fork: %s\n", strerror(errno));
			close(p[0]);
			close(p[1]);
			break;
		}
		if (!pgid)
			pgid = pid;
		setpgid(pid, pgid);             /* also here: whichever runs first, the group exists */
		pids[i] = pid;
		if (in >= 0)
			close(in);
		if (p[1] >= 0)
			close(p[1]);
		in = p[0];
	}
	if (in >= 0)
		close(in);
	left = i;
	if (pl->background) {
		if (left > 0) {
			job_start(pgid, left);
			for (i = 0; i < left; i++)
				bg_remember(pids[i], pgid);
		}
		free(pids);
		return left == pl->ncmds ? 0 : 1;
	}
	if (left > 0)
		give_tty_to(pgid);
	status = left == pl->ncmds ? 0 : 1;
	while (left > 0) {
		pid = waitpid(-1, &st, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			/* The job's end went unseen: say so, and never call it a success. */
			fprintf(stderr, "sh: wait: %s\n", strerror(errno));
			status = 127;
			break;
		}
		for (i = 0; i < pl->ncmds; i++)
			if (pids[i] == pid) {
				pids[i] = 0;
				left--;
				if (i == pl->ncmds - 1)
					status = status_of(st);        /* a pipeline's status is its last command's */
				break;
			}
		if (i == pl->ncmds)
			bg_forget(pid);
	}
	give_tty_to(getpgrp());
	free(pids);
	return status;
}

/* ---- lines, scripts, the prompt ----------------------------------------------------- */

static void run_line(const char *line)
{
	struct pipeline pl;
	enum tok then = T_SEMI;
	int r;

	scan = line;
	for (;;) {
		r = parse_pipeline(&pl);
		if (r <= 0) {
			if (r < 0)
				last_status = 2;
			return;
		}
		/* && runs the next pipeline only after success, || only after failure. */
		if (then == T_SEMI || (then == T_AND && last_status == 0) || (then == T_OR && last_status != 0))
			last_status = run_pipeline(&pl);
		then = pl.then;
		pipeline_free(&pl);
		if (then == T_END)
			return;
	}
}

static void shell_exit(int status)
{
	exit(status);
}

/* Read one line of any length; NULL at the end of the input. */
static char *read_line(FILE *in)
{
	struct str line = { 0 };
	int c;

	str_adds(&line, "");
	while ((c = fgetc(in)) != EOF && c != '\n')
		str_add(&line, (char)c);
	if (c == EOF && line.len == 0) {
		free(line.s);
		return NULL;
	}
	return line.s;
}

static void run_file(FILE *in)
{
	char *line;

	for (;;) {
		if (interactive) {
			reap_background();
			fputs("$ ", stderr);
		}
		line = read_line(in);
		if (!line)
			break;
		run_line(line);
		free(line);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: sh [FILE [ARG...] | -c COMMANDS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	FILE *in = stdin;

	/* Children must stay to be waited for, even if whoever started us ignored SIGCHLD. */
	signal(SIGCHLD, SIG_DFL);
	var_import(environ);
	if (!var_find("PATH"))
		var_set("PATH", "/bin:/sbin", 1);
	script_argc = argc;
	script_argv = argv;
	if (argc > 1 && strcmp(argv[1], "-c") == 0) {
		if (argc < 3)
			usage();
		script_argc = argc - 2;
		script_argv = argv + 2;
		run_line(argv[2]);
		return last_status;
	}
	if (argc > 1 && argv[1][0] == '-')
		usage();
	if (argc > 1) {
		in = fopen(argv[1], "r");
		if (!in) {
			fprintf(stderr, "sh: %s: %s\n", argv[1], strerror(errno));
			return 127;
		}
		script_argc = argc - 1;
		script_argv = argv + 1;
	} else {
		interactive = 1;
		/* ^C and ^\ are for the job in the foreground; a background shell must not stop on the tty. */
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		signal(SIGTTOU, SIG_IGN);
		signal(SIGTTIN, SIG_IGN);
		signal(SIGTSTP, SIG_IGN);
		if (tcgetpgrp(0) >= 0) {
			setpgid(0, 0);          /* a session leader (from init) already leads its group */
			job_control = tcsetpgrp(0, getpgrp()) == 0;
		}
	}
	run_file(in);
	return last_status;
}
