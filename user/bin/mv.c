/* mv SRC DST, or mv SRC... DIR: rename (within the one file system smpix has). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct stat st;
	char path[512];
	int i, status = 0, to_dir;

	if (argc < 3) {
		fprintf(stderr, "usage: mv SRC DST | mv SRC... DIR\n");
		return 2;
	}
	to_dir = stat(argv[argc - 1], &st) == 0 && S_ISDIR(st.st_mode);
	for (i = 1; i < argc - 1; i++) {
		const char *dst = argv[argc - 1], *base = strrchr(argv[i], '/');

		if (to_dir) {
			snprintf(path, sizeof(path), "%s/%s", dst, base ? base + 1 : argv[i]);
			dst = path;
		}
		if (rename(argv[i], dst) < 0) {
			fprintf(stderr, "mv: %s -> %s: %s\n", argv[i], dst, strerror(errno));
			status = 1;
		}
	}
	return status;
}
