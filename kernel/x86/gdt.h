/* Segments: every CPU has its own GDT with a TSS and a per-CPU data segment. */
#ifndef KERNEL_X86_GDT_H
#define KERNEL_X86_GDT_H

/* GDT slots. The selector is slot * 8, plus the privilege level for user segments. */
#define SEG_NULL    0
#define SEG_KCODE   1
#define SEG_KDATA   2
#define SEG_UCODE   3
#define SEG_UDATA   4
#define SEG_TSS     5
#define SEG_PERCPU  6
#define SEG_TLS_MIN 7               /* 7, 8, 9: the running task's TLS segments (tls.c) */
#define TLS_ENTRIES 3               /* as many as Linux gives (GDT_ENTRY_TLS_ENTRIES) */
#define GDT_ENTRIES 10

#define KERNEL_CS   (SEG_KCODE << 3)
#define KERNEL_DS   (SEG_KDATA << 3)
#define USER_CS     ((SEG_UCODE << 3) | 3)
#define USER_DS     ((SEG_UDATA << 3) | 3)
#define TSS_SEL     (SEG_TSS << 3)
#define PERCPU_SEL  (SEG_PERCPU << 3)

#ifndef __ASSEMBLER__
#include "kernel/types.h"

/* The 32-bit task state segment; we only use it for the ring-0 stack on entry from user mode. */
struct tss {
	uint32_t link;
	uint32_t esp0;
	uint32_t ss0;
	uint32_t unused[22];
	uint16_t trap;
	uint16_t iomap_base;
} __packed;

struct cpu;
/* Build and load the GDT, TSS and per-CPU segment of CPU c (runs on c itself). */
void gdt_init_cpu(struct cpu *c);
#endif

#endif
