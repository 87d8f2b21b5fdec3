/*
 * How many user PTEs map each frame of the direct map: the count that says
 * when a frame shared copy-on-write after fork() is free again (kernel/mm/cow.c).
 * Changed only with atomic operations: two address spaces sharing a frame hold
 * different page_table_locks. Used by kernel/mm/mm.c and kernel/mm/cow.c.
 */
#ifndef KERNEL_MM_FRAME_REFS_H
#define KERNEL_MM_FRAME_REFS_H

#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/types.h"

/* By frame number; allocated by mm_create() before the first address space (kernel/mm/mm.c). */
extern uint16_t *frame_refs;

/* A frame just allocated for one mapping. */
static inline void frame_set_one(physaddr_t pa)
{
	__atomic_store_n(&frame_refs[pa >> PAGE_SHIFT], 1, __ATOMIC_SEQ_CST);
}

static inline void frame_get(physaddr_t pa)
{
	__atomic_add_fetch(&frame_refs[pa >> PAGE_SHIFT], 1, __ATOMIC_SEQ_CST);
}

/* Drop one mapping of pa; the last one frees the frame. */
static inline void frame_put(physaddr_t pa)
{
	if (__atomic_sub_fetch(&frame_refs[pa >> PAGE_SHIFT], 1, __ATOMIC_SEQ_CST) == 0)
		pmm_free_page(pa);
}

/* frame_put() for a teardown: a last mapping's frame goes into b, freed with others (pmm.h). */
static inline void frame_put_batched(physaddr_t pa, struct frame_batch *b)
{
	if (__atomic_sub_fetch(&frame_refs[pa >> PAGE_SHIFT], 1, __ATOMIC_SEQ_CST) == 0)
		pmm_free_batch_add(b, pa);
}

static inline unsigned frame_count(physaddr_t pa)
{
	return __atomic_load_n(&frame_refs[pa >> PAGE_SHIFT], __ATOMIC_SEQ_CST);
}

#endif
