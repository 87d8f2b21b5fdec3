/* The physical page-frame allocator: a bitmap over the memory the kernel can map, with a list of free frames per CPU in front. */
#ifndef KERNEL_MM_PMM_H
#define KERNEL_MM_PMM_H

#include "kernel/types.h"

/* Start with every frame marked used; then add the usable ranges and reserve what is taken. */
void pmm_reset(void);
/* Usable RAM [start, end). Frames beyond the direct map are only counted (highmem). */
void pmm_add_usable(uint64_t start, uint64_t end);
/* Mark [start, end) as in use (kernel image, modules, firmware areas). */
void pmm_reserve(uint64_t start, uint64_t end);

/*
 * Single frames come from this CPU's list first (kernel/mm/pmm_percpu.c), and
 * go back to it: pmm_lock is taken once per PCP_BATCH frames, not per frame.
 */
physaddr_t pmm_alloc_page(void);
void pmm_free_page(physaddr_t pa);
/* n physically contiguous frames; returns the first frame's address, or 0 when none are free. */
physaddr_t pmm_alloc_pages(unsigned n);
/* Give frames back; panics on a double free or a frame the allocator never owned. */
void pmm_free_pages(physaddr_t pa, unsigned n);

/*
 * Frames freed in bulk: an address space torn down gives back thousands at
 * once (Linux frees a pagevec, or an mmu_gather, the same way). Add frames,
 * then flush what is left; each full batch goes back to the frame bitmap
 * under one acquisition of pmm_lock, not through a CPU's list.
 */
#define FRAME_BATCH_MAX 32
struct frame_batch {
	unsigned n;
	physaddr_t frames[FRAME_BATCH_MAX];
};
void pmm_free_batch_add(struct frame_batch *b, physaddr_t pa);
void pmm_free_batch_flush(struct frame_batch *b);

unsigned pmm_free_count(void);          /* frames free now, in the bitmap and in the CPUs' lists */
unsigned pmm_usable_count(void);        /* frames the allocator manages (usable RAM minus reserved) */
uint64_t pmm_highmem_bytes(void);       /* usable RAM above the direct map, left alone */
bool pmm_is_free(physaddr_t pa);

#endif
