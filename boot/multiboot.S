/*
 * Multiboot v1 entry point: where GRUB or `qemu -kernel` hands us the CPU.
 *
 * The loader leaves us in 32-bit protected mode, paging off, interrupts off,
 * EAX = 0x2BADB002 and EBX = physical address of the multiboot info.
 * We are linked high (0xC0100000) but loaded low (0x00100000), so until paging
 * is on every address we touch must be translated with V2P().
 */
#include "kernel/mm/memlayout.h"

#define MB_MAGIC     0x1BADB002
#define MB_PAGE_ALIGN (1 << 0)    /* modules on page boundaries */
#define MB_MEMINFO    (1 << 1)    /* give us the memory map */
#define MB_FLAGS     (MB_PAGE_ALIGN | MB_MEMINFO)

#define CR0_PE 0x00000001
#define CR0_WP 0x00010000
#define CR0_PG 0x80000000
#define CR4_PSE 0x00000010
#define PDE_BIG 0x83              /* present, writable, 4 MiB page */

.section .multiboot, "a"
.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

/*
 * This first part runs before paging, so it is linked at its physical address
 * (section .boot.text, see boot/kernel.ld): the ELF entry point is then a real
 * address inside a segment, which both GRUB and QEMU accept.
 */
.section .boot.text, "ax"
.globl boot_entry
boot_entry:
	cli
	movl %eax, V2P(multiboot_magic)
	movl %ebx, V2P(multiboot_info_phys)

	/* 4 MiB pages let one static page directory map everything we need. */
	movl %cr4, %eax
	orl $CR4_PSE, %eax
	movl %eax, %cr4
	movl $V2P(boot_page_dir), %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $(CR0_PE | CR0_PG | CR0_WP), %eax
	movl %eax, %cr0

	/* Paging is on; we still run at a low address thanks to the identity map. Go high. */
	movl $boot_high, %eax
	jmp *%eax

.text
boot_high:
	movl $boot_stack_top, %esp
	xorl %ebp, %ebp                 /* ends the backtrace chain */
	pushl multiboot_info_phys
	pushl multiboot_magic
	call kmain
2:	cli
	hlt
	jmp 2b

.data
.globl multiboot_magic, multiboot_info_phys
multiboot_magic:     .long 0
multiboot_info_phys: .long 0

/*
 * The boot page directory: physical 0..16 MiB identity-mapped (to survive the
 * instruction that turns paging on, and for APs that start in low memory), and
 * physical 0..768 MiB mapped at KERNEL_BASE. vm_init() replaces it.
 */
.align PAGE_SIZE
.globl boot_page_dir
boot_page_dir:
	.set i, 0
	.rept BOOT_IDENTITY_MAP / BIG_PAGE_SIZE
	.long (i * BIG_PAGE_SIZE) | PDE_BIG
	.set i, i + 1
	.endr
	.fill (KERNEL_BASE / BIG_PAGE_SIZE) - (BOOT_IDENTITY_MAP / BIG_PAGE_SIZE), 4, 0
	.set i, 0
	.rept DIRECT_MAP_MAX / BIG_PAGE_SIZE
	.long (i * BIG_PAGE_SIZE) | PDE_BIG
	.set i, i + 1
	.endr
	.fill 1024 - (KERNEL_BASE / BIG_PAGE_SIZE) - (DIRECT_MAP_MAX / BIG_PAGE_SIZE), 4, 0

.bss
.align 16
.globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	.space 16384
boot_stack_top:
