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
 * code segment, this entry, and as stack pointer the top word of this CPU's
 * sysenter_stack, with interrupts off; it has saved nothing. Follow that
 * word to tss.esp0 and so to the task's kernel stack, and build there the
 * frame int $0x80 would have built: the user's stack pointer is in %ebp
 * (__kernel_vsyscall put it there), the return address is always the
 * vsyscall page's, and eflags are the user's but for IF, which sysenter
 * cleared and the user had set. Then the kernel's own flags, as a gate
 * would leave them: sysenter keeps NT, AC and the like as the user had
 * them, and an iret with NT set would try a task switch. The error-code
 * word says who built the frame (SYSENTER_FRAME), so that trap_dispatch()
 * reads the sixth argument from the user's stack. Then interrupts on, as
 * int $0x80's trap gate leaves them, and the common path: the way back is
 * trap_return's iret.
 */
.globl sysenter_entry
sysenter_entry:
	movl (%esp), %esp               /* &tss.esp0 */
	movl (%esp), %esp               /* tss.esp0: the running task's kernel stack */
	pushl $USER_DS                  /* ss */
	pushl %ebp                      /* esp */
	pushfl                          /* eflags, */
	orl $0x200, (%esp)              /* ... with IF */
sysenter_flags_saved:
	pushl $2                        /* the kernel's flags: only the always-one bit */
	popfl
	pushl $USER_CS                  /* cs */
	pushl $VDSO_SYSENTER_RETURN     /* eip */
	pushl $SYSENTER_FRAME           /* err */
	pushl $T_SYSCALL                /* trapno */
	sti
	jmp trap_common

/*
 * The same, for a program that stepped into sysenter with the trap flag
 * set: the debug trap came on sysenter_entry's first instruction and turned
 * the flag off (debug_entry). The user's saved eflags get it back, so the
 * step goes on in user mode after the call, as it does after int $0x80.
 */
sysenter_entry_stepped:
	movl (%esp), %esp
	movl (%esp), %esp
	pushl $USER_DS
	pushl %ebp
	pushfl
	orl $0x300, (%esp)              /* IF, and TF */
	jmp sysenter_flags_saved

/*
 * The debug trap (vector 1). sysenter leaves the trap flag as the user had
 * it, so a program that sets it and makes a call by sysenter has the step
 * trap taken in the kernel, on sysenter_entry, still on sysenter_stack: a
 * few words, not a stack for trap_common. Linux meets it the same way
 * (entry_32.S, "debug traps ... at the one SYSENTER instruction"). Here:
 * go on at sysenter_entry_stepped with the flag off, at once. Every other
 * debug trap takes vector 1's stub.
 */
.globl debug_entry
debug_entry:
	cmpl $sysenter_entry, (%esp)    /* the eip the trap pushed */
	jne 1f
	movl $sysenter_entry_stepped, (%esp)
	andl $~0x100, 8(%esp)           /* its eflags: no more steps in the kernel */
	iret
1:	jmp trap_stubs + 16 * T_DEBUG
