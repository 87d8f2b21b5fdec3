/*
 * The frame bitmap under the per-CPU lists (kernel/mm/pmm.c): one lock, one
 * bit per frame. Only kernel/mm/pmm_percpu.c and the host test call these;
 * the rest of the kernel uses pmm.h.
 */
#ifndef KERNEL_MM_PMM_BITMAP_H
#define KERNEL_MM_PMM_BITMAP_H

#include "kernel/mm/pmm.h"

/* n contiguous free frames, marked used; the first one's address, or 0. */
physaddr_t bitmap_alloc_run(unsigned n);
/* Mark [pa, pa + n pages) free; panics on a double free or a frame it does not own. */
void bitmap_free_run(physaddr_t pa, unsigned n);
/* Up to n single frames, under one acquisition of the lock: how many were written to frames[]. */
unsigned bitmap_take(physaddr_t *frames, unsigned n);
/* Free n single frames under one acquisition of the lock (the same checks as bitmap_free_run). */
void bitmap_give(const physaddr_t *frames, unsigned n);
unsigned bitmap_free_count(void);       /* frames free in the bitmap (not counting the CPUs' lists) */
bool bitmap_is_free(physaddr_t pa);

#endif
