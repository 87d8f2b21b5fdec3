/* The page-table helpers kernel/mm/mm.c shares with cow.c, unmap.c and madvise.c, and nobody else. */
#ifndef KERNEL_MM_MM_INTERNAL_H
#define KERNEL_MM_MM_INTERNAL_H

#include "kernel/mm/mm.h"
#include "kernel/x86/x86.h"

/*
 * A third bit the CPU ignores (after PTE_COW, PTE_SHARED), in a PTE that is
 * NOT present: the frame of a page mm_unmap_range() has cleared but not yet
 * freed, because other CPUs may still reach it through their TLBs until the
 * shootdown (kernel/mm/unmap.c). Seen only under mmap_sem held for writing.
 */
#define PTE_ZAP 0x800

/*
 * Take mm's page_table_lock. With interrupts off (a page fault taken in
 * atomic context) it waits by polling, answering TLB shootdowns meanwhile:
 * the holder may be waiting for this very CPU's acknowledgment (tlb.c).
 */
#define ptl_lock(mm)                                                    \
	do {                                                            \
		if (irqs_enabled())                                     \
			spin_lock(&(mm)->page_table_lock);              \
		else                                                    \
			ptl_lock_polling(mm);                           \
	} while (0)
#define ptl_unlock(mm) spin_unlock(&(mm)->page_table_lock)
void ptl_lock_polling(struct mm *mm);

/* The end of the 4 MiB page table holding start, or end if that comes first. */
static inline uintptr_t table_stop(uintptr_t start, uintptr_t end)
{
	uintptr_t table_end = ALIGN_DOWN(start, BIG_PAGE_SIZE) + BIG_PAGE_SIZE;

	return table_end > start && table_end < end ? table_end : end;
}

/* The frame reference counts exist (allocated at the first call); false when out of memory. */
bool mm_frame_refs_init(void);
/* A fresh frame, zeroed; 0 when out of memory. */
physaddr_t mm_zeroed_frame(void);
/* The PTE slot for va, allocating its page table if create; NULL if absent or out of memory. */
pte_t *mm_pte_slot(struct mm *mm, uintptr_t va, bool create);
/* A write to the COW page *pte (va), page_table_lock held: the writer's own copy (kernel/mm/cow.c). */
enum mm_fault_result mm_break_cow_locked(struct mm *mm, pte_t *pte, uintptr_t va);

#endif
