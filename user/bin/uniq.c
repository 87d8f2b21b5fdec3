/*
 * uniq [-c] [-d] [-u] [INPUT [OUTPUT]]: adjacent repeated lines once.
 * -c counts them ("%7d line", as coreutils), -d prints only the repeated
 * ones, -u only those that are not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int count, only_dups, only_uniq;

/* A whole line of any length, newline included; NULL at the end. */
static char *read_line(FILE *f)
{
	size_t len = 0, cap = 128;
	char *s = malloc(cap);
	int c;

	while ((c = fgetc(f)) != EOF) {
		if (len + 2 > cap)
			s = realloc(s, cap *= 2);
		s[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (len == 0) {
		free(s);
		return NULL;
	}
	if (s[len - 1] != '\n')
		s[len++] = '\n';
	s[len] = '\0';
	return s;
}

static void emit(const char *line, long n)
{
	if ((only_dups && n < 2) || (only_uniq && n > 1))
		return;
	if (count)
		printf("%7ld %s", n, line);
	else
		fputs(line, stdout);
}

int main(int argc, char **argv)
{
	FILE *in = stdin;
	char *prev = NULL, *line;
	long n = 0;
	int c, fd;

	while ((c = getopt(argc, argv, "cdu")) != -1) {
		if (c == 'c')
			count = 1;
		else if (c == 'd')
			only_dups = 1;
		else if (c == 'u')
			only_uniq = 1;
		else {
			fprintf(stderr, "usage: uniq [-c] [-d] [-u] [INPUT [OUTPUT]]\n");
			return 2;
		}
	}
	if (optind < argc && strcmp(argv[optind], "-") != 0 && !(in = fopen(argv[optind], "r"))) {
		fprintf(stderr, "uniq: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	if (optind + 1 < argc) {
		fd = open(argv[optind + 1], O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd < 0) {
			fprintf(stderr, "uniq: %s: %s\n", argv[optind + 1], strerror(errno));
			return 1;
		}
		dup2(fd, 1);
		close(fd);
	}
	while ((line = read_line(in))) {
		if (prev && strcmp(prev, line) == 0) {
			n++;
			free(line);
			continue;
		}
		if (prev)
			emit(prev, n);
		free(prev);
		prev = line;
		n = 1;
	}
	if (prev)
		emit(prev, n);
	free(prev);
	return 0;
}
