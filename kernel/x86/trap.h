/* Traps: CPU exceptions, device interrupts, IPIs and the int $0x80 system call gate. */
#ifndef KERNEL_X86_TRAP_H
#define KERNEL_X86_TRAP_H

/* Interrupt vectors. 0..31 are the CPU's exceptions. */
#define T_DIVIDE      0
#define T_DEBUG       1
#define T_NMI         2
#define T_BREAKPOINT  3
#define T_GPFLT       13
#define T_PGFLT       14
#define T_IRQ0        32        /* ISA IRQ n arrives on vector T_IRQ0 + n */
#define T_SYSCALL     0x80      /* Linux i386: int $0x80 */
#define T_LAPIC_TIMER 0xEC
#define T_IPI_RESCHED 0xF0      /* "look at your run queue" */
#define T_IPI_CALL    0xF1      /* "run the function in your call slot" */
#define T_IPI_STOP    0xF2      /* "halt: another CPU panicked" */
#define T_IPI_TLB     0xF3      /* "flush these TLB entries, then say so" (kernel/mm/tlb.c) */
#define T_LAPIC_ERROR 0xFE
#define T_SPURIOUS    0xFF

#ifndef __ASSEMBLER__
#include "kernel/types.h"

/* Registers as trapentry.S saves them; the layout is fixed by the assembly. */
struct trapframe {
	/* pushal */
	uint32_t edi, esi, ebp, oesp, ebx, edx, ecx, eax;
	/* segment registers, pushed by trap_common */
	uint32_t gs, fs, es, ds;
	uint32_t trapno;
	uint32_t err;           /* the CPU's error code, or 0 */
	/* pushed by the CPU */
	uint32_t eip, cs, eflags;
	uint32_t esp, ss;       /* only when the trap came from user mode */
};
/* trapentry.S reads %es and %ds in the frame by these offsets (TF_ES, TF_DS). */
_Static_assert(offsetof(struct trapframe, es) == 40 && offsetof(struct trapframe, ds) == 44,
	       "trapentry.S's TF_ES and TF_DS");

typedef void (*trap_handler_t)(struct trapframe *tf);

void idt_init(void);            /* build the IDT (once) */
void idt_load(void);            /* load it on this CPU */
/* Route an interrupt vector to a handler (device IRQs, IPIs). */
void trap_set_handler(int vector, trap_handler_t handler);
void trap_dispatch(struct trapframe *tf);
void trap_print_frame(const struct trapframe *tf);
const char *trap_name(int trapno);

static inline bool trap_from_user(const struct trapframe *tf)
{
	return (tf->cs & 3) == 3;
}

#endif

#endif
