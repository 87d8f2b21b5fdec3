/* head [-n N | -N] [FILE]: the first N lines (10 by default). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = 10, lines = 0;
	FILE *f = stdin;
	char buf[1024];
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
			fprintf(stderr, "usage: head [-n N | -N] [FILE]\n");
			return 2;
		}
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
