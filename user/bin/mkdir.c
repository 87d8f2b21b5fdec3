/* mkdir [-p] DIR...: make directories (-p: parents too, and no complaint if they exist). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int make_parents(char *path)
{
	char *p;

	for (p = path + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(path, 0777) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(path, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

int main(int argc, char **argv)
{
	int i = 1, parents = 0, status = 0;

	if (argc > 1 && strcmp(argv[1], "-p") == 0) {
		parents = 1;
		i++;
	}
	if (i == argc) {
		fprintf(stderr, "usage: mkdir [-p] DIR...\n");
		return 2;
	}
	for (; i < argc; i++)
		if ((parents ? make_parents(argv[i]) : mkdir(argv[i], 0777)) < 0) {
			fprintf(stderr, "mkdir: %s: %s\n", argv[i], strerror(errno));
			status = 1;
		}
	return status;
}
