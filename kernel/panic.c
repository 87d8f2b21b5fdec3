/* panic(): the last words of a kernel that found a bug in itself. */
#include "kernel/panic.h"

#include "kernel/cpu.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "kernel/sched/task.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

void (*panic_stop_other_cpus)(void);
volatile int panicking = -1;            /* the CPU that is panicking, or -1 */

static void print_frame_line(uint32_t eip)
{
	uintptr_t off;
	const char *name = ksym_lookup(eip, &off);

	if (name)
		printk("  [<%08x>] %s+0x%x\n", eip, name, (unsigned)off);
	else
		printk("  [<%08x>] ?\n", eip);
}

#define MAX_FRAMES 32

/* The return address of trap_common's call to trap_dispatch() (kernel/x86/trapentry.S). */
extern const uint32_t trap_dispatch_return;

/* A stack a backtrace may read: [lo, hi). */
struct stack_range {
	uint32_t lo, hi;
};

/*
 * The kernel stack that holds ebp: the current task's, or the stack this CPU
 * booted on, where its idle task runs (with the interrupts that arrive in
 * the idle loop: there is no separate interrupt stack). Anything else, such
 * as the user's %ebp above a system call's trap frame or a corrupted frame
 * pointer, is no stack a report may read.
 */
static bool stack_holding(uint32_t ebp, struct stack_range *r)
{
	struct cpu *c = this_cpu();
	struct task *t = c->curr;

	if (t && t->kstack) {
		r->lo = (uint32_t)t->kstack;
		r->hi = r->lo + KSTACK_SIZE;
		if (ebp >= r->lo && ebp < r->hi)
			return true;
	}
	r->lo = c->stack_lo;
	r->hi = c->stack_hi;
	return ebp >= r->lo && ebp < r->hi;
}

/* Do the n bytes at p lie inside r? */
static bool inside(const struct stack_range *r, uint32_t p, uint32_t n)
{
	return p >= r->lo && p <= r->hi && n <= r->hi - p;
}

/* If the frame at ebp is trap_dispatch()'s, the trap frame it was called with (its argument); else NULL. */
static const struct trapframe *trap_frame_of(const struct stack_range *r, uint32_t ebp)
{
	const uint32_t *frame = (const uint32_t *)ebp;
	uint32_t tf;

	if (frame[1] != trap_dispatch_return || !inside(r, ebp + 8, 4))
		return NULL;
	tf = frame[2];
	/* A trap from kernel mode has no esp and ss: its frame ends there. */
	if ((tf & 3) || !inside(r, tf, offsetof(struct trapframe, esp)))
		return NULL;
	return (const struct trapframe *)tf;
}

/*
 * Follows the chain of saved frame pointers (every function is built with
 * -fno-omit-frame-pointer), one line per return address; returns how many.
 * A report must never fault, so the walk reads only the kernel stack it
 * started on, and each frame must be aligned and lie above the one before
 * (the stack grows down). It ends at the trap frame of an entry from user
 * mode: what lies beyond is the program's, and its %ebp is whatever the
 * program left there. With ips, the return addresses are stored there
 * (up to max) instead of printed.
 */
static int walk_frames(uint32_t ebp, uint32_t *ips, int max)
{
	struct stack_range r;
	int n = 0;

	if (!stack_holding(ebp, &r))
		return 0;
	while (n < max && !(ebp & 3) && inside(&r, ebp, 8)) {
		const uint32_t *frame = (const uint32_t *)ebp;
		const struct trapframe *tf;

		if (!frame[1])
			break;
		if (ips)
			ips[n] = frame[1] - 1;
		else
			print_frame_line(frame[1] - 1);    /* -1: the call, not the instruction after it */
		n++;
		tf = trap_frame_of(&r, ebp);
		if (tf && trap_from_user(tf)) {
			if (!ips)
				printk("  -- user mode: eip %08x, ebp %08x --\n", tf->eip, tf->ebp);
			break;
		}
		if (frame[0] <= ebp)
			break;
		ebp = frame[0];
	}
	return n;
}

