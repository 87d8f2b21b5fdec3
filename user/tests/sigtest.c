/*
 * /bin/sigtest: signals, process groups and timers, through raw system calls
 * with Linux i386's numbers and structures. The same binary runs on smpix
 * (tools/test/cases/45_signals.py boots with init=/bin/sigtest) and on Linux
 * (the harness runs build/ubin/sigtest on the host), which proves that what
 * it expects is what Linux does.
 */
#define GT_ISOLATED     /* each test in a child of its own (gtest.h) */
#include "gtest.h"
#include "kernel/uapi/signal.h"

#define SETSIZE 8                       /* sizeof(k_sigset_t): what rt_sig* calls want */
#define ITIMER_REAL 0

struct itimerval32 {
	int32_t interval_sec, interval_usec, value_sec, value_usec;
};

/* glibc's __restore_rt, in effect: the return address of an SA_RESTORER handler. */
void restore_rt(void);
void restore_old(void);
__asm__(".text\n"
	"restore_rt: movl $173, %eax\n int $0x80\n"             /* rt_sigreturn */
	"restore_old: popl %eax\n movl $119, %eax\n int $0x80\n");  /* sigreturn */

static volatile int hits, last_sig, last_code, last_pid, last_status;
static volatile uint32_t last_addr, seen_mask_lo, handler_sp;
static volatile k_sigset_t seen_mask;

static int sigaction_rt(int sig, uint32_t handler, uint32_t flags, k_sigset_t mask)
{
	/* Without SA_SIGINFO the kernel builds the old frame, whose return is sigreturn, not rt_sigreturn. */
	uint32_t restorer = (flags & SA_SIGINFO) ? (uint32_t)restore_rt : (uint32_t)restore_old;
	struct k_sigaction sa = { handler, flags | SA_RESTORER, restorer, mask };

	if (flags & 0x1)        /* bit 0 of our flags argument: "no restorer" (SA_NOCLDSTOP is unused here) */
		sa.sa_flags &= ~(SA_RESTORER | 0x1);
	return syscall(__NR_rt_sigaction, sig, &sa, 0, SETSIZE);
}
#define NO_RESTORER 0x1

static k_sigset_t get_mask(void)
{
	k_sigset_t m = 0;

	syscall(__NR_rt_sigprocmask, SIG_BLOCK, 0, &m, SETSIZE);
	return m;
}

static int set_mask(int how, k_sigset_t m)
{
	return syscall(__NR_rt_sigprocmask, how, &m, 0, SETSIZE);
}

static void on_sig(int sig)
{
	hits++;
	last_sig = sig;
	seen_mask = get_mask();
}

static void on_info(int sig, k_siginfo_t *si, void *uc)
{
	hits++;
	last_sig = sig;
	last_code = si->si_code;
	last_pid = si->u.kill.pid;
	last_status = si->u.chld.status;
	last_addr = si->u.fault.addr;
}

#define SB(s) (1ULL << ((s) - 1))

/* ---- sigaction ------------------------------------------------------------------ */

