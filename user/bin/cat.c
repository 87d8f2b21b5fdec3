/* cat [FILE...]: copy each file (or standard input, or "-") to standard output. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int copy(int fd, const char *name)
{
	static char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "cat: %s: %s\n", name, strerror(errno));
			return 1;
		}
		if (fwrite(buf, n, 1, stdout) != 1) {
			fprintf(stderr, "cat: write error: %s\n", strerror(errno));
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i, fd, status = 0;

	if (argc == 1)
		return copy(0, "stdin");
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0) {
			status |= copy(0, "stdin");
			continue;
		}
		fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "cat: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		status |= copy(fd, argv[i]);
		close(fd);
	}
	return status;
}
