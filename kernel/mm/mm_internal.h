/* The page-table helpers kernel/mm/mm.c shares with kernel/mm/cow.c, and nobody else. */
#ifndef KERNEL_MM_MM_INTERNAL_H
#define KERNEL_MM_MM_INTERNAL_H

#include "kernel/mm/mm.h"

/* A fresh frame, zeroed; 0 when out of memory. */
physaddr_t mm_zeroed_frame(void);
/* The PTE slot for va, allocating its page table if create; NULL if absent or out of memory. */
pte_t *mm_pte_slot(struct mm *mm, uintptr_t va, bool create);
/* Invalidate va on this CPU if mm is the loaded address space (others reload CR3 on switch). */
void mm_flush_if_loaded(struct mm *mm, uintptr_t va);
/* A write to the COW page *pte (va), mm->lock held: the writer's own copy (kernel/mm/cow.c). */
enum mm_fault_result mm_break_cow_locked(struct mm *mm, pte_t *pte, uintptr_t va);

#endif
