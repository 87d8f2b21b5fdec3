/* The kernel's virtual memory layout: one page of constants shared by C and assembly. */
#ifndef KERNEL_MM_MEMLAYOUT_H
#define KERNEL_MM_MEMLAYOUT_H

/*
 * Virtual address space (see docs/boot.md for the picture):
 *
 *   0x00000000 .. 0xBFFFFFFF  user space (one page directory per process)
 *   0xC0000000 .. 0xEFFFFFFF  direct map of physical 0 .. 768 MiB ("lowmem")
 *   0xF0000000 .. 0xFFBFFFFF  ioremap window: ACPI tables, LAPIC, IOAPIC
 *
 * The kernel is linked at KERNEL_BASE + 1 MiB and loaded at physical 1 MiB.
 */
#define KERNEL_BASE      0xC0000000
#define KERNEL_PHYS_LOAD 0x00100000
#define DIRECT_MAP_MAX   0x30000000          /* 768 MiB of physical memory is mapped */
#define IOREMAP_BASE     0xF0000000
#define IOREMAP_END      0xFFC00000
#define USER_TOP         0xC0000000

#define PAGE_SIZE        4096
#define PAGE_SHIFT       12
#define BIG_PAGE_SIZE    0x400000            /* a 4 MiB PSE page */

/* Identity-mapped at boot so the switch to paging (and AP bring-up) can run at low addresses. */
#define BOOT_IDENTITY_MAP 0x01000000         /* 16 MiB */

#ifndef __ASSEMBLER__
#include <stdint.h>
#define P2V(pa) ((void *)((uintptr_t)(pa) + KERNEL_BASE))
#define V2P(va) ((uintptr_t)(va) - KERNEL_BASE)
#else
#define V2P(va) ((va) - KERNEL_BASE)
#endif

#endif
