/*
 * <signal.h>: signal numbers and flags are Linux's (kernel/uapi/signal.h);
 * struct sigaction is glibc's shape over the kernel's k_sigaction, and
 * sigaction() supplies the restorer that returns from a handler (signal.c).
 */
#ifndef USER_SIGNAL_H
#define USER_SIGNAL_H

#include <sys/types.h>

#include "kernel/uapi/signal.h"

typedef k_sigset_t sigset_t;
typedef k_siginfo_t siginfo_t;
typedef void (*sighandler_t)(int);

#undef SIG_DFL
#undef SIG_IGN
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)
#define SIG_ERR ((sighandler_t)-1)

struct sigaction {
	union {
		sighandler_t sa_handler;
		void (*sa_sigaction)(int, siginfo_t *, void *);
	};
	sigset_t sa_mask;
	int sa_flags;
};

int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
sighandler_t signal(int sig, sighandler_t handler);
int sigprocmask(int how, const sigset_t *set, sigset_t *old);
int sigsuspend(const sigset_t *mask);
int sigpending(sigset_t *set);
int kill(pid_t pid, int sig);
int killpg(pid_t pgrp, int sig);
int raise(int sig);

int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);
int sigdelset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);

/* Signal names without "SIG" (signame.c). */
#define SIG2STR_MAX 16
int sig2str(int sig, char *str);
int str2sig(const char *str, int *sig);
int sig_from_word(const char *word, int max);

#endif