static void t_sigaction_args(void)
{
	struct k_sigaction sa = { (uint32_t)on_sig, SA_RESTORER, (uint32_t)restore_rt, 0 }, old;
	struct old_sigaction osa = { (uint32_t)on_sig, 0, SA_RESTORER, (uint32_t)restore_old }, oold;

	CHECK(syscall(__NR_rt_sigaction, SIGUSR1, &sa, 0, SETSIZE) == 0);
	CHECK(syscall(__NR_rt_sigaction, SIGUSR1, 0, &old, SETSIZE) == 0);
	CHECK(old.sa_handler == (uint32_t)on_sig && (old.sa_flags & SA_RESTORER));
	CHECK(syscall(__NR_rt_sigaction, 0, &sa, 0, SETSIZE) == -EINVAL);
	CHECK(syscall(__NR_rt_sigaction, 65, &sa, 0, SETSIZE) == -EINVAL);
	CHECK(syscall(__NR_rt_sigaction, -1, &sa, 0, SETSIZE) == -EINVAL);
	CHECK(syscall(__NR_rt_sigaction, SIGKILL, &sa, 0, SETSIZE) == -EINVAL);
	CHECK(syscall(__NR_rt_sigaction, SIGSTOP, &sa, 0, SETSIZE) == -EINVAL);
	CHECK(syscall(__NR_rt_sigaction, SIGKILL, 0, &old, SETSIZE) == 0);     /* reading is fine */
	CHECK(syscall(__NR_rt_sigaction, SIGUSR1, &sa, 0, 4) == -EINVAL);
	CHECK(syscall(__NR_rt_sigaction, SIGUSR1, BAD_NULL + 8, 0, SETSIZE) == -EFAULT);
	CHECK(syscall(__NR_rt_sigaction, SIGUSR1, BAD_KERNEL, 0, SETSIZE) == -EFAULT);
	CHECK(syscall(__NR_rt_sigaction, SIGUSR1, 0, BAD_UNMAP, SETSIZE) == -EFAULT);
	CHECK(syscall(__NR_rt_sigaction, 64, &sa, 0, SETSIZE) == 0);           /* the last real-time one */
	/* The old call, with its 32-bit mask. */
	CHECK(syscall(__NR_sigaction, SIGUSR2, &osa, &oold) == 0);
	CHECK(syscall(__NR_sigaction, SIGUSR2, 0, &oold) == 0 && oold.sa_handler == (uint32_t)on_sig);
	CHECK(syscall(__NR_sigaction, SIGKILL, &osa, 0) == -EINVAL);
	CHECK(syscall(__NR_sigaction, SIGUSR2, BAD_KERNEL, 0) == -EFAULT);
}

static void t_handler_runs(void)
{
	/* With sa_restorer, without it (the kernel's trampoline on the frame), and through the old frame. */
	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_sig, 0, 0) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(hits == 1 && last_sig == SIGUSR1);
	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_sig, NO_RESTORER, 0) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(hits == 2);
	CHECK(sigaction_rt(SIGUSR2, (uint32_t)on_info, SA_SIGINFO | NO_RESTORER, 0) == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(hits == 3 && last_sig == SIGUSR2 && last_code == SI_USER && last_pid == getpid());
	struct old_sigaction osa = { (uint32_t)on_sig, 0, SA_RESTORER, (uint32_t)restore_old };
	CHECK(syscall(__NR_sigaction, SIGUSR1, &osa, 0) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(hits == 4);
	/* During the handler its own signal is blocked (no SA_NODEFER); afterwards, not. */
	CHECK((seen_mask & SB(SIGUSR1)) && !(get_mask() & SB(SIGUSR1)));
}

static void t_handler_flags(void)
{
	/* sa_mask is blocked during the handler; SA_NODEFER leaves the signal itself open. */
	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_sig, SA_NODEFER, SB(SIGUSR2) | SB(40)) == 0);
	kill(getpid(), SIGUSR1);
	CHECK(hits == 1 && !(seen_mask & SB(SIGUSR1)) && (seen_mask & SB(SIGUSR2)) && (seen_mask & SB(40)));
	CHECK(get_mask() == 0);
	/* SA_RESETHAND: the handler runs once, then the action is SIG_DFL again. */
	struct k_sigaction old;
	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_sig, SA_RESETHAND, 0) == 0);
	kill(getpid(), SIGUSR1);
	CHECK(hits == 2);
	CHECK(syscall(__NR_rt_sigaction, SIGUSR1, 0, &old, SETSIZE) == 0 && old.sa_handler == SIG_DFL);
	/* SIG_IGN: nothing happens. */
	CHECK(sigaction_rt(SIGUSR2, SIG_IGN, 0, 0) == 0);
	kill(getpid(), SIGUSR2);
	CHECK(hits == 2);
}

/* ---- masks and pending ----------------------------------------------------------- */

