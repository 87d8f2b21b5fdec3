/*
 * sig2str, str2sig (POSIX.1-2024): a signal's name without "SIG" ("HUP")
 * and back, and the word kill and the shell's trap take (sig_from_word). Only the classic signals 1..31
 * have names here; the real-time ones are known by number alone.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[SIGRTMIN] = {
	[SIGHUP] = "HUP", [SIGINT] = "INT", [SIGQUIT] = "QUIT", [SIGILL] = "ILL", [SIGTRAP] = "TRAP",
	[SIGABRT] = "ABRT", [SIGBUS] = "BUS", [SIGFPE] = "FPE", [SIGKILL] = "KILL", [SIGUSR1] = "USR1",
	[SIGSEGV] = "SEGV", [SIGUSR2] = "USR2", [SIGPIPE] = "PIPE", [SIGALRM] = "ALRM", [SIGTERM] = "TERM",
	[SIGSTKFLT] = "STKFLT", [SIGCHLD] = "CHLD", [SIGCONT] = "CONT", [SIGSTOP] = "STOP",
	[SIGTSTP] = "TSTP", [SIGTTIN] = "TTIN", [SIGTTOU] = "TTOU", [SIGURG] = "URG", [SIGXCPU] = "XCPU",
	[SIGXFSZ] = "XFSZ", [SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF", [SIGWINCH] = "WINCH",
	[SIGIO] = "IO", [SIGPWR] = "PWR", [SIGSYS] = "SYS",
};

/* sig's name into str (SIG2STR_MAX bytes); -1 if it has none. */
int sig2str(int sig, char *str)
{
	if (sig < 1 || sig >= SIGRTMIN)
		return -1;
	strcpy(str, names[sig]);
	return 0;
}

/* The signal str names ("HUP", not "SIGHUP") or numbers ("1") into *sig; -1 if none. */
int str2sig(const char *str, int *sig)
{
	char *end;
	long n = strtol(str, &end, 10);

	if (*str && !*end) {
		if (n < 1 || n > _NSIG)
			return -1;
		*sig = (int)n;
		return 0;
	}
	for (int i = 1; i < SIGRTMIN; i++) {
		if (strcmp(str, names[i]) == 0) {
			*sig = i;
			return 0;
		}
	}
	return -1;
}

/* A signal as kill and trap take it: a name with or without "SIG" (TERM, SIGTERM) or a number
 * from 0 (kill: only check that the process exists; trap: the shell's exit) to max; -1 if none. */
int sig_from_word(const char *word, int max)
{
	char *end;
	long n;
	int sig;

	if (strncmp(word, "SIG", 3) == 0)
		word += 3;
	n = strtol(word, &end, 10);
	if (*word && !*end)
		return n >= 0 && n <= max ? (int)n : -1;
	return str2sig(word, &sig) == 0 && sig <= max ? sig : -1;
}
