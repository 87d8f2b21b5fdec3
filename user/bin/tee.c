/* tee [-a] [FILE...]: stdin to stdout and to each FILE (appended with -a). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_all(int fd, const char *buf, int n)
{
	int w;

	while (n > 0) {
		w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int flags = O_WRONLY | O_CREAT | O_TRUNC, c, i, n, status = 0, nfds = 1;
	int *fds;
	char buf[4096];

	while ((c = getopt(argc, argv, "a")) != -1) {
		if (c != 'a') {
			fprintf(stderr, "usage: tee [-a] [FILE...]\n");
			return 2;
		}
		flags = O_WRONLY | O_CREAT | O_APPEND;
	}
	fds = malloc((argc - optind + 1) * sizeof(int));
	fds[0] = 1;
	for (i = optind; i < argc; i++) {
		fds[nfds] = open(argv[i], flags, 0666);
		if (fds[nfds] < 0) {
			fprintf(stderr, "tee: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		nfds++;
	}
	while ((n = read(0, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		for (i = 0; i < nfds; i++)
			if (fds[i] >= 0 && n > 0 && write_all(fds[i], buf, n) < 0) {
				fprintf(stderr, "tee: write error: %s\n", strerror(errno));
				fds[i] = -1;    /* keep copying to the others */
				status = 1;
			}
	return status;
}
