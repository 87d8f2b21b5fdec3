/* tail [-n N | -N] [FILE]: the last N lines (10 by default), kept in a ring as they go by. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = 10, seen = 0, i;
	FILE *f = stdin;
	char **ring, *line = NULL;
	size_t cap = 0;

	if (getopt_count(argc, argv, &n) < 0) {
		fprintf(stderr, "usage: tail [-n N | -N] [FILE]\n");
		return 2;
	}
	if (optind < argc && !(f = fopen(argv[optind], "r"))) {
		fprintf(stderr, "tail: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	if (n == 0)
		return 0;
	ring = calloc(n, sizeof(char *));
	while (getline(&line, &cap, f) > 0) {
		free(ring[seen % n]);
		ring[seen++ % n] = strdup(line);
	}
	for (i = seen > n ? seen - n : 0; i < seen; i++)
		fputs(ring[i % n], stdout);
	return 0;
}
