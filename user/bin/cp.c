/* cp SRC DST, or cp SRC... DIR: copy files (DST is replaced; into DIR under the same name). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int copy(const char *src, const char *dst)
{
	static char buf[4096];
	int in, out, status = 0;
	struct stat st;
	ssize_t n;

	in = open(src, O_RDONLY);
	if (in < 0 || fstat(in, &st) < 0) {
		fprintf(stderr, "cp: %s: %s\n", src, strerror(errno));
		return 1;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, st.st_mode & 0777);
	if (out < 0) {
		fprintf(stderr, "cp: %s: %s\n", dst, strerror(errno));
		close(in);
		return 1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			fprintf(stderr, "cp: %s: %s\n", dst, strerror(errno));
			status = 1;
			break;
		}
	if (n < 0) {
		fprintf(stderr, "cp: %s: %s\n", src, strerror(errno));
		status = 1;
	}
	close(in);
	close(out);
	return status;
}

/* The path of src inside directory dir. */
static const char *into(const char *dir, const char *src, char *buf, size_t size)
{
	const char *base = strrchr(src, '/');

	snprintf(buf, size, "%s/%s", dir, base ? base + 1 : src);
	return buf;
}

int main(int argc, char **argv)
{
	struct stat st;
	char path[512];
	int i, status = 0, to_dir;

	if (argc < 3) {
		fprintf(stderr, "usage: cp SRC DST | cp SRC... DIR\n");
		return 2;
	}
	to_dir = stat(argv[argc - 1], &st) == 0 && S_ISDIR(st.st_mode);
	if (argc > 3 && !to_dir) {
		fprintf(stderr, "cp: %s: not a directory\n", argv[argc - 1]);
		return 1;
	}
	for (i = 1; i < argc - 1; i++)
		status |= copy(argv[i], to_dir ? into(argv[argc - 1], argv[i], path, sizeof(path))
					       : argv[argc - 1]);
	return status;
}
