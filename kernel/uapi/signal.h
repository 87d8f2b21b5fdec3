/*
 * Signals as the Linux i386 ABI has them: numbers, sigaction flags, the
 * structures rt_sigaction, sigaltstack and the signal frame use. Shared with
 * user space (user/lib); glibc's own <signal.h> describes the same layouts.
 */
#ifndef KERNEL_UAPI_SIGNAL_H
#define KERNEL_UAPI_SIGNAL_H

#include <stdint.h>

#define SIGHUP     1
#define SIGINT     2
#define SIGQUIT    3
#define SIGILL     4
#define SIGTRAP    5
#define SIGABRT    6
#define SIGBUS     7
#define SIGFPE     8
#define SIGKILL    9
#define SIGUSR1   10
#define SIGSEGV   11
#define SIGUSR2   12
#define SIGPIPE   13
#define SIGALRM   14
#define SIGTERM   15
#define SIGSTKFLT 16
#define SIGCHLD   17
#define SIGCONT   18
#define SIGSTOP   19
#define SIGTSTP   20
#define SIGTTIN   21
#define SIGTTOU   22
#define SIGURG    23
#define SIGXCPU   24
#define SIGXFSZ   25
#define SIGVTALRM 26
#define SIGPROF   27
#define SIGWINCH  28
#define SIGIO     29
#define SIGPWR    30
#define SIGSYS    31
#define SIGRTMIN  32
#define _NSIG     64    /* signals 1.._NSIG; sets are 64 bits, bit n-1 = signal n */
#define NSIG      32    /* the classic signals 1..31 (Linux's i386 NSIG); real-time ones follow */

#define SIG_DFL   0u    /* sa_handler values */
#define SIG_IGN   1u

/* sa_flags */
#define SA_NOCLDSTOP 0x00000001u
#define SA_NOCLDWAIT 0x00000002u
#define SA_SIGINFO   0x00000004u
#define SA_RESTORER  0x04000000u
#define SA_ONSTACK   0x08000000u
#define SA_RESTART   0x10000000u
#define SA_NODEFER   0x40000000u
#define SA_RESETHAND 0x80000000u

/* rt_sigprocmask how */
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* sigaltstack */
#define SS_ONSTACK    1
#define SS_DISABLE    2
#define SS_AUTODISARM (1u << 31)
#define MINSIGSTKSZ   2048
#define SIGSTKSZ      8192

/* si_code values */
#define SI_USER      0          /* kill() */
#define SI_KERNEL    0x80       /* sent by the kernel */
#define SI_TKILL     (-6)       /* tkill(), tgkill() */
#define SEGV_MAPERR  1          /* nothing mapped at si_addr */
#define SEGV_ACCERR  2          /* mapped, but not for this access */
#define BUS_ADRERR   2          /* nonexistent physical address (a file mapping past EOF) */
#define ILL_ILLOPN   2          /* illegal operand (ud2) */
#define FPE_INTDIV   1          /* integer divide by zero */
#define FPE_INTOVF   2
#define FPE_FLTDIV   3          /* floating-point divide by zero */
#define FPE_FLTOVF   4
#define FPE_FLTUND   5
#define FPE_FLTRES   6
#define FPE_FLTINV   7
#define CLD_EXITED   1          /* SIGCHLD: the child called exit */
#define CLD_KILLED   2          /* SIGCHLD: the child was killed by a signal */
#define CLD_DUMPED   3          /* SIGCHLD: killed, and dumped core (never, on smpix) */
#define CLD_TRAPPED  4          /* SIGCHLD: a traced child trapped (no ptrace on smpix) */
#define CLD_STOPPED  5          /* SIGCHLD: the child stopped (a stop signal) */
#define CLD_CONTINUED 6         /* SIGCHLD: the stopped child was continued (SIGCONT) */

typedef uint64_t k_sigset_t;    /* what rt_sigprocmask and friends pass: sigsetsize 8 */

/* rt_sigaction()'s struct sigaction (the kernel's layout, not glibc's). */
struct k_sigaction {
	uint32_t sa_handler;    /* SIG_DFL, SIG_IGN or a function */
	uint32_t sa_flags;
	uint32_t sa_restorer;   /* with SA_RESTORER: where the handler returns to */
	k_sigset_t sa_mask;     /* also blocked while the handler runs */
};

/* The old sigaction() call's layout: a 32-bit mask, before the flags. */
struct old_sigaction {
	uint32_t sa_handler;
	uint32_t sa_mask;
	uint32_t sa_flags;
	uint32_t sa_restorer;
};

typedef struct {
	uint32_t ss_sp;
	int32_t ss_flags;
	uint32_t ss_size;
} k_stack_t;

/* siginfo_t: 128 bytes; the fields a signal of each kind fills in. */
typedef struct {
	int32_t si_signo;
	int32_t si_errno;
	int32_t si_code;
	union {
		int32_t pad[29];
		struct { int32_t pid; uint32_t uid; } kill;
		struct { int32_t pid; uint32_t uid; int32_t status; int32_t utime, stime; } chld;
		struct { uint32_t addr; } fault;
	} u;
} k_siginfo_t;

/*
 * The registers saved in a signal frame (Linux's struct sigcontext_32).
 * Segment registers are 16 bits, each followed by 16 bits of padding.
 */
struct sigcontext {
	uint16_t gs, gsh, fs, fsh, es, esh, ds, dsh;
	uint32_t edi, esi, ebp, esp, ebx, edx, ecx, eax;
	uint32_t trapno, err, eip;
	uint16_t cs, csh;
	uint32_t eflags, esp_at_signal;
	uint16_t ss, ssh;
	uint32_t fpstate;       /* address of the saved FPU state, 0 if none */
	uint32_t oldmask;       /* the blocked mask to restore (signals 1..32) */
	uint32_t cr2;
};

/* struct ucontext as rt_sigreturn reads it back. */
struct k_ucontext {
	uint32_t uc_flags;
	uint32_t uc_link;
	k_stack_t uc_stack;
	struct sigcontext uc_mcontext;
	k_sigset_t uc_sigmask;
};

#endif