static void t_mask_and_pending(void)
{
	k_sigset_t set = 0, old = 0;
	uint32_t old32 = 0, set32;

	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_sig, 0, 0) == 0);
	CHECK(set_mask(SIG_BLOCK, SB(SIGUSR1)) == 0);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);                /* a classic signal does not queue: one delivery */
	CHECK(hits == 0);
	CHECK(syscall(__NR_rt_sigpending, &set, SETSIZE) == 0 && set == SB(SIGUSR1));
	CHECK(syscall(__NR_sigpending, &old32) == 0 && old32 == SB(SIGUSR1));
	CHECK(set_mask(SIG_UNBLOCK, SB(SIGUSR1)) == 0);
	CHECK(hits == 1);
	CHECK(syscall(__NR_rt_sigpending, &set, SETSIZE) == 0 && set == 0);
	/* SIGKILL and SIGSTOP cannot be blocked; the rest can. */
	CHECK(set_mask(SIG_SETMASK, ~0ULL) == 0);
	CHECK(get_mask() == (~0ULL & ~(SB(SIGKILL) | SB(SIGSTOP))));
	CHECK(syscall(__NR_rt_sigprocmask, SIG_SETMASK, 0, &old, SETSIZE) == 0 && old == get_mask());
	CHECK(set_mask(SIG_SETMASK, 0) == 0 && get_mask() == 0);
	/* Errors. */
	CHECK(syscall(__NR_rt_sigprocmask, 3, &set, 0, SETSIZE) == -EINVAL);
	CHECK(syscall(__NR_rt_sigprocmask, 3, 0, 0, SETSIZE) == 0);     /* no set: how is not looked at */
	CHECK(syscall(__NR_rt_sigprocmask, SIG_BLOCK, &set, 0, 4) == -EINVAL);
	CHECK(syscall(__NR_rt_sigprocmask, SIG_BLOCK, BAD_KERNEL, 0, SETSIZE) == -EFAULT);
	CHECK(syscall(__NR_rt_sigprocmask, SIG_BLOCK, 0, BAD_UNMAP, SETSIZE) == -EFAULT);
	CHECK(syscall(__NR_rt_sigpending, BAD_KERNEL, SETSIZE) == -EFAULT);
	CHECK(syscall(__NR_rt_sigpending, &set, 16) == -EINVAL);
	CHECK(syscall(__NR_sigpending, BAD_NULL) == -EFAULT);
	/* The old sigprocmask sees signals 1..32. */
	set32 = SB(SIGUSR2);
	CHECK(syscall(__NR_sigprocmask, SIG_BLOCK, &set32, &old32) == 0 && old32 == 0);
	CHECK(get_mask() == SB(SIGUSR2));
	CHECK(syscall(__NR_sigprocmask, SIG_BLOCK, BAD_KERNEL, 0) == -EFAULT);
	/* SIG_IGN throws away what is pending. */
	set_mask(SIG_BLOCK, SB(SIGUSR1));
	kill(getpid(), SIGUSR1);
	sigaction_rt(SIGUSR1, SIG_IGN, 0, 0);
	CHECK(syscall(__NR_rt_sigpending, &set, SETSIZE) == 0 && !(set & SB(SIGUSR1)));
}

/* ---- waiting for signals: pause, sigsuspend, EINTR and SA_RESTART ----------------- */

static int arm_ms(int ms, int interval_ms)
{
	struct itimerval32 it = { interval_ms / 1000, (interval_ms % 1000) * 1000, ms / 1000, (ms % 1000) * 1000 };

	return syscall(__NR_setitimer, ITIMER_REAL, &it, 0);
}

/*
 * Wait until the handler has run n times in all. `while (hits < n) pause();` can lose the
 * signal: if it comes after the test and before pause, pause sleeps forever. With sig
 * blocked around the test, rt_sigsuspend unblocks it and sleeps in one step.
 */
static void wait_for_hits(int n, int sig)
{
	k_sigset_t old = get_mask(), during = old & ~SB(sig);

	set_mask(SIG_BLOCK, SB(sig));
	while (hits < n)
		syscall(__NR_rt_sigsuspend, &during, SETSIZE);
	set_mask(SIG_SETMASK, old);
}

