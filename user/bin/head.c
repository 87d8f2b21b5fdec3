/* head [-n N | -N] [FILE]: the first N lines (10 by default). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = 10, lines = 0;
	FILE *f = stdin;
	char buf[1024];

	if (getopt_count(argc, argv, &n) < 0) {
		fprintf(stderr, "usage: head [-n N | -N] [FILE]\n");
		return 2;
	}
	if (optind < argc && !(f = fopen(argv[optind], "r"))) {
		fprintf(stderr, "head: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	while (lines < n && fgets(buf, sizeof(buf), f)) {
		fputs(buf, stdout);
		if (strchr(buf, '\n'))
			lines++;
	}
	return 0;
}
