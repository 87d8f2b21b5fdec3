/*
 * mkfifo [-m MODE] NAME...: make named pipes (FIFOs). Without -m the mode is
 * 0666 less the umask; -m MODE (octal) is taken as given, as coreutils does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned mode = 0666;
	int c, status = 0, exact = 0;

	while ((c = getopt(argc, argv, "m:")) != -1) {
		char *end;

		if (c != 'm')
			goto usage;
		mode = strtoul(optarg, &end, 8);
		exact = 1;
		if (*end || mode > 07777) {
			fprintf(stderr, "mkfifo: invalid mode '%s'\n", optarg);
			return 2;
		}
	}
	if (optind == argc)
		goto usage;
	for (; optind < argc; optind++)
		if (mkfifo(argv[optind], mode) < 0 || (exact && chmod(argv[optind], mode) < 0)) {
			fprintf(stderr, "mkfifo: %s: %s\n", argv[optind], strerror(errno));
			status = 1;
		}
	return status;
usage:
	fprintf(stderr, "usage: mkfifo [-m MODE] NAME...\n");
	return 2;
}
