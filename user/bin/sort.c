/* sort [-rnu] [FILE...]: lines in byte order (-n by number, -r reversed, -u without duplicates). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int reverse, numeric, unique;
static char **lines;
static int nlines;

static int compare(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int r;

	if (numeric) {
		long nx = strtol(x, NULL, 10), ny = strtol(y, NULL, 10);

		r = nx < ny ? -1 : nx > ny;
		if (r == 0)
			r = strcmp(x, y);
	} else {
		r = strcmp(x, y);
	}
	return reverse ? -r : r;
}

static void read_all(FILE *f)
{
	char buf[2048];

	while (fgets(buf, sizeof(buf), f)) {
		char *nl = strchr(buf, '\n');

		if (nl)
			*nl = '\0';
		lines = realloc(lines, (nlines + 1) * sizeof(char *));
		lines[nlines++] = strdup(buf);
	}
}

int main(int argc, char **argv)
{
	int c, i;
	FILE *f;

	while ((c = getopt(argc, argv, "rnu")) != -1) {
		if (c == 'r')
			reverse = 1;
		else if (c == 'n')
			numeric = 1;
		else if (c == 'u')
			unique = 1;
		else {
			fprintf(stderr, "usage: sort [-rnu] [FILE...]\n");
			return 2;
		}
	}
	if (optind == argc)
		read_all(stdin);
	for (i = optind; i < argc; i++) {
		if (!(f = fopen(argv[i], "r"))) {
			fprintf(stderr, "sort: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		read_all(f);
		fclose(f);
	}
	qsort(lines, nlines, sizeof(char *), compare);
	for (i = 0; i < nlines; i++)
		if (!unique || i == 0 || strcmp(lines[i], lines[i - 1]) != 0)
			printf("%s\n", lines[i]);
	return 0;
}
