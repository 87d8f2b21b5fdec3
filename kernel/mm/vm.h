/* Virtual memory: the kernel's page directory, the direct map and ioremap. */
#ifndef KERNEL_MM_VM_H
#define KERNEL_MM_VM_H

#include "kernel/types.h"

typedef uint32_t pde_t;
typedef uint32_t pte_t;

#define PTE_P    0x001      /* present */
#define PTE_W    0x002      /* writable */
#define PTE_U    0x004      /* user may access */
#define PTE_PWT  0x008      /* write-through */
#define PTE_PCD  0x010      /* cache disabled: for device registers */
#define PTE_A    0x020
#define PTE_D    0x040
#define PTE_PS   0x080      /* in a PDE: a 4 MiB page */
#define PTE_G    0x100      /* global: survives CR3 reloads (kernel mappings) */
#define PTE_ADDR(e) ((e) & ~0xFFFu)

#define PDX(va) (((uint32_t)(va) >> 22) & 0x3FF)
#define PTX(va) (((uint32_t)(va) >> 12) & 0x3FF)

extern pde_t kernel_pgdir[1024];
extern physaddr_t direct_map_end;       /* physical memory [0, direct_map_end) is at KERNEL_BASE */

/* Build the kernel page directory from the memory map and switch to it. */
void vm_init(void);
/* Load the kernel page directory and paging features on an AP. */
void vm_init_ap(void);
/* Map a physical range (device registers, firmware tables) into kernel space. Boot time only. */
void *ioremap(physaddr_t pa, size_t size, bool uncached);
/* After the first user address space exists, the kernel half must not change any more. */
void vm_freeze_kernel_half(void);

#endif