static void t_pause_sigsuspend(void)
{
	k_sigset_t mask = SB(SIGUSR1);

	CHECK(sigaction_rt(SIGALRM, (uint32_t)on_sig, 0, 0) == 0);
	CHECK(arm_ms(50, 0) == 0);
	CHECK(syscall(__NR_pause, 0) == -EINTR);
	CHECK(hits == 1 && last_sig == SIGALRM);
	/* sigsuspend: the handler runs under the temporary mask; the old one is back afterwards. */
	set_mask(SIG_SETMASK, SB(SIGALRM) | SB(SIGUSR2));
	CHECK(arm_ms(50, 0) == 0);
	CHECK(syscall(__NR_rt_sigsuspend, &mask, SETSIZE) == -EINTR);
	CHECK(hits == 2);
	CHECK((seen_mask & SB(SIGUSR1)) && (seen_mask & SB(SIGALRM)) && !(seen_mask & SB(SIGUSR2)));
	CHECK(get_mask() == (SB(SIGALRM) | SB(SIGUSR2)));
	CHECK(syscall(__NR_rt_sigsuspend, &mask, 4) == -EINVAL);
	CHECK(syscall(__NR_rt_sigsuspend, BAD_KERNEL, SETSIZE) == -EFAULT);
	/* The old sigsuspend (i386: two unused arguments first). */
	CHECK(arm_ms(50, 0) == 0);
	CHECK(syscall(__NR_sigsuspend, 0, 0, (uint32_t)SB(SIGUSR1)) == -EINTR);
	CHECK(hits == 3);
}

static void sleeper_child(void)
{
	msleep(300);
	exit(5);
}

