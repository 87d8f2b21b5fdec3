/*
 * mount [-t TYPE] [-o ro] SOURCE DIR: mount a file system (mount -t ext2 /dev/hda1 /mnt).
 * mount with no arguments: what is mounted (/proc/mounts).
 */
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/uapi/unistd.h"

#define MS_RDONLY 0x1

static int show_mounts(void)
{
	char buf[512];
	long n;
	int fd = open("/proc/mounts", O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "mount: /proc/mounts: cannot open\n");
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		write(1, buf, (size_t)n);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *type = "ext2";
	unsigned long flags = 0;
	int i = 1;
	long r;

	if (argc == 1)
		return show_mounts();
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-t") == 0)
			type = argv[i + 1];
		else if (strcmp(argv[i], "-o") == 0 && strcmp(argv[i + 1], "ro") == 0)
			flags |= MS_RDONLY;
		else if (!(strcmp(argv[i], "-o") == 0 && strcmp(argv[i + 1], "rw") == 0))
			break;
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: mount [-t TYPE] [-o ro|rw] SOURCE DIR\n");
		return 2;
	}
	r = syscall(__NR_mount, argv[i], argv[i + 1], type, flags, 0);
	if (r < 0) {
		fprintf(stderr, "mount: %s on %s: %s\n", argv[i], argv[i + 1], strerror(errno));
		return 1;
	}
	return 0;
}
