/* panic(): the last words of a kernel that found a bug in itself. */
#include "kernel/panic.h"

#include "kernel/cpu.h"
#include "kernel/ksyms.h"
#include "kernel/mm/memlayout.h"
#include "kernel/printk.h"
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

/* Follows the chain of saved frame pointers; every function is built with -fno-omit-frame-pointer. */
static void walk_frames(uint32_t ebp)
{
	for (int depth = 0; ebp && depth < 32; depth++) {
		uint32_t *frame = (uint32_t *)ebp;
		if (ebp < KERNEL_BASE || (ebp & 3))
			break;
		if (!frame[1])
			break;
		print_frame_line(frame[1] - 1);    /* -1: the call, not the instruction after it */
		if (frame[0] <= ebp)               /* the stack grows down: frames must go up */
			break;
		ebp = frame[0];
	}
}

void dump_backtrace_from(uint32_t eip, uint32_t ebp)
{
	printk("Backtrace:\n");
	if (eip)
		print_frame_line(eip);
	walk_frames(ebp);
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

void dump_backtrace(uint32_t ebp)
{
	dump_backtrace_from(0, ebp);
}

/* Only one CPU reports; any other CPU that panics meanwhile just stops. */
static void enter_panic(void)
{
	int me = this_cpu()->id;
	int expected = -1;

	cli();
	if (!__atomic_compare_exchange_n(&panicking, &expected, me, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		if (expected != me)
			for (;;)
				hlt();
	}
	if (panic_stop_other_cpus)
		panic_stop_other_cpus();
	console_force_unlock();
}

static void __noreturn halt_forever(void)
{
	printk("--- end of panic: CPU %d halted, all CPUs stopped ---\n", this_cpu()->id);
	for (;;) {
		cli();
		hlt();
	}
}

void panic(const char *fmt, ...)
{
	va_list ap;

	enter_panic();
	printk("\nKernel panic on CPU %d: ", this_cpu()->id);
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	dump_backtrace(read_ebp());
	halt_forever();
}

void panic_trap(struct trapframe *tf, const char *what)
{
	enter_panic();
	printk("\nKernel panic on CPU %d: %s\n", this_cpu()->id, what);
	trap_print_frame(tf);
	printk("Backtrace:\n");
	print_frame_line(tf->eip);
	if (!trap_from_user(tf)) {
		uint32_t caller = caller_if_frameless(tf->eip, (uint32_t)&tf->esp);
		if (caller)
			print_frame_line(caller - 1);
	}
	walk_frames(tf->ebp);
	halt_forever();
}