static void t_eintr_and_restart(void)
{
	struct timespec ts = { 5, 0 }, rem = { 0, 0 };
	int pid, st = 0;

	/* Without SA_RESTART, wait4 is cut short: -EINTR. */
	CHECK(sigaction_rt(SIGALRM, (uint32_t)on_sig, 0, 0) == 0);
	pid = fork();
	if (pid == 0)
		sleeper_child();
	CHECK(arm_ms(50, 0) == 0);
	CHECK(wait4(pid, &st, 0, 0) == -EINTR);
	CHECK(hits == 1);
	/* With SA_RESTART, it goes on and collects the child. */
	CHECK(sigaction_rt(SIGALRM, (uint32_t)on_sig, SA_RESTART, 0) == 0);
	CHECK(arm_ms(50, 0) == 0);
	CHECK(wait4(pid, &st, 0, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 5);
	CHECK(hits == 2);
	/* nanosleep is never restarted after a handler: -EINTR and the time left. */
	CHECK(arm_ms(100, 0) == 0);
	CHECK(nanosleep(&ts, &rem) == -EINTR);
	CHECK(hits == 3);
	CHECK(rem.tv_sec >= 3 && rem.tv_sec <= 5 && rem.tv_nsec >= 0 && rem.tv_nsec < 1000000000);
}

/* ---- faults delivered to handlers --------------------------------------------------- */

void fault_null(void);
void fault_null_resume(void);
void fault_div(void);
void fault_div_resume(void);
void fault_ud2(void);
void fault_ud2_resume(void);
__asm__(".text\n"
	"fault_null: movl $1, 0\nfault_null_resume: ret\n"
	"fault_div: xorl %ecx, %ecx\n movl $1, %eax\n xorl %edx, %edx\n divl %ecx\nfault_div_resume: ret\n"
	"fault_ud2: ud2\nfault_ud2_resume: ret\n");

static volatile uint32_t resume_at;

/* Skip the faulting instruction by editing the saved eip: the handler's way out, as a debugger's. */
static void on_fault(int sig, k_siginfo_t *si, void *uc)
{
	struct k_ucontext *u = uc;

	hits++;
	last_sig = sig;
	last_code = si->si_code;
	last_addr = si->u.fault.addr;
	u->uc_mcontext.eip = resume_at;
}

static void t_fault_handlers(void)
{
	CHECK(sigaction_rt(SIGSEGV, (uint32_t)on_fault, SA_SIGINFO, 0) == 0);
	CHECK(sigaction_rt(SIGFPE, (uint32_t)on_fault, SA_SIGINFO, 0) == 0);
	CHECK(sigaction_rt(SIGILL, (uint32_t)on_fault, SA_SIGINFO, 0) == 0);
	resume_at = (uint32_t)fault_null_resume;
	fault_null();
	CHECK(hits == 1 && last_sig == SIGSEGV && last_code == SEGV_MAPERR && last_addr == 0);
	resume_at = (uint32_t)fault_div_resume;
	fault_div();
	CHECK(hits == 2 && last_sig == SIGFPE && last_code == FPE_INTDIV && last_addr == (uint32_t)fault_div + 9);
	resume_at = (uint32_t)fault_ud2_resume;
	fault_ud2();
	CHECK(hits == 3 && last_sig == SIGILL && last_code == ILL_ILLOPN && last_addr == (uint32_t)fault_ud2);
}

static void segv_blocked(void)
{
	sigaction_rt(SIGSEGV, (uint32_t)on_fault, SA_SIGINFO, 0);
	set_mask(SIG_BLOCK, SB(SIGSEGV));
	fault_null();
}

static void segv_ignored(void)
{
	sigaction_rt(SIGSEGV, SIG_IGN, 0, 0);
	fault_null();
}

static void t_fault_unhandled(void)
{
	/* A fault whose signal is blocked or ignored still kills: the instruction cannot go on. */
	int st = gt_child_status(segv_blocked);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	st = gt_child_status(segv_ignored);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
}

static void garbage_sigreturn(void)
{
	/* No frame below the stack pointer: what sigreturn reads back is rubbish (bad segments). */
	static uint32_t junk[256];

	for (int i = 0; i < 256; i++)
		junk[i] = 0x12345678;
	__asm__ volatile("movl %0, %%esp\n movl $173, %%eax\n int $0x80" : : "r"(&junk[128]) : "memory");
}

static void bad_altstack(void)
{
	k_stack_t ss = { (uint32_t)BAD_UNMAP, 0, 65536 };

	syscall(__NR_sigaltstack, &ss, 0);
	sigaction_rt(SIGUSR1, (uint32_t)on_sig, SA_ONSTACK, 0);
	kill(getpid(), SIGUSR1);        /* the frame cannot be written: SIGSEGV */
}

static void handler_in_kernel(void)
{
	/* A handler address user mode cannot execute: the handler's first instruction faults. */
	sigaction_rt(SIGUSR1, 0xC0000000, 0, 0);
	kill(getpid(), SIGUSR1);
}

static void t_bad_frames(void)
{
	int st = gt_child_status(handler_in_kernel);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	st = gt_child_status(garbage_sigreturn);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	st = gt_child_status(bad_altstack);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
}

/* ---- sigaltstack ------------------------------------------------------------------------ */

static char altstack[16384] __attribute__((aligned(16)));
static volatile int alt_flags_inside, alt_change_inside;

static void on_alt(int sig)
{
	k_stack_t cur, ss = { (uint32_t)altstack, 0, sizeof(altstack) };
	int here;

	hits++;
	handler_sp = (uint32_t)&here;
	syscall(__NR_sigaltstack, 0, &cur);
	alt_flags_inside = cur.ss_flags;
	alt_change_inside = syscall(__NR_sigaltstack, &ss, 0);
}

static void t_sigaltstack(void)
{
	k_stack_t ss = { (uint32_t)altstack, 0, sizeof(altstack) }, old;

	CHECK(syscall(__NR_sigaltstack, 0, &old) == 0 && old.ss_flags == SS_DISABLE);
	CHECK(syscall(__NR_sigaltstack, &ss, 0) == 0);
	CHECK(syscall(__NR_sigaltstack, 0, &old) == 0 && old.ss_sp == (uint32_t)altstack &&
	      old.ss_size == sizeof(altstack) && old.ss_flags == 0);
	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_alt, SA_ONSTACK, 0) == 0);
	kill(getpid(), SIGUSR1);
	CHECK(hits == 1);
	CHECK(handler_sp > (uint32_t)altstack && handler_sp < (uint32_t)altstack + sizeof(altstack));
	CHECK(alt_flags_inside == SS_ONSTACK && alt_change_inside == -EPERM);
	/* Without SA_ONSTACK the handler stays on the normal stack. */
	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_alt, 0, 0) == 0);
	kill(getpid(), SIGUSR1);
	CHECK(!(handler_sp > (uint32_t)altstack && handler_sp < (uint32_t)altstack + sizeof(altstack)));
	/* Errors. */
	ss.ss_size = 100;
	CHECK(syscall(__NR_sigaltstack, &ss, 0) == -ENOMEM);
	ss.ss_size = sizeof(altstack);
	ss.ss_flags = 0x40;
	CHECK(syscall(__NR_sigaltstack, &ss, 0) == -EINVAL);
	CHECK(syscall(__NR_sigaltstack, BAD_KERNEL, 0) == -EFAULT);
	CHECK(syscall(__NR_sigaltstack, 0, BAD_UNMAP) == -EFAULT);
	/* SS_AUTODISARM: disabled while the handler runs, back after its rt_sigreturn. */
	ss.ss_flags = (int32_t)SS_AUTODISARM;
	CHECK(syscall(__NR_sigaltstack, &ss, 0) == 0);
	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_alt, SA_ONSTACK | SA_SIGINFO, 0) == 0);
	kill(getpid(), SIGUSR1);
	CHECK(handler_sp > (uint32_t)altstack && handler_sp < (uint32_t)altstack + sizeof(altstack));
	CHECK(alt_flags_inside == SS_DISABLE && alt_change_inside == 0);
	CHECK(syscall(__NR_sigaltstack, 0, &old) == 0 && old.ss_sp == (uint32_t)altstack &&
	      (uint32_t)old.ss_flags == SS_AUTODISARM);
	ss.ss_flags = SS_DISABLE;
	CHECK(syscall(__NR_sigaltstack, &ss, 0) == 0);
	CHECK(syscall(__NR_sigaltstack, 0, &old) == 0 && old.ss_flags == SS_DISABLE);
}

