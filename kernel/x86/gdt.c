/* Segments: a flat 4 GiB model, plus a TSS and a per-CPU segment in each CPU's own GDT. */
#include "kernel/x86/gdt.h"

#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/x86/vdso.h"

#define ACC_PRESENT 0x80
#define ACC_DPL3    0x60
#define ACC_CODE_SEG 0x1A   /* code/data descriptor, executable, readable */
#define ACC_DATA_SEG 0x12   /* code/data descriptor, writable */
#define ACC_TSS32    0x09   /* available 32-bit TSS */
#define FLAG_4K_32   0xC    /* 4 KiB granularity, 32-bit */

static uint64_t make_descriptor(uint32_t base, uint32_t limit, uint8_t access, uint8_t flags)
{
	uint64_t d = 0;

	d |= limit & 0xFFFF;
	d |= (uint64_t)(base & 0xFFFFFF) << 16;
	d |= (uint64_t)access << 40;
	d |= (uint64_t)((limit >> 16) & 0xF) << 48;
	d |= (uint64_t)(flags & 0xF) << 52;
	d |= (uint64_t)((base >> 24) & 0xFF) << 56;
	return d;
}

void gdt_init_cpu(struct cpu *c)
{
	struct { uint16_t limit; uint32_t base; } __packed gdtr;

	c->self = c;
	c->gdt[SEG_NULL] = 0;
	c->gdt[SEG_KCODE] = make_descriptor(0, 0xFFFFF, ACC_PRESENT | ACC_CODE_SEG, FLAG_4K_32);
	c->gdt[SEG_KDATA] = make_descriptor(0, 0xFFFFF, ACC_PRESENT | ACC_DATA_SEG, FLAG_4K_32);
	c->gdt[SEG_UCODE] = make_descriptor(0, 0xFFFFF, ACC_PRESENT | ACC_DPL3 | ACC_CODE_SEG, FLAG_4K_32);
	c->gdt[SEG_UDATA] = make_descriptor(0, 0xFFFFF, ACC_PRESENT | ACC_DPL3 | ACC_DATA_SEG, FLAG_4K_32);
	memset(&c->tss, 0, sizeof(c->tss));
	c->tss.ss0 = KERNEL_DS;
	c->tss.iomap_base = sizeof(c->tss);   /* no I/O bitmap: user mode gets no ports */
	c->gdt[SEG_TSS] = make_descriptor((uint32_t)&c->tss, sizeof(c->tss) - 1, ACC_PRESENT | ACC_TSS32, 0);
	c->gdt[SEG_PERCPU] = make_descriptor((uint32_t)c, sizeof(*c) - 1, ACC_PRESENT | ACC_DATA_SEG, 0x4);

	gdtr.limit = sizeof(c->gdt) - 1;
	gdtr.base = (uint32_t)c->gdt;
	__asm__ volatile("lgdt %0" : : "m"(gdtr));
	__asm__ volatile(
		"ljmp %0, $1f\n1:\n"
		"movw %w1, %%ss\n movw %w2, %%ds\n movw %w2, %%es\n"
		"movw %w3, %%gs\n xorl %%eax, %%eax\n movw %%ax, %%fs\n"
		: : "i"(KERNEL_CS), "r"(KERNEL_DS), "r"(USER_DS), "r"(PERCPU_SEL) : "eax", "memory");
	__asm__ volatile("ltr %w0" : : "r"(TSS_SEL));
	sysenter_init_cpu(c);           /* its stack pointer is this TSS's esp0 */
}
