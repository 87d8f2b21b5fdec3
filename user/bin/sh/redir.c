/*
 * Redirections. In a child about to exec they simply change its fds. For
 * a builtin, a function or a compound command the shell itself runs, the
 * old fds are first copied above 9 (close-on-exec, so no command inherits
 * them) and put back afterwards, last change first.
 *
 * A here-document's text reaches the command through a pipe the shell
 * fills before the command starts; a pipe holds at least 4 KiB, and a
 * longer text goes through an unlinked file in /tmp instead, so the shell
 * never blocks on a pipe nobody reads yet.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expand.h"
#include "redir.h"
#include "sh.h"
#include "str.h"

#define HEREDOC_PIPE_MAX 4096   /* POSIX's PIPE_BUF: every pipe holds this much */

struct redir_undo {
	int fd;
	int saved;              /* a copy of fd's old file, or -1: fd was closed */
	struct redir_undo *next;
};

static void save(int fd, struct redir_undo **undo)
{
	struct redir_undo *u = xmalloc(sizeof(*u));

	u->fd = fd;
	u->saved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	u->next = *undo;
	*undo = u;
}

void redir_undo(struct redir_undo **undo)
{
	struct redir_undo *u, *next;

	for (u = *undo; u; u = next) {
		next = u->next;
		if (u->saved >= 0) {
			dup2(u->saved, u->fd);
			close(u->saved);
		} else {
			close(u->fd);
		}
		free(u);
	}
	*undo = NULL;
}

/* An fd to read text from: a pipe already holding it, or an unlinked temporary file. */
static int heredoc_fd(const char *text)
{
	static int count;
	size_t len = strlen(text);
	char path[64];
	int p[2], fd;

	if (len <= HEREDOC_PIPE_MAX) {
		if (pipe(p) < 0)
			return -1;
		write(p[1], text, len);
		close(p[1]);
		return p[0];
	}
	snprintf(path, sizeof(path), "/tmp/sh-heredoc-%d-%d", (int)getpid(), count++);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -1;
	unlink(path);
	if (write(fd, text, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Make fd refer to what from refers to, and close from. */
static void move_fd(int from, int fd)
{
	if (from != fd) {
		dup2(from, fd);
		close(from);
	}
}

static int open_file(struct redir *r)
{
	static const int flags[] = {
		[R_IN] = O_RDONLY, [R_OUT] = O_WRONLY | O_CREAT | O_TRUNC,
		[R_APPEND] = O_WRONLY | O_CREAT | O_APPEND, [R_RDWR] = O_RDWR | O_CREAT,
	};
	char *path = expand_word(r->word);
	int fd;

	if (!path)
		return -1;
	fd = open(path, flags[r->kind], 0666);
	if (fd < 0)
		sh_error("%s: %s", path, strerror(errno));
	free(path);
	return fd;
}

/* N<&M, N>&M: N becomes a copy of M; N>&- closes N. */
static int dup_fd(struct redir *r)
{
	char *w = expand_word(r->word);
	int to, ok = 1;

	if (!w)
		return -1;
	if (strcmp(w, "-") == 0) {
		close(r->fd);
	} else if (w[0] && strspn(w, "0123456789") == strlen(w)) {
		to = atoi(w);
		if (to != r->fd && dup2(to, r->fd) < 0) {
			sh_error("%d: %s", to, strerror(errno));
			ok = 0;
		}
	} else {
		sh_error("%s: bad fd number", w);
		ok = 0;
	}
	free(w);
	return ok ? 0 : -1;
}

int redir_apply(struct redir *r, struct redir_undo **undo)
{
	char *text;
	int fd;

	for (; r; r = r->next) {
		if (undo)
			save(r->fd, undo);
		switch (r->kind) {
		case R_DUPIN:
		case R_DUPOUT:
			if (dup_fd(r) < 0)
				return -1;
			continue;
		case R_HEREDOC:
			text = r->quoted ? xstrdup(r->body) : expand_heredoc(r->body);
			if (!text)
				return -1;
			fd = heredoc_fd(text);
			free(text);
			if (fd < 0) {
				sh_error("here-document: %s", strerror(errno));
				return -1;
			}
			break;
		default:
			if ((fd = open_file(r)) < 0)
				return -1;
		}
		move_fd(fd, r->fd);
	}
	return 0;
}
