/*
 * sysenter and the vsyscall page: a second way into the kernel for system
 * calls, beside int $0x80, as Linux 2.6 added it (2.5.53, "linux-gate.so.1").
 *
 * int $0x80 goes through the IDT: the CPU reads the gate, checks privileges,
 * loads the kernel's stack from the TSS and pushes five words, and iret undoes
 * all of it. sysenter skips the table and the checks: it loads fixed values
 * from three model-specific registers (the kernel's code segment, a stack
 * pointer and an entry point) and pushes nothing at all. On the Pentium II
 * where it appeared it took a fraction of int $0x80's cycles.
 *
 * Under QEMU's TCG the difference is of another kind, and it is why smpix
 * has it: the emulator delivers an interrupt or exception, int $0x80
 * included, holding its global lock (the "BQL", the lock that serializes
 * its device models), so two vCPUs that make system calls at once take turns
 * on that lock at every call, and on a busy host the turns cost. sysenter is
 * an ordinary instruction to TCG, emulated without that lock, and so is the
 * iret that returns (docs/performance.md, "System calls without the
 * emulator's lock").
 *
 * Because sysenter saves neither where it came from nor the user's stack
 * pointer, user space cannot just execute it: the kernel provides the code
 * that does, __kernel_vsyscall, on a page mapped into every process at
 * VDSO_BASE (kernel/x86/vdso/linux-gate.S), and tells each program where in
 * its auxiliary vector (AT_SYSINFO; AT_SYSINFO_EHDR for the page's ELF
 * headers, where glibc finds the unwind table its thread cancellation needs).
 * glibc then makes every system call there; a program that uses int $0x80
 * keeps working. The kernel's side (trapentry.S, sysenter_entry) builds the
 * very trapframe int $0x80 would have, so everything after the entry, the
 * signals, fork and the way back by iret, is shared.
 */
#include "kernel/x86/vdso.h"

#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/gdt.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define MSR_SYSENTER_CS  0x174
#define MSR_SYSENTER_ESP 0x175
#define MSR_SYSENTER_EIP 0x176
#define CPUID_SEP        (1u << 11)

extern const char vdso_image[], vdso_image_end[];     /* kernel/x86/vdso_image.S */
extern const char sysenter_entry[];                     /* kernel/x86/trapentry.S */

/* The page table of the address space's last 4 MiB: the vsyscall page is its only entry. */
static pte_t fixmap_pt[1024] __aligned(PAGE_SIZE);
static bool have_sysenter;

/*
 * CPUID says SEP. (The first Pentium Pros said so without having it; Linux
 * checks their model and stepping. QEMU's CPUs and every CPU since have it.)
 */
static bool cpu_has_sep(void)
{
	uint32_t a, b, c, d;

	cpuid(1, &a, &b, &c, &d);
	return d & CPUID_SEP;
}

/*
 * The stack sysenter loads is the top word of this CPU's sysenter_stack,
 * which holds the address of its tss.esp0: the entry's first two
 * instructions follow it to the running task's kernel stack (the scheduler
 * keeps esp0 current for int $0x80 already). The words below are a stack
 * only for a debug trap taken before those two instructions, when a
 * program steps into sysenter with the trap flag set; the trap handler
 * (trapentry.S, debug_entry) deals with it in place and comes straight back.
 */
void sysenter_init_cpu(struct cpu *c)
{
	uint32_t *top = &c->sysenter_stack[ARRAY_SIZE(c->sysenter_stack) - 1];

	if (!cpu_has_sep())
		return;
	*top = (uint32_t)&c->tss.esp0;
	wrmsr(MSR_SYSENTER_CS, KERNEL_CS);
	wrmsr(MSR_SYSENTER_ESP, (uint32_t)top);
	wrmsr(MSR_SYSENTER_EIP, (uint32_t)sysenter_entry);
}

/*
 * One read-only user page in the kernel half, which every process's page
 * directory copies (kernel/mm/mm.c): no process maps it, none can unmap it,
 * and the kernel's own uaccess checks still refuse it (it is above USER_TOP).
 */
void vdso_map(void)
{
	uint32_t size = vdso_image_end - vdso_image;
	const char *why = size > PAGE_SIZE ? "image larger than a page" : !cpu_has_sep() ? "no sysenter on this CPU"
			  : cmdline_get_uint("vdso", 1) == 0 ? "vdso=0" : NULL;

	/*
	 * vdso=0: no page and nothing in the auxiliary vector, for comparing the
	 * two ways in (docs/performance.md). The MSRs stay set: a program that
	 * executes sysenter itself returns to the unmapped page and faults.
	 */
	if (why) {
		printk("vdso: none (%s): programs make their system calls with int $0x80\n", why);
		return;
	}
	fixmap_pt[PTX(VDSO_BASE)] = V2P(vdso_image) | PTE_P | PTE_U;
	kernel_pgdir[PDX(VDSO_BASE)] = V2P(fixmap_pt) | PTE_P | PTE_U;
	have_sysenter = true;
	printk("vdso: linux-gate.so.1 at %08x, __kernel_vsyscall at %08x (sysenter)\n", VDSO_BASE, VDSO_VSYSCALL);
}

bool vdso_available(void)
{
	return have_sysenter;
}

/*
 * A frame built by sysenter_entry lacks the sixth argument: the vsyscall
 * code pushed the caller's %ebp, which holds it, and left the stack pointer
 * in %ebp. Read it back, as int $0x80 would have found it in the register.
 * A stack pointer that does not point at user memory fails the call with
 * -EFAULT, as Linux's sysenter path does.
 */
bool sysenter_fetch_arg6(struct trapframe *tf)
{
	uint32_t arg6;

	if (get_user_u32(&arg6, (const void *)tf->esp) < 0) {
		tf->eax = (uint32_t)-EFAULT;
		return false;
	}
	tf->ebp = arg6;
	return true;
}
