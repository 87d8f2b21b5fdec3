/* The physical page-frame allocator: a bitmap over the memory the kernel can map. */
#ifndef KERNEL_MM_PMM_H
#define KERNEL_MM_PMM_H

#include "kernel/types.h"

/* Start with every frame marked used; then add the usable ranges and reserve what is taken. */
void pmm_reset(void);
/* Usable RAM [start, end). Frames beyond the direct map are only counted (highmem). */
void pmm_add_usable(uint64_t start, uint64_t end);
/* Mark [start, end) as in use (kernel image, modules, firmware areas). */
void pmm_reserve(uint64_t start, uint64_t end);

/* n physically contiguous frames; returns the first frame's address, or 0 when none are free. */
physaddr_t pmm_alloc_pages(unsigned n);
static inline physaddr_t pmm_alloc_page(void) { return pmm_alloc_pages(1); }
/* Give frames back; panics on a double free or a frame the allocator never owned. */
void pmm_free_pages(physaddr_t pa, unsigned n);
static inline void pmm_free_page(physaddr_t pa) { pmm_free_pages(pa, 1); }

unsigned pmm_free_count(void);          /* frames free now */
unsigned pmm_usable_count(void);        /* frames the allocator manages (usable RAM minus reserved) */
uint64_t pmm_highmem_bytes(void);       /* usable RAM above the direct map, left alone */
bool pmm_is_free(physaddr_t pa);

#endif
