/*
 * Command substitution. The commands run in a forked copy of the shell
 * with its stdout on a pipe; the shell reads the pipe to the end, then
 * waits for that one child. The child is part of whatever job is running,
 * so it gets no process group of its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmdsub.h"
#include "input.h"
#include "jobs.h"
#include "sh.h"
#include "str.h"

char *cmdsub_run(const char *text)
{
	struct str out = { 0 };
	struct input in;
	char buf[512];
	int p[2], n, st;
	pid_t pid;

	if (pipe(p) < 0) {
		sh_error("pipe: %s", strerror(errno));
		return xstrdup("");
	}
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (p[1] != 1) {
			dup2(p[1], 1);
			close(p[1]);
		}
		subshell_enter(0);
		input_from_string(&in, text, sh.lineno);
		shell_run(&in, 1);
		sh_exit(sh.status);
	}
	close(p[1]);
	if (pid < 0) {
		sh_error("fork: %s", strerror(errno));
		close(p[0]);
		return xstrdup("");
	}
	while ((n = read(p[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			str_addn(&out, buf, n);
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	sh.cmdsub_status = status_of(st);
	while (out.len > 0 && out.s[out.len - 1] == '\n')
		out.s[--out.len] = '\0';
	return str_take(&out);
}
