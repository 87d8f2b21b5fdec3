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

trap_common:
	cld                             /* C code assumes the direction flag clear; user mode may set it */
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushal
	movw $KERNEL_DS, %ax
	movw %ax, %ds
	movw %ax, %es
	movw $PERCPU_SEL, %ax
	movw %ax, %gs
	pushl %esp                      /* argument: the struct trapframe */
	call trap_dispatch
	addl $4, %esp

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
