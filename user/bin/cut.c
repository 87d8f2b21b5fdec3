/*
 * cut -f LIST [-d DELIM] [-s] [FILE...]    fields (separated by a tab, or DELIM)
 * cut -c LIST [FILE...]                    characters (-b: bytes, the same here)
 *
 * LIST is ranges separated by commas: N, N-M, N- (to the end), -M (from
 * 1). Fields and characters come out in their order in the line, each once,
 * whatever the order in LIST. A line without the delimiter is printed
 * whole, unless -s.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RANGES 64
#define TO_END 0x7fffffff

static struct range {
	int lo, hi;
} ranges[MAX_RANGES];
static int nranges;

static int usage(void)
{
	fprintf(stderr, "usage: cut -f LIST [-d DELIM] [-s] [FILE...] | cut -c LIST [FILE...]\n");
	return 2;
}

/* "1,3-5,7-": the ranges; -1 if LIST is malformed. */
static int parse_list(const char *list)
{
	const char *p = list;
	char *end;

	while (*p) {
		struct range *r = &ranges[nranges];

		if (nranges == MAX_RANGES)
			return -1;
		r->lo = *p == '-' ? 1 : (int)strtol(p, &end, 10);
		if (*p != '-')
			p = end;
		r->hi = r->lo;
		if (*p == '-') {
			p++;
			r->hi = *p >= '0' && *p <= '9' ? (int)strtol(p, &end, 10) : TO_END;
			if (r->hi != TO_END)
				p = end;
		}
		if (r->lo < 1 || r->hi < r->lo || (*p && *p != ','))
			return -1;
		nranges++;
		if (*p == ',')
			p++;
	}
	return nranges ? 0 : -1;
}

static int selected(int n)
{
	int i;

	for (i = 0; i < nranges; i++)
		if (n >= ranges[i].lo && n <= ranges[i].hi)
			return 1;
	return 0;
}

/* Output, gathered and written a block at a time (the C library's stdio writes at every call). */
static char obuf[4096];
static size_t olen;

static void flush(void)
{
	if (olen)
		write(1, obuf, olen);
	olen = 0;
}

static void out(const char *s, size_t n)
{
	for (; n > 0; n--) {
		if (olen == sizeof(obuf))
			flush();
		obuf[olen++] = *s++;
	}
}

/* One line, without its newline. */
static void cut_line(const char *line, size_t len, int fields, char delim, int only_delimited)
{
	size_t i, start = 0;
	int n = 1, printed = 0;

	if (!fields) {
		for (i = 0; i < len; i++)
			if (selected(i + 1))
				out(line + i, 1);
		out("\n", 1);
		return;
	}
	if (!memchr(line, delim, len)) {
		if (!only_delimited) {
			out(line, len);
			out("\n", 1);
		}
		return;
	}
	for (i = 0; i <= len; i++) {
		if (i < len && line[i] != delim)
			continue;
		if (selected(n)) {
			if (printed++)
				out(&delim, 1);
			out(line + start, i - start);
		}
		n++;
		start = i + 1;
	}
	out("\n", 1);
}

static void cut_file(FILE *f, int fields, char delim, int only_delimited)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			len--;
		cut_line(line, (size_t)len, fields, delim, only_delimited);
	}
	free(line);
	flush();
}

int main(int argc, char **argv)
{
	const char *list = NULL;
	int c, fields = 0, only_delimited = 0, status = 0, i;
	char delim = '\t';
	FILE *f;

	while ((c = getopt(argc, argv, "b:c:d:f:s")) != -1) {
		if (c == 'b' || c == 'c' || c == 'f') {
			list = optarg;
			fields = c == 'f';
		} else if (c == 'd') {
			if (strlen(optarg) != 1) {
				fprintf(stderr, "cut: the delimiter must be a single character\n");
				return 2;
			}
			delim = optarg[0];
		} else if (c == 's') {
			only_delimited = 1;
		} else {
			return usage();
		}
	}
	if (!list || parse_list(list) < 0)
		return usage();
	if (optind == argc)
		cut_file(stdin, fields, delim, only_delimited);
	for (i = optind; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0) {
			cut_file(stdin, fields, delim, only_delimited);
			continue;
		}
		if (!(f = fopen(argv[i], "r"))) {
			fprintf(stderr, "cut: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		cut_file(f, fields, delim, only_delimited);
		fclose(f);
	}
	return status;
}
