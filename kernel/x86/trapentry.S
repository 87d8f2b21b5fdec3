/*
 * Interrupt and exception entry. Every vector has a 16-byte stub that pushes
 * an error code (0 when the CPU does not push one) and the vector number,
 * then jumps to trap_common, which saves the rest and calls trap_dispatch().
 */
#include "kernel/x86/gdt.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/vdso.h"

/* Offsets in struct trapframe (kernel/x86/trap.h): pushal's eight words, then gs, fs, es, ds. */
#define TF_ES 40
#define TF_DS 44

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
	/*
	 * The kernel runs with USER_DS in %ds and %es, as Linux does: it is the
	 * same flat 4 GB segment as KERNEL_DS, and ring 0 may use a DPL 3 data
	 * segment. So a trap from user mode, where they hold USER_DS already,
	 * loads neither, and trap_return pops neither back. A segment load is
	 * not a register move: the CPU fetches the descriptor from the GDT and
	 * checks it, so a load that changes nothing is worth a compare to skip
	 * (what it saves a system call: docs/performance.md).
	 * %gs is always loaded (user mode keeps its TLS there, the kernel its
	 * struct cpu); %fs the kernel never touches.
	 */
	movl $USER_DS, %eax
	movw %ds, %dx
	cmpw %ax, %dx
	je 1f
	movw %ax, %ds
1:	movw %es, %dx
	cmpw %ax, %dx
	je 2f
	movw %ax, %es
2:	movw $PERCPU_SEL, %ax
	movw %ax, %gs
	pushl %esp                      /* argument: the struct trapframe */
	.cfi_adjust_cfa_offset 4
	call trap_dispatch
1:	addl $4, %esp
	.cfi_adjust_cfa_offset -4
	.cfi_endproc
	/* Falls through into trap_return: the .rodata word below is in another section, not in between. */

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
	/*
	 * %ds and %es from the frame only when they differ from what the kernel
	 * runs with: USER_DS's descriptor never changes, so an equal selector is
	 * the same segment. (Not so %gs and %fs: a context switch or
	 * set_thread_area() may have rewritten the TLS descriptor behind an
	 * unchanged selector, and only a load picks up the new base.)
	 */
	movl TF_DS(%esp), %eax
	movw %ds, %dx
	cmpw %ax, %dx
	je 1f
	movw %ax, %ds
1:	movl TF_ES(%esp), %eax
	movw %es, %dx
	cmpw %ax, %dx
	je 2f
	movw %ax, %es
2:	popal
	popl %gs
	popl %fs
	addl $16, %esp                  /* es and ds (loaded above), trapno and error code */
	iret

/*
 * sysenter's way in (kernel/x86/sysenter.c). The CPU has loaded the kernel's
 * code segment, this entry, and as stack pointer the address of this CPU's
 * tss.esp0, with interrupts off; it has saved nothing. Build the frame
 * int $0x80 would have built on the task's kernel stack: the user's stack
 * pointer is in %ebp (__kernel_vsyscall put it there), the return address is
 * always the vsyscall page's, and eflags are the user's but for IF, which
 * sysenter cleared and the user had set. The error-code word says who built
 * the frame (SYSENTER_FRAME), so that trap_dispatch() reads the sixth argument
 * from the user's stack. Then interrupts on, as int $0x80's trap gate leaves
 * them, and the common path: the way back is trap_return's iret.
 */
.globl sysenter_entry
sysenter_entry:
	movl (%esp), %esp               /* tss.esp0: the running task's kernel stack */
	pushl $USER_DS                  /* ss */
	pushl %ebp                      /* esp */
	pushfl                          /* eflags, */
	orl $0x200, (%esp)              /* ... with IF */
	pushl $USER_CS                  /* cs */
	pushl $VDSO_SYSENTER_RETURN     /* eip */
	pushl $SYSENTER_FRAME           /* err */
	pushl $T_SYSCALL                /* trapno */
	sti
	jmp trap_common
