/* rm [-f] FILE...: unlink files (-f: no complaint about missing ones). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i = 1, force = 0, status = 0;

	if (argc > 1 && strcmp(argv[1], "-f") == 0) {
		force = 1;
		i++;
	}
	if (i == argc && !force) {
		fprintf(stderr, "usage: rm [-f] FILE...\n");
		return 2;
	}
	for (; i < argc; i++)
		if (unlink(argv[i]) < 0 && !(force && errno == ENOENT)) {
			fprintf(stderr, "rm: %s: %s\n", argv[i], strerror(errno));
			status = 1;
		}
	return status;
}
