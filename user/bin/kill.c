/* kill [-SIGNAL] PID...: send a signal (TERM by default; a name or a number; -PID is a group). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int sig = SIGTERM, i = 1, status = 0;
	char *end, name[SIG2STR_MAX];

	if (argc > 1 && argv[1][0] == '-' && !(argv[1][1] >= '0' && argv[1][1] <= '9' && argc == 2)) {
		if (strcmp(argv[1], "-l") == 0) {
			for (i = 1; i <= _NSIG; i++)
				if (sig2str(i, name) == 0)
					printf("%d %s\n", i, name);
			return 0;
		}
		sig = sig_from_word(argv[1] + (strcmp(argv[1], "-s") == 0 ? 0 : 1), _NSIG);
		if (strcmp(argv[1], "-s") == 0 && argc > 2)
			sig = sig_from_word(argv[++i], _NSIG);
		i++;
	}
	if (sig < 0 || i >= argc) {
		fprintf(stderr, "usage: kill [-SIGNAL] PID...\n");
		return 2;
	}
	for (; i < argc; i++) {
		long pid = strtol(argv[i], &end, 10);

		if (*end || !argv[i][0]) {
			fprintf(stderr, "usage: kill [-SIGNAL] PID...\n");
			return 2;
		}
		if (kill((pid_t)pid, sig) < 0) {
			fprintf(stderr, "kill: %ld: %s\n", pid, strerror(errno));
			status = 1;
		}
	}
	return status;
}
