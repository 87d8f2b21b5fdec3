/*
 * seq [-w] [-s SEP] [FIRST [INCREMENT]] LAST: the integers from FIRST
 * (default 1) to LAST, INCREMENT apart (default 1; negative counts down),
 * one per line or separated by SEP. -w pads with zeros to equal width.
 * Integers only: the C library has no floating-point printf.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: seq [-w] [-s SEP] [FIRST [INCREMENT]] LAST\n");
	return 2;
}

static int integer(const char *s, long long *v)
{
	char *end;

	*v = strtoll(s, &end, 10);
	if (end == s || *end) {
		fprintf(stderr, "seq: invalid integer argument: '%s'\n", s);
		return -1;
	}
	return 0;
}

static int digits(long long v)
{
	char buf[32];

	return snprintf(buf, sizeof(buf), "%lld", v);
}

int main(int argc, char **argv)
{
	const char *sep = "\n";
	long long first = 1, incr = 1, last, v;
	int c, width = 0, n, i;
	char buf[4096];
	size_t len = 0;

	/* Not getopt: a negative number (seq 5 -1 1) is an argument, not an option. */
	for (optind = 1; optind < argc && argv[optind][0] == '-' && !isdigit(argv[optind][1]); optind++) {
		c = argv[optind][1];
		if (strcmp(argv[optind], "--") == 0) {
			optind++;
			break;
		}
		if (c == 'w' && !argv[optind][2])
			width = 1;
		else if (c == 's' && argv[optind][2])
			sep = argv[optind] + 2;
		else if (c == 's' && optind + 1 < argc)
			sep = argv[++optind];
		else
			return usage();
	}
	n = argc - optind;
	if (n < 1 || n > 3)
		return usage();
	if (integer(argv[argc - 1], &last) < 0 || (n >= 2 && integer(argv[optind], &first) < 0) ||
	    (n == 3 && integer(argv[optind + 1], &incr) < 0))
		return 1;
	if (incr == 0) {
		fprintf(stderr, "seq: invalid Zero increment value: '0'\n");
		return 1;
	}
	if (width)
		width = digits(first) > digits(last) ? digits(first) : digits(last);
	for (v = first, i = 0; incr > 0 ? v <= last : v >= last; v += incr, i++) {
		if (len + 64 + strlen(sep) > sizeof(buf)) {
			write(1, buf, len);
			len = 0;
		}
		if (i > 0)
			len += snprintf(buf + len, sizeof(buf) - len, "%s", sep);
		len += snprintf(buf + len, sizeof(buf) - len, width ? "%0*lld" : "%*lld", width, v);
	}
	if (i > 0)
		buf[len++] = '\n';
	return len && write(1, buf, len) != (ssize_t)len;
}
