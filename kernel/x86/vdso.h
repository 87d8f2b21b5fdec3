/*
 * The vsyscall page (Linux's "linux-gate.so.1"): where it sits in every
 * address space and where its code's landmarks are. Shared by the kernel's
 * C and assembly and by the page's own code (kernel/x86/vdso/), which
 * places its instructions at these offsets with .org, so that a change
 * there that moved one fails to assemble rather than returning to the
 * wrong byte.
 */
#ifndef KERNEL_X86_VDSO_H
#define KERNEL_X86_VDSO_H

/* The last page but one of the address space, as in Linux 2.6 (FIX_VSYSCALL). */
#define VDSO_BASE               0xFFFFE000
/* The code starts after the ELF headers and tables, at a fixed offset. */
#define VDSO_TEXT_OFFSET        0x400
#define VDSO_VSYSCALL           (VDSO_BASE + VDSO_TEXT_OFFSET)  /* __kernel_vsyscall: AT_SYSINFO */
/* Within __kernel_vsyscall: where sysenter's system calls return, and (2 bytes before) restart. */
#define VDSO_RETURN_OFFSET      16
#define VDSO_SYSENTER_RETURN    (VDSO_VSYSCALL + VDSO_RETURN_OFFSET)

/* The "error code" word of a trapframe built by the sysenter entry (kernel/x86/trapentry.S). */
#define SYSENTER_FRAME          1

#ifndef __ASSEMBLER__
#include "kernel/types.h"

struct cpu;
/* Point this CPU's sysenter MSRs at the kernel (on each CPU, after its GDT and TSS). */
void sysenter_init_cpu(struct cpu *c);
/* Map the vsyscall page into the kernel half of every address space (once, before the freeze). */
void vdso_map(void);
/* Does this machine have sysenter, and so a vsyscall page to tell programs of (AT_SYSINFO)? */
bool vdso_available(void);
struct trapframe;
/* A sysenter frame: fetch its 6th argument from the user stack; false (-EFAULT set) if unreadable. */
bool sysenter_fetch_arg6(struct trapframe *tf);
#endif

#endif
