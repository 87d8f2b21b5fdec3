/* tail [-n N | -N] [FILE]: the last N lines (10 by default), kept in a ring as they go by. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	s[len] = '\0';
	return s;
}

int main(int argc, char **argv)
{
	long n = 10, seen = 0, i;
	FILE *f = stdin;
	char **ring, *line;
	int c;

	/* The historic form: -N means -n N. */
	if (argc > 1 && argv[1][0] == '-' && isdigit(argv[1][1]) && strspn(argv[1] + 1, "0123456789") ==
	    strlen(argv[1] + 1)) {
		n = atol(argv[1] + 1);
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c != 'n' || (n = atol(optarg)) < 0) {
			fprintf(stderr, "usage: tail [-n N | -N] [FILE]\n");
			return 2;
		}
	}
	if (optind < argc && !(f = fopen(argv[optind], "r"))) {
		fprintf(stderr, "tail: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	if (n == 0)
		return 0;
	ring = calloc(n, sizeof(char *));
	while ((line = read_line(f))) {
		free(ring[seen % n]);
		ring[seen++ % n] = line;
	}
	for (i = seen > n ? seen - n : 0; i < seen; i++)
		fputs(ring[i % n], stdout);
	return 0;
}