/* ---- SIGCHLD, kill, tgkill, process groups and sessions ---------------------------------- */

static void exit_three(void) { exit(3); }

static void t_sigchld(void)
{
	int pid, st;

	CHECK(sigaction_rt(SIGCHLD, (uint32_t)on_info, SA_SIGINFO, 0) == 0);
	pid = fork();
	if (pid == 0)
		exit_three();
	CHECK(waitpid(pid, &st, 0) == pid || hits == 1);        /* the handler may cut the wait short */
	wait_for_hits(1, SIGCHLD);
	waitpid(pid, &st, 0);
	CHECK(last_sig == SIGCHLD && last_code == CLD_EXITED && last_pid == pid && last_status == 3);
	pid = fork();
	if (pid == 0)
		for (;;)
			syscall(__NR_pause, 0);
	CHECK(kill(pid, SIGTERM) == 0);
	wait_for_hits(2, SIGCHLD);
	CHECK(last_code == CLD_KILLED && last_pid == pid && last_status == SIGTERM);
	CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	/* By default SIGCHLD is ignored: it neither kills nor stays pending. */
	CHECK(sigaction_rt(SIGCHLD, SIG_DFL, 0, 0) == 0);
	CHECK(kill(getpid(), SIGCHLD) == 0);
}

/* An auto-reaped child is gone soon after wait4 says -ECHILD, but not at once on Linux: there
 * the parent may wake before the child's exit has released its pid. Allow it a second. */
static int gone_soon(int pid)
{
	for (int i = 0; i < 100; i++) {
		if (kill(pid, 0) == -ESRCH)
			return 1;
		msleep(10);
	}
	return 0;
}

static void t_no_zombies(void)
{
	int a, b, st;

	/* SIGCHLD set to SIG_IGN: children leave no zombie, and wait4 ends with -ECHILD once all are gone. */
	CHECK(sigaction_rt(SIGCHLD, SIG_IGN, 0, 0) == 0);
	a = fork();
	if (a == 0)
		exit(1);
	b = fork();
	if (b == 0) {
		msleep(100);
		exit(2);
	}
	CHECK(wait4(-1, &st, 0, 0) == -ECHILD);
	CHECK(gone_soon(a) && gone_soon(b));
	/* SA_NOCLDWAIT with a handler: the same, and the handler still runs. */
	CHECK(sigaction_rt(SIGCHLD, (uint32_t)on_info, SA_SIGINFO | SA_NOCLDWAIT, 0) == 0);
	a = fork();
	if (a == 0)
		exit(3);
	while (wait4(-1, &st, 0, 0) != -ECHILD)
		;
	CHECK(hits == 1 && last_pid == a);
}

