/* tee [-a] [FILE...]: stdin to stdout and to each FILE (appended with -a). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *mode = "w";
	int c, i, n, status = 0, nouts = 1;
	FILE **outs;
	char buf[4096];

	while ((c = getopt(argc, argv, "a")) != -1) {
		if (c != 'a') {
			fprintf(stderr, "usage: tee [-a] [FILE...]\n");
			return 2;
		}
		mode = "a";
	}
	outs = malloc((argc - optind + 1) * sizeof(FILE *));
	outs[0] = stdout;
	for (i = optind; i < argc; i++) {
		outs[nouts] = fopen(argv[i], mode);
		if (!outs[nouts]) {
			fprintf(stderr, "tee: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		nouts++;
	}
	/* stdio writes each fwrite() out at once, retrying short writes: nothing waits in a buffer. */
	while ((n = read(0, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		for (i = 0; i < nouts; i++)
			if (outs[i] && n > 0 && fwrite(buf, n, 1, outs[i]) != 1) {
				fprintf(stderr, "tee: write error: %s\n", strerror(errno));
				outs[i] = NULL;         /* keep copying to the others */
				status = 1;
			}
	return status;
}
