/*
 * The executor: one function per kind of node. Each returns the node's
 * status and leaves it in $?.
 *
 * Two flags travel down the tree. EV_TESTED marks a condition (if's and
 * while's, the left of && and ||, what ! negates): a failure there is an
 * answer, not an error, so set -e leaves it alone, as in dash. EV_EXIT
 * marks the last thing a forked child will do; only a node in tail
 * position keeps it, and a simple command that gets it execs in place
 * instead of forking once more (so `sleep 3 &` is one process, leading its
 * own group).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "exec.h"
#include "expand.h"
#include "func.h"
#include "jobctl.h"
#include "jobs.h"
#include "pattern.h"
#include "redir.h"
#include "sh.h"
#include "timing.h"
#include "trap.h"
#include "vars.h"

enum skip exec_skip;
int exec_skip_count;
int exec_loop_depth;
int exec_func_depth;

/*
 * After a loop's body or condition stopped with exec_skip set: 1 to go on
 * with the next turn (continue was meant for this loop), 0 to leave it
 * (break was, or the skip is for a loop further out or is a return).
 */
static int loop_skip(void)
{
	if (exec_skip == SKIP_CONTINUE && --exec_skip_count <= 0) {
		exec_skip = SKIP_NONE;
		return 1;
	}
	if (exec_skip == SKIP_BREAK && --exec_skip_count <= 0)
		exec_skip = SKIP_NONE;
	return 0;
}

/* while and until. Their status is the last body's, 0 if the body never ran. */
static int exec_loop(struct node *n, int flags)
{
	int status = 0, c;

	exec_loop_depth++;
	for (;;) {
		c = exec_node(n->cond, flags | EV_TESTED);
		if (exec_skip) {
			if (loop_skip())
				continue;
			break;
		}
		if ((c == 0) != (n->type == N_WHILE))
			break;
		status = exec_node(n->body, flags);
		if (exec_skip && !loop_skip())
			break;
	}
	exec_loop_depth--;
	return status;
}

static int exec_for(struct node *n, int flags)
{
	struct strv words = { 0 };
	int status = 0, i;

	if (!n->words) {
		for (i = 0; i < params.n; i++)
			strv_add(&words, xstrdup(params.v[i]));
	} else if (expand_fields(n->words, &words) < 0) {
		return 2;
	}
	exec_loop_depth++;
	for (i = 0; i < words.n; i++) {
		var_set(n->name, words.v[i]);
		status = exec_node(n->body, flags);
		if (exec_skip && !loop_skip())
			break;
	}
	exec_loop_depth--;
	strv_free(&words);
	return status;
}

/* case: the first item with a pattern that matches the word runs; none: status 0. */
static int exec_case(struct node *n, int flags)
{
	struct case_item *c;
	char *word = expand_word(n->word), *pat;
	int i, match;

	if (!word)
		return 2;
	for (c = n->items; c; c = c->next)
		for (i = 0; c->patterns[i]; i++) {
			if (!(pat = expand_pattern(c->patterns[i]))) {
				free(word);
				return 2;
			}
			match = pattern_match(pat, word, strlen(word));
			free(pat);
			if (match) {
				free(word);
				return c->body ? exec_node(c->body, flags) : 0;
			}
		}
	free(word);
	return 0;
}

static int exec_if(struct node *n, int flags)
{
	int c = exec_node(n->cond, (flags & ~EV_EXIT) | EV_TESTED);

	if (exec_skip)
		return c;
	if (c == 0)
		return exec_node(n->body, flags);
	return n->els ? exec_node(n->els, flags) : 0;
}

static int exec_and_or(struct node *n, int flags)
{
	int status = exec_node(n->left, (flags & ~EV_EXIT) | EV_TESTED);

	if (exec_skip)
		return status;
	/* && goes on after success, || after failure. */
	if ((n->type == N_AND) == (status == 0))
		return exec_node(n->right, flags);
	return status;
}

