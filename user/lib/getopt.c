/*
 * getopt(): POSIX's short options ("ab:c"), with "--" ending them and '?' for a bad one;
 * getopt_count(): head's and tail's -n N over it.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *optarg;
int optind = 1, opterr = 1, optopt;

int getopt(int argc, char *const argv[], const char *optstring)
{
	static int next = 1;            /* the index of the next letter in argv[optind] */
	const char *spec;
	char *arg;
	int c;

	if (optind >= argc || !argv[optind] || argv[optind][0] != '-' || argv[optind][1] == '\0')
		return -1;
	arg = argv[optind];
	if (strcmp(arg, "--") == 0) {
		optind++;
		return -1;
	}
	c = arg[next++];
	spec = strchr(optstring, c);
	if (arg[next] == '\0') {
		optind++;
		next = 1;
	}
	if (!spec || c == ':') {
		optopt = c;
		if (opterr && optstring[0] != ':')
			fprintf(stderr, "%s: unknown option -%c\n", argv[0], c);
		return '?';
	}
	if (spec[1] == ':') {
		if (next != 1) {                /* the argument is the rest of this word */
			optarg = arg + next;
			optind++;
			next = 1;
		} else if (optind < argc) {
			optarg = argv[optind++];
		} else {
			optopt = c;
			if (opterr && optstring[0] != ':')
				fprintf(stderr, "%s: option -%c needs an argument\n", argv[0], c);
			return optstring[0] == ':' ? ':' : '?';
		}
	}
	return c;
}

/*
 * The options of head and tail: -n N, or the historic -N as the first
 * argument, into *n (left alone if neither is there); optind is then the
 * first operand. -1 on any other option or a negative N.
 */
int getopt_count(int argc, char **argv, long *n)
{
	int c;

	if (argc > 1 && argv[1][0] == '-' && isdigit(argv[1][1]) &&
	    strspn(argv[1] + 1, "0123456789") == strlen(argv[1] + 1)) {
		*n = atol(argv[1] + 1);
		optind = 2;
	}
	while ((c = getopt(argc, argv, "n:")) != -1)
		if (c != 'n' || (*n = atol(optarg)) < 0)
			return -1;
	return 0;
}
