/*
 * Signal frames, byte for byte as Linux i386 builds them
 * (arch/x86/include/asm/sigframe.h), because glibc and debuggers read them:
 *
 *   sa_flags without SA_SIGINFO: struct sigframe     handler(int sig)
 *   sa_flags with SA_SIGINFO:    struct rt_sigframe  handler(int sig, siginfo_t *, ucontext_t *)
 *
 * Below the interrupted stack pointer (or at the top of the alternate stack)
 * we put the FPU/SSE state (624 bytes, 64-aligned), then the frame, aligned
 * so that the handler sees esp + 4 16-byte aligned, as after a call.
 *
 *   esp -> pretcode   return address: sa_restorer (glibc's __restore_rt), or
 *                     the frame's own retcode: the 8 bytes of
 *                     "movl $__NR_rt_sigreturn, %eax; int $0x80"
 *          sig, (&info, &uc)
 *          [info: siginfo_t]
 *          sigcontext (or ucontext): every register at the interruption
 *          [retcode]
 *          fpstate: fnsave image + fxsave image
 *
 * sigreturn and rt_sigreturn read it back from the stack pointer the
 * handler's `ret` left (frame + 4, or + 8 for sigframe, whose retcode pops
 * sig first), check everything user mode could have scribbled, and restore.
 */
#include "kernel/x86/sigframe.h"

#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/unistd.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/gdt.h"
#include "kernel/x86/tls.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

/* struct _fpstate_32: the fnsave-format part (with status and magic), then fxsave's image. */
struct sig_fpstate {
	uint8_t fsave[112];
	struct fpu_state fx;            /* 16-aligned, as fxsave needs (112 is a multiple of 16) */
};

struct sigframe {
	uint32_t pretcode;
	int32_t sig;
	struct sigcontext sc;
	uint8_t fpstate_unused[624];    /* kept so that extramask stays where old programs look */
	uint32_t extramask;             /* blocked signals 33..64 */
	uint8_t retcode[8];
};

struct rt_sigframe {
	uint32_t pretcode;
	int32_t sig;
	uint32_t pinfo;
	uint32_t puc;
	k_siginfo_t info;
	struct k_ucontext uc;
	uint8_t retcode[8];
};

/* No __packed: every field falls on its natural i386 boundary; these say the layout is Linux's. */
_Static_assert(sizeof(struct sigcontext) == 88, "struct sigcontext_32 is 88 bytes");
_Static_assert(sizeof(struct sig_fpstate) == 624, "struct _fpstate_32 is 624 bytes");
_Static_assert(sizeof(k_siginfo_t) == 128, "siginfo_t is 128 bytes");
_Static_assert(offsetof(struct sigframe, extramask) == 720, "sigframe.extramask as in Linux");
_Static_assert(offsetof(struct rt_sigframe, uc) == 144, "rt_sigframe.uc as in Linux");
_Static_assert(sizeof(struct sigframe) == 732 && sizeof(struct rt_sigframe) == 268, "frame sizes as in Linux");

#define FIX_EFLAGS 0x00254DD5   /* AC|ID|OF|DF|TF|SF|ZF|AF|PF|CF|RF: what user mode may change */
#define EFLAGS_TF 0x100
#define EFLAGS_DF 0x400
#define EFLAGS_RF 0x10000

/* The three 8-byte trampolines Linux uses (the movl's immediate patched in). */
static void write_retcode(uint8_t *rc, bool rt)
{
	uint32_t nr = rt ? __NR_rt_sigreturn : __NR_sigreturn;
	int i = 0;

	if (!rt)
		rc[i++] = 0x58;                 /* popl %eax: drop sig */
	rc[i++] = 0xB8;                         /* movl $nr, %eax */
	memcpy(&rc[i], &nr, 4);
	i += 4;
	rc[i++] = 0xCD;                         /* int $0x80 */
	rc[i++] = 0x80;
	if (i < 8)
		rc[i] = 0;
}

static void save_sigcontext(struct sigcontext *sc, const struct trapframe *tf, uint32_t fpstate,
			    k_sigset_t mask, uint32_t cr2)
{
	memset(sc, 0, sizeof(*sc));
	sc->gs = tf->gs;
	sc->fs = tf->fs;
	sc->es = tf->es;
	sc->ds = tf->ds;
	sc->edi = tf->edi;
	sc->esi = tf->esi;
	sc->ebp = tf->ebp;
	sc->esp = tf->esp;
	sc->ebx = tf->ebx;
	sc->edx = tf->edx;
	sc->ecx = tf->ecx;
	sc->eax = tf->eax;
	sc->trapno = tf->trapno;
	sc->err = tf->err;
	sc->eip = tf->eip;
	sc->cs = tf->cs;
	sc->eflags = tf->eflags;
	sc->esp_at_signal = tf->esp;
	sc->ss = tf->ss;
	sc->fpstate = fpstate;
	sc->oldmask = (uint32_t)mask;
	sc->cr2 = cr2;
}

