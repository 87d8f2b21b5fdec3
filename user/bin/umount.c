/* umount [-l] DIR: unmount the file system on DIR (-l: lazily, MNT_DETACH). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/uapi/unistd.h"

int main(int argc, char **argv)
{
	int lazy = argc == 3 && strcmp(argv[1], "-l") == 0;
	long r;

	if (argc != 2 + lazy) {
		fprintf(stderr, "usage: umount [-l] DIR\n");
		return 2;
	}
	r = syscall(__NR_umount2, argv[1 + lazy], lazy ? 2 : 0);
	if (r < 0) {
		fprintf(stderr, "umount: %s: %s\n", argv[1 + lazy], strerror(errno));
		return 1;
	}
	return 0;
}
