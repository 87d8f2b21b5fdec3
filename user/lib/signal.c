/*
 * sigaction() over rt_sigaction: the kernel's struct k_sigaction, with
 * SA_RESTORER and __restore_rt or __restore (syscall.S, for the rt frame and
 * the old one) as the way back from a handler, as glibc does. signal() is sigaction with BSD's semantics: SA_RESTART.
 */
#include <errno.h>
#include <signal.h>
#include <unistd.h>

void __restore_rt(void);
void __restore(void);

static int bad_signal(int sig)
{
	if (sig < 1 || sig > _NSIG) {
		errno = EINVAL;
		return 1;
	}
	return 0;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct k_sigaction k, kold;
	int r;

	if (bad_signal(sig))
		return -1;
	if (act) {
		k.sa_handler = (uint32_t)act->sa_handler;
		k.sa_flags = (uint32_t)act->sa_flags | SA_RESTORER;
		k.sa_restorer = (uint32_t)((act->sa_flags & SA_SIGINFO) ? __restore_rt : __restore);
		k.sa_mask = act->sa_mask;
	}
	r = syscall(__NR_rt_sigaction, sig, act ? &k : NULL, old ? &kold : NULL, sizeof(sigset_t));
	if (r == 0 && old) {
		old->sa_handler = (sighandler_t)kold.sa_handler;
		old->sa_flags = (int)(kold.sa_flags & ~SA_RESTORER);
		old->sa_mask = kold.sa_mask;
	}
	return r;
}

sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction sa = { 0 }, old;

	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	return syscall(__NR_rt_sigprocmask, how, set, old, sizeof(sigset_t));
}

int sigsuspend(const sigset_t *mask) { return syscall(__NR_rt_sigsuspend, mask, sizeof(sigset_t)); }
int sigpending(sigset_t *set) { return syscall(__NR_rt_sigpending, set, sizeof(sigset_t)); }

/* Sets are 64-bit masks: bit n-1 is signal n (kernel/uapi/signal.h). */
int sigemptyset(sigset_t *set)
{
	*set = 0;
	return 0;
}

int sigfillset(sigset_t *set)
{
	*set = ~(sigset_t)0;
	return 0;
}

int sigaddset(sigset_t *set, int sig)
{
	if (bad_signal(sig))
		return -1;
	*set |= (sigset_t)1 << (sig - 1);
	return 0;
}

int sigdelset(sigset_t *set, int sig)
{
	if (bad_signal(sig))
		return -1;
	*set &= ~((sigset_t)1 << (sig - 1));
	return 0;
}

int sigismember(const sigset_t *set, int sig)
{
	if (bad_signal(sig))
		return -1;
	return (*set >> (sig - 1)) & 1;
}
