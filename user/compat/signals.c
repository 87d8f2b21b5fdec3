/* Signals through glibc: handlers, masks, sigsuspend, alarm, SIGCHLD, raise, EINTR. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1, got_alrm, got_chld, chld_pid, info_code;

static void on_usr1(int sig) { got_usr1++; }
static void on_alrm(int sig) { got_alrm++; }
static void on_chld(int sig, siginfo_t *si, void *uc)
{
	got_chld++;
	chld_pid = si->si_pid;
	info_code = si->si_code;
}

#define CHECK(c) do { if (!(c)) { printf("signals: FAIL line %d: %s\n", __LINE__, #c); exit(1); } } while (0)

int main(void)
{
	struct sigaction sa;
	sigset_t set, old;
	pid_t pid;
	int st;

	/* A handler, then raise(). */
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	CHECK(got_usr1 == 1);

	/* Blocked: pending until unblocked. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	CHECK(sigprocmask(SIG_BLOCK, &set, &old) == 0);
	kill(getpid(), SIGUSR1);
	CHECK(got_usr1 == 1);
	sigpending(&set);
	CHECK(sigismember(&set, SIGUSR1));
	CHECK(sigprocmask(SIG_SETMASK, &old, NULL) == 0);
	CHECK(got_usr1 == 2);
	printf("signals: handler and mask ok\n");

	/* alarm + sigsuspend with SIGALRM blocked outside it. */
	signal(SIGALRM, on_alrm);
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, &old);
	alarm(1);
	sigemptyset(&set);
	CHECK(sigsuspend(&set) == -1 && errno == EINTR);
	CHECK(got_alrm == 1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("signals: alarm and sigsuspend ok\n");

	/* SIGCHLD with siginfo, from a child that exits 7. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	pid = fork();
	if (pid == 0)
		_exit(7);
	CHECK(pid > 0);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	while (!got_chld)
		pause();
	CHECK(chld_pid == pid && info_code == CLD_EXITED);
	printf("signals: SIGCHLD ok\n");

	/* An interrupted sleep: EINTR, not a restart (sleep never restarts). */
	signal(SIGALRM, on_alrm);
	alarm(1);
	CHECK(sleep(5) > 0);
	CHECK(got_alrm == 2);
	printf("signals: all ok\n");
	return 0;
}
