/*
 * xargs [-n N] [-I STR] [-r] [-t] [COMMAND [ARG...]]: run COMMAND (echo by
 * default) with ARGs and then the items read from stdin, as many items at
 * a time as fit (or N with -n). Items are separated by blanks and
 * newlines; '...', "..." and \ quote, as POSIX says. With -I, each input
 * line is one item, and COMMAND runs once per line with STR in its
 * arguments replaced by it. -r: do not run COMMAND at all if there are no
 * items. -t: print each command on stderr before running it.
 * Status 123 if a run of COMMAND failed, 127 if it was not found.
 * (The + in getopt's options stops glibc's getopt from taking COMMAND's
 * options as ours when this file is built on a host to compare with.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CHARS (64 * 1024)   /* the argument bytes of one command, well under the kernel's limit */

static int trace, status;

static int usage(void)
{
	fprintf(stderr, "usage: xargs [-n N] [-I STR] [-r] [-t] [COMMAND [ARG...]]\n");
	return 2;
}

/* The next item from stdin (malloc'd), NULL at the end. lines: -I's one item per line. */
static char *next_item(int lines)
{
	size_t len = 0, cap = 64;
	char *s = malloc(cap), quote = 0;
	int c, any = 0;

	while ((c = getchar()) != EOF) {
		if (len + 2 > cap)
			s = realloc(s, cap *= 2);
		if (quote) {
			if (c == quote)
				quote = 0;
			else
				s[len++] = (char)c;
			continue;
		}
		if (c == '\n' || (!lines && (c == ' ' || c == '\t'))) {
			if (any)
				break;
			continue;
		}
		if (lines && !any && (c == ' ' || c == '\t'))
			continue;       /* -I: leading blanks are not part of the line */
		any = 1;
		if (c == '\'' || c == '"')
			quote = (char)c;
		else if (c == '\\' && (c = getchar()) != EOF)
			s[len++] = (char)c;
		else
			s[len++] = (char)c;
	}
	if (!any) {
		free(s);
		return NULL;
	}
	s[len] = '\0';
	return s;
}

static void run(char **argv)
{
	pid_t pid;
	int st, i;

	if (trace) {
		for (i = 0; argv[i]; i++)
			fprintf(stderr, "%s%s", argv[i], argv[i + 1] ? " " : "\n");
	}
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "xargs: %s: %s\n", argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (pid < 0) {
		fprintf(stderr, "xargs: fork: %s\n", strerror(errno));
		exit(1);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && (WEXITSTATUS(st) == 127 || WEXITSTATUS(st) == 126))
		exit(WEXITSTATUS(st));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		status = 123;
}

/* -I: s with every str replaced by item (malloc'd). */
static char *replace(const char *s, const char *str, const char *item)
{
	size_t n = strlen(str), len = 0, cap = strlen(s) + 1;
	char *out = malloc(cap);
	const char *hit;

	while ((hit = strstr(s, str)) && n) {
		cap += strlen(item);
		out = realloc(out, cap);
		memcpy(out + len, s, hit - s);
		len += hit - s;
		memcpy(out + len, item, strlen(item));
		len += strlen(item);
		s = hit + n;
	}
	strcpy(out + len, s);
	return out;
}

int main(int argc, char **argv)
{
	static char *echo[] = { "echo", NULL };
	char **cmd, **args, *item, *repl = NULL;
	int c, i, max_items = 0, ncmd, n, no_empty = 0, ran = 0;
	size_t chars;

	while ((c = getopt(argc, argv, "+n:I:rt")) != -1) {
		if (c == 'n' && (max_items = atoi(optarg)) > 0)
			continue;
		else if (c == 'I')
			repl = optarg;
		else if (c == 'r')
			no_empty = 1;
		else if (c == 't')
			trace = 1;
		else
			return usage();
	}
	cmd = optind < argc ? argv + optind : echo;
	ncmd = optind < argc ? argc - optind : 1;
	args = malloc((ncmd + MAX_CHARS / 2 + 1) * sizeof(char *));
	if (repl) {
		while ((item = next_item(1))) {
			for (i = 0; i < ncmd; i++)
				args[i] = replace(cmd[i], repl, item);
			args[ncmd] = NULL;
			run(args);
			for (i = 0; i < ncmd; i++)
				free(args[i]);
			free(item);
		}
		return status;
	}
	memcpy(args, cmd, ncmd * sizeof(char *));
	for (;;) {
		n = ncmd;
		chars = 0;
		while ((!max_items || n - ncmd < max_items) && chars < MAX_CHARS && (item = next_item(0))) {
			args[n++] = item;
			chars += strlen(item) + 1;
		}
		if (n == ncmd && (ran || no_empty))
			break;
		args[n] = NULL;
		run(args);
		ran = 1;
		for (i = ncmd; i < n; i++)
			free(args[i]);
		if (n == ncmd)
			break;
	}
	return status;
}
