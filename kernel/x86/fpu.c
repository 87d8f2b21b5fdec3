/*
 * The x87 FPU. The kernel never uses it (it is built with
 * -mgeneral-regs-only), so its registers always belong to the user process
 * running on the CPU. Without saving them on a switch, one process could read
 * another's values and inherit its rounding mode. We save and restore eagerly
 * on every switch with fnsave/frstor: simple, and cheap next to a switch.
 */
#include "kernel/x86/fpu.h"

#include "kernel/lib/string.h"
#include "kernel/x86/x86.h"

#define CR0_MP 0x00000002       /* wait/fwait honour TS */
#define CR0_EM 0x00000004       /* no FPU: emulate (we have one) */
#define CR0_TS 0x00000008       /* task switched: trap on first use */
#define CR0_NE 0x00000020       /* report FPU errors as #MF, not through the PIC */

static struct fpu_state clean_state;

void fpu_init_cpu(void)
{
	write_cr0((read_cr0() | CR0_MP | CR0_NE) & ~(CR0_EM | CR0_TS));
	__asm__ volatile("fninit");
	/* fnsave stores, then re-initialises: clean_state is the fninit image. */
	__asm__ volatile("fnsave %0" : "=m"(clean_state));
}

void fpu_init_state(struct fpu_state *st)
{
	memcpy(st, &clean_state, sizeof(*st));
}

void fpu_copy_live(struct fpu_state *st)
{
	uint32_t flags = irq_save();

	__asm__ volatile("fnsave %0; frstor %0" : "+m"(*st));
	irq_restore(flags);
}

void fpu_switch(struct fpu_state *save_to, const struct fpu_state *load_from)
{
	__asm__ volatile("fnsave %0" : "=m"(*save_to));
	__asm__ volatile("frstor %0" : : "m"(*load_from));
}

void fpu_reset_live(void)
{
	__asm__ volatile("fninit");
}
