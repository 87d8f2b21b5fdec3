/* The interrupt descriptor table: one gate per vector, all pointing at trapentry.S stubs. */
#include "kernel/x86/gdt.h"
#include "kernel/x86/trap.h"

#define GATE_INTR 0x8E          /* present, ring 0, 32-bit interrupt gate (clears IF) */
#define GATE_TRAP_USER 0xEF     /* present, ring 3 may call it, 32-bit trap gate (keeps IF) */
#define STUB_SIZE 16

struct gate {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t zero;
	uint8_t type;
	uint16_t off_hi;
} __packed;

extern char trap_stubs[], debug_entry[];
static struct gate idt[256];

static void set_gate_to(int v, uint32_t addr, uint8_t type)
{
	idt[v].off_lo = addr & 0xFFFF;
	idt[v].sel = KERNEL_CS;
	idt[v].zero = 0;
	idt[v].type = type;
	idt[v].off_hi = addr >> 16;
}

static void set_gate(int v, uint8_t type)
{
	set_gate_to(v, (uint32_t)trap_stubs + v * STUB_SIZE, type);
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, GATE_INTR);
	/* User mode may execute int $0x80 (and int3 for debuggers); nothing else. */
	set_gate(T_SYSCALL, GATE_TRAP_USER);
	set_gate(T_BREAKPOINT, GATE_TRAP_USER);
	/* The debug trap looks first for a step into sysenter's entry (trapentry.S, debug_entry). */
	set_gate_to(T_DEBUG, (uint32_t)debug_entry, GATE_INTR);
}

void idt_load(void)
{
	struct { uint16_t limit; uint32_t base; } __packed idtr = { sizeof(idt) - 1, (uint32_t)idt };

	__asm__ volatile("lidt %0" : : "m"(idtr));
}
