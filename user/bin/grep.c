/*
 * grep [-vicn] PATTERN [FILE...]: lines containing PATTERN, a fixed string
 * (no regular expressions). -v the others, -i ignore case, -c count, -n numbers.
 * Exits 0 if a line was selected, 1 if none, 2 on an error.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int invert, icase, count_only, numbers, many;

static int contains(const char *line, const char *pat)
{
	size_t n = strlen(pat);

	for (; *line; line++) {
		size_t i = 0;

		while (i < n && line[i] &&
		       (icase ? tolower(line[i]) == tolower(pat[i]) : line[i] == pat[i]))
			i++;
		if (i == n)
			return 1;
	}
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