int save_backtrace(uint32_t ebp, uint32_t *ips, int max)
{
	return walk_frames(ebp, ips, max);
}

void print_saved_backtrace(const uint32_t *ips, int n)
{
	for (int i = 0; i < n; i++)
		print_frame_line(ips[i]);
}

int dump_backtrace_from(uint32_t eip, uint32_t ebp)
{
	printk("Backtrace:\n");
	if (eip)
		print_frame_line(eip);
	return (eip ? 1 : 0) + walk_frames(ebp, NULL, MAX_FRAMES);
}

/*
 * A trap can hit a function before it has built its frame (at its first
 * instruction, or in a small leaf the compiler left frameless). Then %ebp
 * still belongs to the caller and the chain would skip the caller: find its
 * return address on the stack instead.
 */
static uint32_t caller_if_frameless(uint32_t eip, uint32_t esp)
{
	uintptr_t off;
	const uint8_t *start;

	if (!ksym_lookup(eip, &off))
		return 0;
	start = (const uint8_t *)(eip - off);
	bool has_prologue = start[0] == 0x55 && start[1] == 0x89 && start[2] == 0xE5;
	if (has_prologue && off >= 3)
		return 0;                       /* push %ebp; mov %esp,%ebp already ran */
	if (has_prologue && off >= 1)
		return *(uint32_t *)(esp + 4);  /* after push %ebp */
	return *(uint32_t *)esp;
}

int dump_backtrace(uint32_t ebp)
{
	return dump_backtrace_from(0, ebp);
}

/*
 * Only one CPU reports; any other CPU that panics meanwhile just stops.
 * Returns how many panics this CPU is already in: 0 for the first. The
 * panicking CPU comes back here if its report faults (a bad pointer in the
 * message, a bug in the report itself); the report that faulted once would
 * fault again, so its callers print less each time round.
 */
static int enter_panic(void)
{
	static int nested;      /* written only by the panicking CPU */
	int me = this_cpu()->id;
	int expected = -1;

	cli();
	if (!__atomic_compare_exchange_n(&panicking, &expected, me, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		if (expected != me)
			for (;;)
				hlt();
		console_force_unlock();         /* the fault may have come in the middle of a printk */
		return ++nested;
	}
	if (panic_stop_other_cpus)
		panic_stop_other_cpus();
	console_force_unlock();
	return 0;
}

static void __noreturn halt_forever(void)
{
	printk("--- end of panic: CPU %d halted, all CPUs stopped ---\n", this_cpu()->id);
	for (;;) {
		cli();
		hlt();
	}
}

/* A panic while reporting a nested panic: nothing more may be printed safely. */
static void __noreturn halt_silently(void)
{
	for (;;) {
		cli();
		hlt();
	}
}

void panic(const char *fmt, ...)
{
	int nested = enter_panic();
	va_list ap;

	if (nested > 1)
		halt_silently();
	printk("\nKernel panic on CPU %d: ", this_cpu()->id);
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	if (nested)
		printk("(a panic while reporting a panic: no backtrace)\n");
	else
		dump_backtrace(read_ebp());
	halt_forever();
}

void panic_trap(struct trapframe *tf, const char *what)
{
	int nested = enter_panic();

	if (nested > 1)
		halt_silently();
	printk("\nKernel panic on CPU %d: %s\n", this_cpu()->id, what);
	trap_print_frame(tf);
	printk("Backtrace:\n");
	print_frame_line(tf->eip);
	if (nested) {
		printk("(a fault while reporting a panic: no more backtrace)\n");
	} else if (!trap_from_user(tf)) {
		uint32_t caller = caller_if_frameless(tf->eip, (uint32_t)&tf->esp);
		if (caller)
			print_frame_line(caller - 1);
		walk_frames(tf->ebp, NULL, MAX_FRAMES);
	}
	halt_forever();
}
