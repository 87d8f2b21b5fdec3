/* env [NAME=VALUE...] [COMMAND [ARG...]]: print the environment, or run COMMAND with additions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i = 1;
	char **e;

	for (; i < argc && strchr(argv[i], '='); i++) {
		char *eq = strchr(argv[i], '=');

		*eq = '\0';
		setenv(argv[i], eq + 1, 1);
	}
	if (i < argc && argv[i][0] == '-') {
		fprintf(stderr, "usage: env [NAME=VALUE...] [COMMAND [ARG...]]\n");
		return 2;
	}
	if (i == argc) {
		for (e = environ; *e; e++)
			printf("%s\n", *e);
		return 0;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "env: %s: %s\n", argv[i], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