static void fill_siginfo(k_siginfo_t *si, int sig, const struct ksiginfo *info)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = sig;
	si->si_code = info->code;
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGTRAP:
		if (info->code > 0 && info->code != SI_KERNEL) {
			si->u.fault.addr = info->addr;
			break;
		}
		__attribute__((fallthrough));
	default:
		if (sig == SIGCHLD && info->code > 0 && info->code != SI_KERNEL) {
			si->u.chld.pid = info->pid;
			si->u.chld.status = info->status;
		} else if (info->code <= 0) {
			si->u.kill.pid = info->pid;     /* kill, tgkill: who sent it (uid 0) */
		}
	}
}

/* Where the frame goes: the alternate stack's top if asked for (and not on it already), else below esp. */
static uint32_t frame_base(struct task *t, const struct trapframe *tf, const struct k_sigaction *ka)
{
	uint32_t sp = tf->esp;

	if ((ka->sa_flags & SA_ONSTACK) && !signal_on_altstack(t, sp) &&
	    !(t->sig.altstack_flags & SS_DISABLE))
		sp = t->sig.altstack_sp + t->sig.altstack_size;
	return sp;
}

int sigframe_setup(struct trapframe *tf, int sig, const struct k_sigaction *ka,
		   const struct ksiginfo *info, k_sigset_t saved_mask)
{
	struct task *t = current;
	bool rt = (ka->sa_flags & SA_SIGINFO) != 0;
	uint32_t sp = frame_base(t, tf, ka), fp, frame, size, cr2;
	struct sig_fpstate fps;
	union {
		struct sigframe s;
		struct rt_sigframe r;
	} f;
	/* The fault address as the fault saw it: CR2 itself may have moved since (a COW fault on the frame). */
	cr2 = (tf->trapno == T_PGFLT && sig == SIGSEGV) ? info->addr : 0;
	size = rt ? sizeof(struct rt_sigframe) : sizeof(struct sigframe);
	fp = ALIGN_DOWN(sp - sizeof(struct sig_fpstate), 64);
	frame = ((fp - size + 4) & ~15u) - 4;
	if (fp > sp || frame > fp || !access_ok((void *)frame, sp - frame))
		return -EFAULT;

	/* The FPU state goes first (saving it also gives the handler a clean FPU). */
	fpu_save_for_signal(fps.fsave, &fps.fx);
	if (copy_to_user((void *)fp, &fps, sizeof(fps)) < 0)
		return -EFAULT;

	memset(&f, 0, sizeof(f));
	if (rt) {
		struct rt_sigframe *rf = &f.r;

		rf->sig = sig;
		rf->pinfo = frame + offsetof(struct rt_sigframe, info);
		rf->puc = frame + offsetof(struct rt_sigframe, uc);
		fill_siginfo(&rf->info, sig, info);
		rf->uc.uc_stack.ss_sp = t->sig.altstack_sp;
		rf->uc.uc_stack.ss_size = t->sig.altstack_size;
		rf->uc.uc_stack.ss_flags = (int32_t)((t->sig.altstack_flags & SS_DISABLE) ? SS_DISABLE :
					     (signal_on_altstack(t, tf->esp) ? SS_ONSTACK : 0) |
					     (t->sig.altstack_flags & SS_AUTODISARM));
		save_sigcontext(&rf->uc.uc_mcontext, tf, fp, saved_mask, cr2);
		rf->uc.uc_sigmask = saved_mask;
		write_retcode(rf->retcode, true);
		rf->pretcode = (ka->sa_flags & SA_RESTORER) ? ka->sa_restorer :
			       frame + offsetof(struct rt_sigframe, retcode);
	} else {
		struct sigframe *sf = &f.s;

		sf->sig = sig;
		save_sigcontext(&sf->sc, tf, fp, saved_mask, cr2);
		sf->extramask = (uint32_t)(saved_mask >> 32);
		write_retcode(sf->retcode, false);
		sf->pretcode = (ka->sa_flags & SA_RESTORER) ? ka->sa_restorer :
			       frame + offsetof(struct sigframe, retcode);
	}
	if (copy_to_user((void *)frame, &f, size) < 0)
		return -EFAULT;
	/* SS_AUTODISARM: the handler may nest its own signals on it; rt_sigreturn puts uc_stack back. */
	if (t->sig.altstack_flags & SS_AUTODISARM) {
		t->sig.altstack_sp = t->sig.altstack_size = 0;
		t->sig.altstack_flags = SS_DISABLE;
	}

	/* The handler runs with sig in eax (and for rt, &info in edx, &uc in ecx), as in Linux. */
	tf->esp = frame;
	tf->eip = ka->sa_handler;
	tf->eax = (uint32_t)sig;
	tf->edx = rt ? f.r.pinfo : 0;
	tf->ecx = rt ? f.r.puc : 0;
	tf->ds = tf->es = tf->ss = USER_DS;
	tf->cs = USER_CS;
	tf->eflags &= ~(EFLAGS_TF | EFLAGS_DF | EFLAGS_RF);
	return 0;
}

