/* kill [-SIGNAL] PID...: send a signal (TERM by default; a name or a number; -PID is a group). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
	[SIGHUP] = "HUP", [SIGINT] = "INT", [SIGQUIT] = "QUIT", [SIGILL] = "ILL", [SIGABRT] = "ABRT",
	[SIGFPE] = "FPE", [SIGKILL] = "KILL", [SIGUSR1] = "USR1", [SIGSEGV] = "SEGV",
	[SIGUSR2] = "USR2", [SIGPIPE] = "PIPE", [SIGALRM] = "ALRM", [SIGTERM] = "TERM",
	[SIGCHLD] = "CHLD", [SIGCONT] = "CONT", [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP",
};

static int parse_signal(const char *s)
{
	char *end;
	long n;
	int i;

	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	n = strtol(s, &end, 10);
	if (*s && !*end)
		return n >= 0 && n <= _NSIG ? (int)n : -1;
	for (i = 1; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (names[i] && strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

int main(int argc, char **argv)
{
	int sig = SIGTERM, i = 1, status = 0;
	char *end;

	if (argc > 1 && argv[1][0] == '-' && !(argv[1][1] >= '0' && argv[1][1] <= '9' && argc == 2)) {
		if (strcmp(argv[1], "-l") == 0) {
			for (i = 1; i < (int)(sizeof(names) / sizeof(names[0])); i++)
				if (names[i])
					printf("%d %s\n", i, names[i]);
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
