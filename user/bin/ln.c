/* ln [-s] TARGET NAME: a hard link, or with -s a symbolic one. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int sym = argc == 4 && strcmp(argv[1], "-s") == 0;

	if (argc != 3 + sym || (argc == 3 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: ln [-s] TARGET NAME\n");
		return 2;
	}
	if ((sym ? symlink(argv[2], argv[3]) : link(argv[1], argv[2])) < 0) {
		fprintf(stderr, "ln: %s: %s\n", argv[2 + sym], strerror(errno));
		return 1;
	}
	return 0;
}