/* ---- sigreturn ------------------------------------------------------------------ */

/*
 * Put the registers of sc back into tf. Segment registers are loaded by
 * trap_return in kernel mode: a selector that is not ours would fault
 * there, so only the ones user mode may hold pass (else -EFAULT: SIGSEGV).
 */
static int restore_sigcontext(struct trapframe *tf, const struct sigcontext *sc)
{
	struct task *t = current;
	struct sig_fpstate fps;

	if (!tls_selector_ok(t, sc->gs) || !tls_selector_ok(t, sc->fs) ||
	    !tls_selector_ok(t, sc->es) || !tls_selector_ok(t, sc->ds))
		return -EFAULT;
	tf->gs = sc->gs;
	tf->fs = sc->fs;
	tf->es = sc->es;
	tf->ds = sc->ds;
	tf->edi = sc->edi;
	tf->esi = sc->esi;
	tf->ebp = sc->ebp;
	tf->esp = sc->esp;
	tf->ebx = sc->ebx;
	tf->edx = sc->edx;
	tf->ecx = sc->ecx;
	tf->eax = sc->eax;
	tf->eip = sc->eip;
	/* Always the user segments: anything else in cs or ss would make iret fault in the kernel. */
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	tf->eflags = (tf->eflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS);
	if (!sc->fpstate) {
		fpu_reset_live();
		return 0;
	}
	if (copy_from_user(&fps, (const void *)sc->fpstate, sizeof(fps)) < 0)
		return -EFAULT;
	/* magic 0 (X86_FXSR_MAGIC): the fxsave image is there; 0xffff: only the fnsave part. */
	fpu_restore_from_signal(fps.fsave, &fps.fx, fps.fsave[110] == 0 && fps.fsave[111] == 0);
	return 0;
}

/* A frame we cannot read back: the process dies of SIGSEGV on its way out, as in Linux. */
static long bad_frame(uint32_t frame)
{
	struct task *t = current;

	printk("pid %d (%s): bad signal frame at %08x in sigreturn; killing it\n", t->pid, t->name, frame);
	signal_force_kill(t, SIGSEGV);
	return 0;
}

long sys_sigreturn(void)
{
	struct trapframe *tf = task_trapframe(current);
	uint32_t frame = tf->esp - 8;   /* the handler's ret took pretcode, retcode's popl took sig */
	struct sigframe f;

	current->syscall_nr = -1;       /* the restored eax is no system call's result */
	if (copy_from_user(&f, (const void *)frame, sizeof(f)) < 0)
		return bad_frame(frame);
	signal_set_blocked(current, f.sc.oldmask | ((k_sigset_t)f.extramask << 32));
	if (restore_sigcontext(tf, &f.sc) < 0)
		return bad_frame(frame);
	return tf->eax;
}

long sys_rt_sigreturn(void)
{
	struct trapframe *tf = task_trapframe(current);
	uint32_t frame = tf->esp - 4;   /* the handler's ret took pretcode */
	struct rt_sigframe f;

	current->syscall_nr = -1;
	if (copy_from_user(&f, (const void *)frame, sizeof(f)) < 0)
		return bad_frame(frame);
	signal_set_blocked(current, f.uc.uc_sigmask);
	if (restore_sigcontext(tf, &f.uc.uc_mcontext) < 0)
		return bad_frame(frame);
	signal_restore_altstack(current, &f.uc.uc_stack);
	return tf->eax;
}
