/* wc [-lwc] [FILE...]: lines, words and bytes (all three unless some are chosen). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int want_l, want_w, want_c;
static unsigned long total[3];

static void print(unsigned long *n, const char *name)
{
	char line[96];
	int len = 0;

	if (want_l)
		len += snprintf(line + len, sizeof(line) - len, "%7lu ", n[0]);
	if (want_w)
		len += snprintf(line + len, sizeof(line) - len, "%7lu ", n[1]);
	if (want_c)
		len += snprintf(line + len, sizeof(line) - len, "%7lu ", n[2]);
	line[len - 1] = '\0';
	printf("%s%s%s\n", line, name ? " " : "", name ? name : "");
}

static int count(int fd, const char *name)
{
	static char buf[4096];
	unsigned long n[3] = { 0, 0, 0 };
	int in_word = 0, i;
	ssize_t r;

	while ((r = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < r; i++) {
			n[2]++;
			if (buf[i] == '\n')
				n[0]++;
			if (isspace(buf[i]))
				in_word = 0;
			else if (!in_word) {
				in_word = 1;
				n[1]++;
			}
		}
	if (r < 0) {
		fprintf(stderr, "wc: %s: %s\n", name ? name : "stdin", strerror(errno));
		return 1;
	}
	for (i = 0; i < 3; i++)
		total[i] += n[i];
	print(n, name);
	return 0;
}

int main(int argc, char **argv)
{
	int c, i, fd, status = 0;

	while ((c = getopt(argc, argv, "lwc")) != -1) {
		if (c == 'l')
			want_l = 1;
		else if (c == 'w')
			want_w = 1;
		else if (c == 'c')
			want_c = 1;
		else {
			fprintf(stderr, "usage: wc [-lwc] [FILE...]\n");
			return 2;
		}
	}
	if (!want_l && !want_w && !want_c)
		want_l = want_w = want_c = 1;
	if (optind == argc)
		return count(0, NULL);
	for (i = optind; i < argc; i++) {
		fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "wc: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		status |= count(fd, argv[i]);
		close(fd);
	}
	if (argc - optind > 1)
		print(total, "total");
	return status;
}
