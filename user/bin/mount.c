/*
 * mount [-t TYPE] [-o OPTIONS] SOURCE DIR: mount a file system (mount -t ext2 /dev/hda1 /mnt).
 * mount -o remount,OPTIONS DIR: change a mounted one (mount -o remount,ro /mnt).
 * mount with no arguments: what is mounted (/proc/mounts).
 * OPTIONS, comma-separated: ro, rw, remount, noatime, relatime, strictatime, nodiratime,
 * nosuid, nodev, noexec, sync (mount(2)'s MS_* flags).
 */
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/uapi/unistd.h"

static const struct {
	const char *name;
	unsigned long flag;
} options[] = {
	{ "ro", 0x1 }, { "rw", 0 }, { "nosuid", 0x2 }, { "nodev", 0x4 }, { "noexec", 0x8 },
	{ "sync", 0x10 }, { "remount", 0x20 }, { "dirsync", 0x80 }, { "noatime", 0x400 }, { "nodiratime", 0x800 },
	{ "relatime", 1ul << 21 }, { "strictatime", 1ul << 24 },
};
#define MS_REMOUNT 0x20

/* Add the flags of a comma-separated list to *flags: 0, or -1 for an option not known. */
static int parse_options(char *list, unsigned long *flags)
{
	for (char *opt = list, *next; opt; opt = next) {
		unsigned i = 0;

		next = strchr(opt, ',');
		if (next)
			*next++ = '\0';

		while (i < sizeof(options) / sizeof(options[0]) && strcmp(opt, options[i].name) != 0)
			i++;
		if (i == sizeof(options) / sizeof(options[0])) {
			fprintf(stderr, "mount: unknown option %s\n", opt);
			return -1;
		}
		*flags |= options[i].flag;
	}
	return 0;
}

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
	const char *type = "ext2", *source;
	unsigned long flags = 0;
	int i = 1;
	long r;

	if (argc == 1)
		return show_mounts();
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-t") == 0)
			type = argv[i + 1];
		else if (strcmp(argv[i], "-o") != 0 || parse_options(argv[i + 1], &flags) < 0)
			break;
	}
	/* A remount names only the directory: the source and the type are the mount's own. */
	if ((flags & MS_REMOUNT) && argc - i == 1) {
		source = "none";
		i--;
	} else if (argc - i != 2) {
		fprintf(stderr, "usage: mount [-t TYPE] [-o OPTIONS] SOURCE DIR\n"
			"       mount -o remount,OPTIONS DIR\n");
		return 2;
	} else {
		source = argv[i];
	}
	r = syscall(__NR_mount, source, argv[i + 1], type, flags, 0);
	if (r < 0) {
		fprintf(stderr, "mount: %s on %s: %s\n", source, argv[i + 1], strerror(errno));
		return 1;
	}
	return 0;
}