/* ( list ): the list runs in a forked copy of the shell, so nothing it changes comes back. */
static int exec_subshell(struct node *n, int flags)
{
	struct job *j;

	if (!(flags & EV_EXIT)) {
		j = job_new(0);
		if (job_fork(j) != 0)
			return job_wait(j);
	}
	if (redir_apply(n->redirs, NULL) < 0)
		sh_exit(1);
	exec_node(n->body, (flags & EV_TESTED) | EV_EXIT);
	sh_exit(sh.status);
}

/* list &: a child runs it; the shell goes on at once. */
static int exec_background(struct node *n)
{
	struct job *j = job_new(1);
	pid_t pid = job_fork(j);

	if (pid == 0) {
		exec_node(n->body, EV_EXIT);
		sh_exit(sh.status);
	}
	if (pid < 0)
		return job_wait(j);     /* nothing started: 1 */
	job_background(j);
	return 0;
}

/* a | b | c: one child per command, each stdout on a pipe to the next one's stdin. */
static int exec_pipeline(struct node *n)
{
	struct job *j = job_new(0);
	int i, in = -1, p[2];
	pid_t pid;

	for (i = 0; i < n->ncmds; i++) {
		p[0] = p[1] = -1;
		if (i < n->ncmds - 1 && pipe(p) < 0) {
			sh_error("pipe: %s", strerror(errno));
			break;
		}
		pid = job_fork(j);
		if (pid == 0) {
			if (in >= 0) {
				dup2(in, 0);
				close(in);
			}
			if (p[1] >= 0) {
				dup2(p[1], 1);
				close(p[1]);
				close(p[0]);
			}
			exec_node(n->cmds[i], EV_EXIT);
			sh_exit(sh.status);
		}
		if (in >= 0)
			close(in);
		if (p[1] >= 0)
			close(p[1]);
		in = p[0];
		if (pid < 0)
			break;
	}
	if (in >= 0)
		close(in);
	return job_wait(j);
}

static int exec_time(struct node *n, int flags)
{
	struct timing t;
	int status;

	timing_start(&t);
	status = exec_node(n->body, flags & ~EV_EXIT);
	timing_report(&t);
	return status;
}

int exec_node(struct node *n, int flags)
{
	struct redir_undo *undo = NULL;
	int status = 0, may_exit = 0;

	if (!n)
		return 0;
	/* A compound command's redirections hold while it runs (a subshell's are applied inside it). */
	if (n->redirs && n->type != N_CMD && n->type != N_SUBSHELL && redir_apply(n->redirs, &undo) < 0) {
		redir_undo(&undo);
		return sh.status = 1;
	}
	jobctl_note(n);                 /* what a job made for n is called in jobs, fg, bg */
	switch (n->type) {
	case N_CMD:
		status = exec_simple(n, flags);
		may_exit = 1;
		break;
	case N_PIPE:
		status = exec_pipeline(n);
		may_exit = 1;
		break;
	case N_SUBSHELL:
		status = exec_subshell(n, flags);
		may_exit = 1;
		break;
	case N_LIST:
		status = exec_node(n->left, flags & ~EV_EXIT);
		if (!exec_skip)
			status = exec_node(n->right, flags);
		break;
	case N_AND:
	case N_OR:
		status = exec_and_or(n, flags);
		break;
	case N_NOT:
		status = !exec_node(n->body, (flags & ~EV_EXIT) | EV_TESTED);
		break;
	case N_BG:
		status = exec_background(n);
		break;
	case N_TIME:
		status = exec_time(n, flags);
		break;
	case N_GROUP:
		status = exec_node(n->body, flags);
		break;
	case N_IF:
		status = exec_if(n, flags);
		break;
	case N_WHILE:
	case N_UNTIL:
		status = exec_loop(n, flags & ~EV_EXIT);
		break;
	case N_FOR:
		status = exec_for(n, flags & ~EV_EXIT);
		break;
	case N_CASE:
		status = exec_case(n, flags);
		break;
	case N_FUNC:
		func_define(n->name, n->body);
		break;
	}
	redir_undo(&undo);
	sh.status = status;
	trap_run_pending();
	/* set -e: a command that fails, where no one tests it, ends the shell. */
	if (may_exit && sh.opt_e && status != 0 && !(flags & EV_TESTED) && !exec_skip)
		sh_exit(status);
	return status;
}
