/*
 * The AP trampoline: where an application processor starts after a SIPI.
 *
 * It is assembled into the kernel (.rodata) and copied to TRAMP_PA (below
 * 1 MiB) by kernel/x86/smp.c. A Startup IPI with vector TRAMP_PA >> 12 starts the
 * CPU in real mode at CS:IP = (TRAMP_PA >> 4):0000. Every address here is
 * therefore written relative to trampoline_start (REL), and the parameters
 * the BSP fills in live at the end, in struct trampoline_params (smp.c).
 *
 * Two modes:
 *  - probe: register this CPU's APIC id in ids[] (atomically taking the next
 *    slot) and halt. Used with a broadcast SIPI to find CPUs the MP table
 *    does not list.
 *  - start: protected mode, the boot page directory (identity + high map,
 *    4 MiB pages), the stack the BSP gave, then call entry(arg) high up.
 */
#include "kernel/mm/memlayout.h"

#define TRAMP_PA 0x8000
#define REL(x) ((x) - trampoline_start)
#define ABS(x) (TRAMP_PA + REL(x))
#define MODE_PROBE 0
#define PROBE_SLOTS 16          /* MAX_CPUS */
#define CR0_PE 0x00000001
#define CR0_WP 0x00010000
#define CR0_PG 0x80000000
#define CR4_PSE 0x00000010

.section .rodata.trampoline, "a"
.p2align 4
.globl trampoline_start
trampoline_start:
.code16
	cli
	cld
	movw %cs, %ax                   /* CS = TRAMP_PA >> 4: data at REL offsets */
	movw %ax, %ds
	cmpl $MODE_PROBE, REL(tramp_mode)
	jne start_mode

	/* Probe: CPUID leaf 1 gives the initial APIC id in EBX[31:24]. */
	movl $1, %eax
	cpuid
	shrl $24, %ebx
	movl $1, %eax
	lock xaddl %eax, REL(tramp_count)
	cmpl $PROBE_SLOTS, %eax
	jae park
	addr32 movb %bl, REL(tramp_ids)(%eax)
park:
	cli
	hlt
	jmp park

start_mode:
	lgdtl REL(tramp_gdtdesc)
	movl %cr0, %eax
	orl $CR0_PE, %eax
	movl %eax, %cr0
	ljmpl $8, $ABS(start32)

.code32
start32:
	movw $16, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	/* The same steps as boot_entry: 4 MiB pages, boot_page_dir, paging and WP on. */
	movl %cr4, %eax
	orl $CR4_PSE, %eax
	movl %eax, %cr4
	movl $V2P(boot_page_dir), %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $(CR0_PG | CR0_WP), %eax
	movl %eax, %cr0
	/* Still running low (identity map); the stack and entry are high addresses. */
	movl ABS(tramp_stack), %esp
	xorl %ebp, %ebp                 /* ends the AP's backtraces */
	pushl ABS(tramp_arg)
	pushl $0                        /* a null return address: backtraces stop here */
	movl ABS(tramp_entry), %eax
	jmp *%eax                       /* entry never returns */

.p2align 3
tramp_gdt:
	.quad 0
	.quad 0x00CF9A000000FFFF        /* flat 4 GiB code, ring 0 */
	.quad 0x00CF92000000FFFF        /* flat 4 GiB data, ring 0 */
tramp_gdtdesc:
	.word 3 * 8 - 1
	.long ABS(tramp_gdt)

/* struct trampoline_params: keep in step with kernel/x86/smp.c. */
.p2align 2
.globl trampoline_params
trampoline_params:
tramp_mode:  .long 0
tramp_count: .long 0
tramp_stack: .long 0
tramp_entry: .long 0
tramp_arg:   .long 0
tramp_ids:   .space PROBE_SLOTS
.globl trampoline_end
trampoline_end:
