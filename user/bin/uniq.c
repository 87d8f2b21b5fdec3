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
	char *prev = NULL, *line = NULL;
	size_t cap = 0;
	ssize_t len;
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
	while ((len = getline(&line, &cap, in)) > 0) {
		if (line[len - 1] != '\n') {           /* the last line, without its newline: give it one */
			line = realloc(line, cap = (size_t)len + 2);
			strcpy(line + len, "\n");
		}
		if (prev && strcmp(prev, line) == 0) {
			n++;
			continue;
		}
		if (prev)
			emit(prev, n);
		free(prev);
		prev = strdup(line);
		n = 1;
	}
	if (prev)
		emit(prev, n);
	free(prev);
	free(line);
	return 0;
}
