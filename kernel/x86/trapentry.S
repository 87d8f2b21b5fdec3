/*
 * Interrupt and exception entry. Every vector has a 16-byte stub that pushes
 * an error code (0 when the CPU does not push one) and the vector number,
 * then jumps to trap_common, which saves the rest and calls trap_dispatch().
 */
#include "kernel/x86/gdt.h"

.text
.align 16
.globl trap_stubs
trap_stubs:
	.set i, 0
	.rept 256
	.align 16
	/* Vectors 8, 10-14, 17, 21, 29 and 30 come with an error code from the CPU. */
	.if !(i == 8 || (i >= 10 && i <= 14) || i == 17 || i == 21 || i == 29 || i == 30)
	pushl $0
	.endif
	pushl $i
	jmp trap_common
	.set i, i + 1
	.endr

/*
 * The .cfi lines change no instruction: they tell a debugger where this code
 * keeps the interrupted registers (in the struct trapframe it builds), so gdb's
 * `bt` in a handler goes on into the code that was interrupted, or faulted.
 * The CFA is the stack pointer of that code, for a trap from kernel mode (no
 * stack switch): just above the eflags the CPU pushed. .cfi_signal_frame: the
 * saved eip is the interrupted instruction itself, not a return address.
 * (DWARF register numbers: 8 = eip, 9 = eflags.)
 */
	.cfi_sections .debug_frame
trap_common:
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_def_cfa %esp, 20           /* trapno, err, eip, cs, eflags */
	.cfi_offset 8, -12
	.cfi_offset 9, -4
	cld                             /* C code assumes the direction flag clear; user mode may set it */
	pushl %ds
	.cfi_adjust_cfa_offset 4
	pushl %es
	.cfi_adjust_cfa_offset 4
	pushl %fs
	.cfi_adjust_cfa_offset 4
	pushl %gs
	.cfi_adjust_cfa_offset 4
	pushal
	.cfi_adjust_cfa_offset 32
	.cfi_rel_offset %edi, 0
	.cfi_rel_offset %esi, 4
	.cfi_rel_offset %ebp, 8
	.cfi_rel_offset %ebx, 16
	.cfi_rel_offset %edx, 20
	.cfi_rel_offset %ecx, 24
	.cfi_rel_offset %eax, 28
	movw $KERNEL_DS, %ax
	movw %ax, %ds
	movw %ax, %es
	movw $PERCPU_SEL, %ax
	movw %ax, %gs
	pushl %esp                      /* argument: the struct trapframe */
	.cfi_adjust_cfa_offset 4
	call trap_dispatch
1:	addl $4, %esp
	.cfi_adjust_cfa_offset -4
	.cfi_endproc

/*
 * The return address of that call, for the backtrace walker (kernel/panic.c):
 * a frame that returns there is trap_dispatch()'s, and the word above its
 * return address is the struct trapframe. A word of data, not a label in the
 * code, so that no new symbol splits trap_common in backtraces.
 */
.section .rodata
.align 4
.globl trap_dispatch_return
trap_dispatch_return:
	.long 1b
.text

/* Also where a new task starts its life: its stack holds a trapframe to "return" through. */
.globl trap_return
trap_return:
	popal
	popl %gs
	popl %fs
	popl %es
	popl %ds
	addl $8, %esp                   /* trapno and error code */
	iret
