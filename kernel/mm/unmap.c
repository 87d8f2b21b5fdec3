/*
 * Unmapping pages: clear the PTEs, shoot down the TLBs, then free the frames.
 *
 * The order is the point. Until every CPU that may cache the mm's entries
 * has flushed them (kernel/mm/tlb.c), a thread on another CPU can still read
 * and write the old frame; if the frame were back in the allocator by then,
 * that thread would be reading or scribbling on someone else's new page.
 * And one shootdown per call, not per page: a munmap of 1000 pages sends
 * each CPU one IPI.
 *
 * Linux gathers the pages to free in a list (struct mmu_gather). smpix keeps
 * them where they already are: pass 1 replaces each present PTE by its
 * frame's address with PTE_ZAP, not present, so no CPU can load it again;
 * the shootdown; pass 2 frees every PTE_ZAP frame and clears the PTE. No
 * memory is needed, so an unmap works even when memory is gone. Each pass
 * holds page_table_lock for one page table at a time (docs/mm.md section 1).
 * mmap_sem is held for writing throughout (or the mm is the caller's alone,
 * as for exec and the ktests), so no fault sees a PTE_ZAP entry but one
 * taken in atomic context without mmap_sem (kernel/mm/fault.c).
 */
#include "kernel/mm/mm.h"

#include "kernel/mm/frame_refs.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/tlb.h"

/* Pass 1, inside one page table: hide every present page, keeping its frame. True if any was. */
static bool clear_table(struct mm *mm, uintptr_t start, uintptr_t end)
{
	bool any = false;

	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		pte_t *pte = mm_pte_slot(mm, va, false);

		if (!pte)
			break;          /* no page table: nothing present in this 4 MiB */
		if (!(*pte & PTE_P))
			continue;
		*pte = PTE_ADDR(*pte) | PTE_ZAP;
		mm->npages--;
		any = true;
	}
	return any;
}

/* Pass 2, inside one page table, after the shootdown: the frames go (into b, freed in bulk). */
static void free_table(struct mm *mm, uintptr_t start, uintptr_t end, struct frame_batch *b)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		pte_t *pte = mm_pte_slot(mm, va, false);

		if (!pte)
			break;
		if (*pte & PTE_ZAP) {
			frame_put_batched(PTE_ADDR(*pte), b);
			*pte = 0;
		}
	}
}

void mm_unmap_range(struct mm *mm, uintptr_t start, uintptr_t end)
{
	struct frame_batch batch = { .n = 0 };
	bool any = false;

	if (end > USER_TOP)
		end = USER_TOP;
	for (uintptr_t va = start, stop; va < end; va = stop) {
		stop = table_stop(va, end);
		ptl_lock(mm);
		any |= clear_table(mm, va, stop);
		ptl_unlock(mm);
	}
	if (!any)
		return;
	flush_tlb_range(mm, start, end);
	for (uintptr_t va = start, stop; va < end; va = stop) {
		stop = table_stop(va, end);
		ptl_lock(mm);
		free_table(mm, va, stop, &batch);
		ptl_unlock(mm);
	}
	pmm_free_batch_flush(&batch);
}