static void pause_forever(void)
{
	for (;;)
		syscall(__NR_pause, 0);
}

static volatile int group_leader;

/* The group's children inherit this handler: they leave with status 9; the leader carries on. */
static void on_group_kill(int sig)
{
	if (getpid() != group_leader)
		exit(9);
	hits++;
}

static int exited_9(int st)
{
	return WIFEXITED(st) && WEXITSTATUS(st) == 9;
}

static void t_kill_groups(void)
{
	int me = getpid(), a, b, st;

	/* Lead a new group, with two children in it. */
	CHECK(syscall(__NR_setpgid, 0, 0) == 0);
	CHECK(syscall(__NR_getpgrp, 0) == me && syscall(__NR_getpgid, 0) == me);
	group_leader = me;
	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_group_kill, 0, 0) == 0);  /* we get the group kill too */
	a = fork();
	if (a == 0)
		pause_forever();
	b = fork();
	if (b == 0)
		pause_forever();
	CHECK(syscall(__NR_getpgid, a) == me && syscall(__NR_getpgid, b) == me);
	CHECK(kill(-me, SIGUSR1) == 0);
	CHECK(waitpid(a, &st, 0) == a && exited_9(st));
	CHECK(waitpid(b, &st, 0) == b && exited_9(st));
	CHECK(hits == 1);
	/* kill(0): our own group. */
	a = fork();
	if (a == 0)
		pause_forever();
	CHECK(kill(0, SIGUSR1) == 0);
	CHECK(waitpid(a, &st, 0) == a && exited_9(st));
	CHECK(hits == 2);
	/* Errors. */
	CHECK(kill(-NO_PID, SIGUSR1) == -ESRCH);
	CHECK(kill(NO_PID, SIGUSR1) == -ESRCH);
	CHECK(kill(me, 65) == -EINVAL);
	CHECK(kill(me, -1) == -EINVAL);
	CHECK(kill(me, 0) == 0);
	CHECK(kill(-me, 0) == 0);
}

static void t_pgrp_session(void)
{
	int me = getpid(), c, st;

	/* A child is in its parent's session. The id may be 0 on a Linux host whose session
	 * leader sits outside this pid namespace (a container), so only >= 0 is asked. */
	CHECK(syscall(__NR_getsid, 0) >= 0 && syscall(__NR_getsid, 0) == syscall(__NR_getsid, getppid()));
	CHECK(syscall(__NR_setpgid, 0, -1) == -EINVAL);
	CHECK(syscall(__NR_setpgid, NO_PID, 0) == -ESRCH);
	CHECK(syscall(__NR_setpgid, 0, NO_PID) == -EPERM);       /* no such group */
	CHECK(syscall(__NR_getpgid, NO_PID) == -ESRCH);
	CHECK(syscall(__NR_getsid, NO_PID) == -ESRCH);
	/* A parent may move its child into the child's own group. */
	c = fork();
	if (c == 0)
		pause_forever();
	CHECK(syscall(__NR_setpgid, c, c) == 0 && syscall(__NR_getpgid, c) == c);
	CHECK(syscall(__NR_setpgid, c, syscall(__NR_getpgrp, 0)) == 0);     /* and back */
	kill(c, SIGKILL);
	waitpid(c, &st, 0);
	/* setsid: a new session and group, led by us; a group leader may not. */
	CHECK(syscall(__NR_setsid, 0) == me);
	CHECK(syscall(__NR_getsid, 0) == me && syscall(__NR_getpgrp, 0) == me);
	CHECK(syscall(__NR_setsid, 0) == -EPERM);
	CHECK(syscall(__NR_setpgid, 0, 0) == -EPERM);           /* a session leader stays put */
}

