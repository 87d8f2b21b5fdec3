/*
 * The vsyscall page's code: user mode, one page at VDSO_BASE in every
 * process, linked as a small shared object (linux-gate.so.1) whose ELF
 * headers glibc reads (AT_SYSINFO_EHDR) to find this code's unwind table.
 *
 * __kernel_vsyscall is how a program that asks the auxiliary vector
 * (AT_SYSINFO) makes a system call: the same registers as int $0x80, but
 * entered with sysenter, which is quicker on a PC and under QEMU's TCG does
 * not take the emulator's global lock that an int $0x80 does
 * (kernel/x86/sysenter.c says why that matters).
 *
 * sysenter keeps neither the return address nor the stack pointer, so the
 * code leaves the stack pointer in %ebp (its old value saved, the 6th
 * argument the kernel reads back from there) and the kernel returns to
 * VDSO_SYSENTER_RETURN, always here. A system call restarted after a
 * signal (-ERESTART...) goes back 2 bytes, to the jmp that enters again.
 */
#include "kernel/x86/vdso.h"

	.text
	.globl __kernel_vsyscall
	.type __kernel_vsyscall, @function
__kernel_vsyscall:
	.cfi_startproc
	pushl %ecx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %ecx, 0
	pushl %edx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %edx, 0
	pushl %ebp
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %ebp, 0
.Lenter:
	movl %esp, %ebp
	sysenter
	/* Never falls through: the kernel returns below. */
	.org VDSO_RETURN_OFFSET - 2, 0x90
	jmp .Lenter                     /* the restart point: VDSO_SYSENTER_RETURN - 2 */
	.org VDSO_RETURN_OFFSET, 0x90
.Lreturn:
	popl %ebp
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ebp
	popl %edx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %edx
	popl %ecx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ecx
	ret
	.cfi_endproc
	.size __kernel_vsyscall, . - __kernel_vsyscall

	.section .note.GNU-stack, "", @progbits
