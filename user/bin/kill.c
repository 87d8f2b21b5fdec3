/* kill [-SIGNAL] PID...: send a signal (TERM by default; a name or a number; -PID is a group). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A signal by name (TERM or SIGTERM) or number (0 too: only checks that PID exists); -1 if none. */
static int parse_signal(const char *s)
{
	char *end;
	long n;
	int sig;

	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	n = strtol(s, &end, 10);
	if (*s && !*end)
		return n >= 0 && n <= _NSIG ? (int)n : -1;
	return str2sig(s, &sig) == 0 ? sig : -1;
}

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
		sig = parse_signal(argv[1] + (strcmp(argv[1], "-s") == 0 ? 0 : 1));
		if (strcmp(argv[1], "-s") == 0 && argc > 2)
			sig = parse_signal(argv[++i]);
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
