/*
 * Trap dispatch: every interrupt, exception and system call comes here from
 * trapentry.S. Decide what the vector means, call the code that handles it
 * by name, then go back the same way every time (trap_exit).
 */
#include "kernel/x86/trap.h"

#include "kernel/cpu.h"
#include "kernel/mm/uaccess.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/dispatch.h"
#include "kernel/time/timer.h"
#include "kernel/trace/trace.h"
#include "kernel/x86/vdso.h"
#include "kernel/x86/x86.h"

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow", "bound range exceeded",
	"invalid opcode", "device not available", "double fault", "coprocessor segment overrun",
	"invalid TSS", "segment not present", "stack-segment fault", "general protection fault",
	"page fault", "reserved (15)", "x87 floating-point error", "alignment check",
	"machine check", "SIMD floating-point error", "virtualization exception",
	"control protection exception", "reserved (22)", "reserved (23)", "reserved (24)",
	"reserved (25)", "reserved (26)", "reserved (27)", "reserved (28)", "reserved (29)",
	"security exception", "reserved (31)",
};

/* Device interrupts and IPIs: the vector's handler, set by its driver at boot. */
static trap_handler_t handlers[256];

const char *trap_name(int trapno)
{
	if (trapno >= 0 && trapno < 32)
		return exception_names[trapno];
	if (trapno == T_SYSCALL)
		return "system call";
	return "interrupt";
}

void trap_set_handler(int vector, trap_handler_t handler)
{
	handlers[vector] = handler;
}

void trap_print_frame(const struct trapframe *tf)
{
	bool user = trap_from_user(tf);
	/* A trap from ring 0 pushes no esp/ss: the old stack continues right above eflags. */
	uint32_t esp = user ? tf->esp : (uint32_t)&tf->esp;

	printk("trap %u (%s) err 0x%x on CPU %d, from %s mode\n", tf->trapno, trap_name(tf->trapno),
	       tf->err, this_cpu()->id, user ? "user" : "kernel");
	if (tf->trapno == T_PGFLT)
		printk("cr2 %08x (%s %s, %s)\n", read_cr2(), tf->err & 2 ? "write" : "read",
		       tf->err & 1 ? "protection violation" : "page not present",
		       tf->err & 4 ? "user" : "kernel");
	printk("eip %08x  cs %04x  eflags %08x  esp %08x\n", tf->eip, tf->cs & 0xFFFF, tf->eflags, esp);
	printk("eax %08x  ebx %08x  ecx %08x  edx %08x\n", tf->eax, tf->ebx, tf->ecx, tf->edx);
	printk("esi %08x  edi %08x  ebp %08x\n", tf->esi, tf->edi, tf->ebp);
	printk("ds %04x es %04x fs %04x gs %04x  cr0 %08x cr3 %08x cr4 %08x\n", tf->ds & 0xFFFF,
	       tf->es & 0xFFFF, tf->fs & 0xFFFF, tf->gs & 0xFFFF, read_cr0(), read_cr3(), read_cr4());
}

/*
 * A CPU exception. From user mode it is the process's problem: a signal
 * (kernel/signal/deliver.c), after the page-fault code has had its chance (a heap
 * page on demand, a copy-on-write). From the kernel it is a bug, unless it
 * is a user-access instruction that met a bad pointer: then the copy
 * returns -EFAULT (kernel/mm/uaccess.c).
 */
static void handle_exception(struct trapframe *tf)
{
	if (trap_from_user(tf)) {
		signal_user_fault(tf);
		return;
	}
	if (uaccess_fault_fixup(tf))
		return;
	panic_trap(tf, exception_names[tf->trapno]);
}

static void handle_interrupt(struct trapframe *tf)
{
	struct cpu *c = this_cpu();
	trap_handler_t h = handlers[tf->trapno];

	uint64_t start = rdtsc();

	trace_irq_enter(tf->trapno, trap_from_user(tf));
	c->irq_nesting++;
	if (h)
		h(tf);
	else
		printk("trap: unexpected vector %u on CPU %d\n", tf->trapno, c->id);
	c->irq_nesting--;
	/*
	 * Handlers run with interrupts off, so no tick sees them: they are timed
	 * (kernel/time/cputime.c). At most a tick's worth each: a handler that
	 * seems to take longer was a vCPU the host stopped inside it, which is
	 * steal, not interrupt time.
	 */
	c->irq_cycles += MIN(rdtsc() - start, timer_cycles_per_tick());
}

/*
 * The way back, the same for every trap and in this order:
 *  1. a switch, if the tick or a wakeup asked for one and the code we
 *     return to may be preempted (kernel/sched/sched.c);
 *  2. on the way to user mode, signals: a system call's restart, a default
 *     action, a handler's frame (kernel/signal/deliver.c). After the switch, so a
 *     task switched out here finds its signals when it runs again, and the
 *     frame a handler gets is the one the task really returns to.
 */
static void trap_exit(struct trapframe *tf)
{
	/*
	 * Only when a switch was asked for: a null system call should not pay
	 * two calls into the scheduler to learn that none was. Read with
	 * interrupts maybe on, so maybe of a CPU we have just left; that is
	 * harmless: the slow path reads it again properly, and a request missed
	 * here is met at the next tick or return.
	 */
	if (this_cpu()->need_resched)
		sched_preempt_on_trap_exit(tf);
	if (trap_from_user(tf))
		signal_return_to_user(tf);
}

void trap_dispatch(struct trapframe *tf)
{
	bool irq = false;

	if (tf->trapno == T_SYSCALL) {
		/* Entered by sysenter: the sixth argument is still on the user's stack (sysenter.c). */
		if (tf->err != SYSENTER_FRAME || sysenter_fetch_arg6(tf))
			syscall_dispatch(tf);   /* kernel/syscall/dispatch.c: the table, the BKL, the call */
	} else if (tf->trapno < 32 && !handlers[tf->trapno]) {
		handle_exception(tf);
	} else {
		handle_interrupt(tf);
		irq = true;
	}
	trap_exit(tf);
	/* After trap_exit(): a task preempted there records its way back when it runs again. */
	if (irq)
		trace_irq_exit(tf->trapno, trap_from_user(tf));
}
