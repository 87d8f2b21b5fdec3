/*
 * grep [-vicn] PATTERN [FILE...]: lines containing PATTERN, a fixed string
 * but for two anchors: a leading ^ (at the start of the line) and a trailing
 * $ (at its end). -v the others, -i ignore case, -c count, -n numbers.
 * Exits 0 if a line was selected, 1 if none, 2 on an error.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int invert, icase, count_only, numbers, many;
static int at_start, at_end;            /* the pattern had ^ or $ */

/* Does pat (n bytes) match at the start of s? */
static int match_here(const char *s, const char *pat, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] && (icase ? tolower(s[i]) == tolower(pat[i]) : s[i] == pat[i]))
		i++;
	return i == n && (!at_end || s[i] == '\n' || s[i] == '\0');
}

static int contains(const char *line, const char *pat)
{
	size_t n = strlen(pat);

	if (at_start)
		return match_here(line, pat, n);
	for (; *line; line++)
		if (match_here(line, pat, n))
			return 1;
	return n == 0;
}

static int search(FILE *f, const char *name, const char *pat)
{
	char line[2048];
	long lineno = 0, hits = 0;

	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (contains(line, pat) == invert)
			continue;
		hits++;
		if (count_only)
			continue;
		if (many)
			printf("%s:", name);
		if (numbers)
			printf("%ld:", lineno);
		fputs(line, stdout);
		if (!strchr(line, '\n'))
			putchar('\n');
	}
	if (count_only)
		printf(many ? "%s:%ld\n" : "%.0s%ld\n", name, hits);
	return hits > 0;
}

int main(int argc, char **argv)
{
	int c, i, found = 0, error = 0;
	const char *pat;
	FILE *f;

	while ((c = getopt(argc, argv, "vicn")) != -1) {
		if (c == 'v')
			invert = 1;
		else if (c == 'i')
			icase = 1;
		else if (c == 'c')
			count_only = 1;
		else if (c == 'n')
			numbers = 1;
		else
			goto usage;
	}
	if (optind >= argc)
		goto usage;
	pat = argv[optind++];
	if (pat[0] == '^') {
		at_start = 1;
		pat++;
	}
	if (pat[0] && pat[strlen(pat) - 1] == '$') {
		at_end = 1;
		pat = strndup(pat, strlen(pat) - 1);
	}
	if (optind == argc)
		return search(stdin, "stdin", pat) ? 0 : 1;
	many = argc - optind > 1;
	for (i = optind; i < argc; i++) {
		if (!(f = fopen(argv[i], "r"))) {
			fprintf(stderr, "grep: %s: %s\n", argv[i], strerror(errno));
			error = 1;
			continue;
		}
		found |= search(f, argv[i], pat);
		fclose(f);
	}
	return error ? 2 : found ? 0 : 1;
usage:
	fprintf(stderr, "usage: grep [-vicn] PATTERN [FILE...]\n");
	return 2;
}
