/* touch FILE...: create the files that are missing, set the others' times to now. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, fd, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: touch FILE...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		fd = open(argv[i], O_WRONLY | O_CREAT, 0666);
		if (fd < 0) {
			fprintf(stderr, "touch: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		if (futimens(fd, NULL) < 0) {
			fprintf(stderr, "touch: %s: %s\n", argv[i], strerror(errno));
			status = 1;
		}
		close(fd);
	}
	return status;
}
