/* getopt(): POSIX's short options ("ab:c"), with "--" ending them and '?' for a bad one. */
#include <stdio.h>
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
