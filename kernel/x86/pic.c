/* Switching off the legacy 8259 interrupt controllers. */
#include "kernel/x86/pic.h"

#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xA0
#define PIC2_DATA 0xA1
#define ICW1_INIT_ICW4 0x11
#define ICW4_8086 0x01

/* Trap handler for the spurious IRQ7/IRQ15 a masked 8259 can still raise: ignore it. */
static void pic_spurious(struct trapframe *tf)
{
}

void pic_disable(void)
{
	/*
	 * Masking alone is not enough: the BIOS leaves them on vectors 8-15, which
	 * are CPU exceptions, and a spurious IRQ7 would look like a double fault.
	 * So first move them to T_IRQ0..T_IRQ0+15, then mask all 16 lines.
	 */
	outb(PIC1_CMD, ICW1_INIT_ICW4);
	io_delay();
	outb(PIC2_CMD, ICW1_INIT_ICW4);
	io_delay();
	outb(PIC1_DATA, T_IRQ0);
	io_delay();
	outb(PIC2_DATA, T_IRQ0 + 8);
	io_delay();
	outb(PIC1_DATA, 1 << 2);        /* the slave hangs off the master's line 2 */
	io_delay();
	outb(PIC2_DATA, 2);
	io_delay();
	outb(PIC1_DATA, ICW4_8086);
	io_delay();
	outb(PIC2_DATA, ICW4_8086);
	io_delay();
	outb(PIC1_DATA, 0xFF);
	outb(PIC2_DATA, 0xFF);
	trap_set_handler(T_IRQ0 + 7, pic_spurious);
	trap_set_handler(T_IRQ0 + 15, pic_spurious);
}