static void t_tgkill(void)
{
	int me = getpid();

	CHECK(sigaction_rt(SIGUSR1, (uint32_t)on_info, SA_SIGINFO, 0) == 0);
	CHECK(syscall(__NR_tgkill, me, me, SIGUSR1) == 0);
	CHECK(hits == 1 && last_code == SI_TKILL && last_pid == me);
	CHECK(syscall(__NR_tkill, me, SIGUSR1) == 0 && hits == 2);
	CHECK(syscall(__NR_gettid, 0) == me);
	CHECK(syscall(__NR_tgkill, me, NO_PID, SIGUSR1) == -ESRCH);
	CHECK(syscall(__NR_tgkill, 0, me, SIGUSR1) == -EINVAL);
	CHECK(syscall(__NR_tgkill, me, 0, SIGUSR1) == -EINVAL);
	CHECK(syscall(__NR_tgkill, me, me, 65) == -EINVAL);
	CHECK(syscall(__NR_tgkill, me, me, 0) == 0);
}

/* ---- alarm and setitimer ---------------------------------------------------------------- */

static void t_alarm_itimer(void)
{
	struct itimerval32 it = { 0, 0, 0, 0 }, old;

	CHECK(sigaction_rt(SIGALRM, (uint32_t)on_sig, 0, 0) == 0);
	CHECK(syscall(__NR_alarm, 0) == 0);
	CHECK(syscall(__NR_alarm, 5) == 0);
	CHECK(syscall(__NR_alarm, 0) == 5);             /* what was left, rounded */
	CHECK(syscall(__NR_getitimer, ITIMER_REAL, &old) == 0 && old.value_sec == 0 && old.value_usec == 0);
	/* Every 30 ms, three times. */
	CHECK(arm_ms(30, 30) == 0);
	wait_for_hits(3, SIGALRM);
	CHECK(syscall(__NR_getitimer, ITIMER_REAL, &old) == 0 && old.interval_usec == 30000);
	CHECK(syscall(__NR_setitimer, ITIMER_REAL, &it, &old) == 0 && old.interval_usec == 30000);
	/* One-shot: fires once. */
	CHECK(syscall(__NR_alarm, 1) == 0);
	msleep(1500);
	CHECK(hits == 4);
	/* Errors. */
	it.value_usec = 1000000;
	CHECK(syscall(__NR_setitimer, ITIMER_REAL, &it, 0) == -EINVAL);
	it.value_usec = 0;
	CHECK(syscall(__NR_setitimer, 7, &it, 0) == -EINVAL);
	CHECK(syscall(__NR_setitimer, ITIMER_REAL, BAD_KERNEL, 0) == -EFAULT);
	CHECK(syscall(__NR_setitimer, ITIMER_REAL, &it, BAD_KERNEL) == -EFAULT);
	CHECK(syscall(__NR_getitimer, ITIMER_REAL, BAD_UNMAP) == -EFAULT);
	CHECK(syscall(__NR_getitimer, 7, &old) == -EINVAL);
}

static void alarm_kills(void)
{
	syscall(__NR_alarm, 1);
	pause_forever();
}

static void t_alarm_default_kills(void)
{
	int st = gt_child_status(alarm_kills);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM);
}

int main(void)
{
	gt_start("sigtest");
	gt_run("sigaction_args", t_sigaction_args);
	gt_run("handler_runs", t_handler_runs);
	gt_run("handler_flags", t_handler_flags);
	gt_run("mask_and_pending", t_mask_and_pending);
	gt_run("pause_sigsuspend", t_pause_sigsuspend);
	gt_run("eintr_and_restart", t_eintr_and_restart);
	gt_run("fault_handlers", t_fault_handlers);
	gt_run("fault_unhandled", t_fault_unhandled);
	gt_run("bad_frames", t_bad_frames);
	gt_run("sigaltstack", t_sigaltstack);
	gt_run("sigchld", t_sigchld);
	gt_run("no_zombies", t_no_zombies);
	gt_run("kill_groups", t_kill_groups);
	gt_run("pgrp_session", t_pgrp_session);
	gt_run("tgkill", t_tgkill);
	gt_run("alarm_itimer", t_alarm_itimer);
	gt_run("alarm_default_kills", t_alarm_default_kills);
	gt_finish();
}
