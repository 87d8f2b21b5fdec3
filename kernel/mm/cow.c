/*
 * fork() without copying: copy-on-write.
 *
 * mm_fork() copies nothing at first: parent and child share every frame, and
 * writable pages become read-only in both, marked PTE_COW. The first write
 * from either side faults; mm_break_cow() (or the page-fault path, through
 * mm_break_cow_locked) then gives the writer its own copy, or, if it is the
 * last one mapping the frame, simply makes the page writable again. The
 * per-frame mapping counts of kernel/mm/frame_refs.h say which case it is.
 *
 * Locking: the parent's mmap_sem for writing (no mmap or munmap of another
 * thread mid-copy, as Linux's dup_mmap()), its page_table_lock, then the
 * child's (the child is new, so nobody else can take its lock first); one
 * page_table_lock for a break. Both change PTEs other CPUs may have cached:
 * the fork write-protects the parent's pages, so its other threads must not
 * go on writing to frames the child now shares; a break replaces the frame,
 * so they must not go on reading the old one. Both shoot down (tlb.c).
 */
#include "kernel/mm/mm.h"

#include "kernel/lib/string.h"
#include "kernel/mm/frame_refs.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/tlb.h"
#include "kernel/mm/vma.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

#define USER_PDES PDX(USER_TOP)         /* 768: directory entries 0..767 are user space */

/*
 * Share one page table's worth of pages with child; writable ones become
 * copy-on-write in both, except MAP_SHARED pages (PTE_SHARED): those stay
 * writable, one frame for both, which is what makes them shared.
 */
static int fork_table(struct mm *child, pte_t *pt, uintptr_t base)
{
	for (int j = 0; j < 1024; j++) {
		pte_t *slot;

		if (!(pt[j] & PTE_P))
			continue;
		slot = mm_pte_slot(child, base + (uintptr_t)j * PAGE_SIZE, true);
		if (!slot)
			return -ENOMEM;
		if ((pt[j] & PTE_W) && !(pt[j] & PTE_SHARED))
			pt[j] = (pt[j] & ~PTE_W) | PTE_COW;
		*slot = pt[j];
		frame_get(PTE_ADDR(pt[j]));
		child->npages++;
	}
	return 0;
}

struct mm *mm_fork(struct mm *parent)
{
	struct mm *child = mm_create();
	int r = 0;

	if (!child)
		return NULL;
	down_write(&parent->mmap_sem);
	ptl_lock(parent);
	/* Two mms' locks, of one class: the child's second, always (nobody else knows it yet). */
	spin_lock_nested(&child->page_table_lock, 1);
	for (unsigned i = 0; i < USER_PDES && r == 0; i++)
		if (parent->pgdir[i] & PTE_P)
			r = fork_table(child, P2V(PTE_ADDR(parent->pgdir[i])), (uintptr_t)i << 22);
	child->brk_start = parent->brk_start;
	child->brk = parent->brk;
	memcpy(child->vmas, parent->vmas, parent->nvmas * sizeof(parent->vmas[0]));
	child->nvmas = parent->nvmas;
	vma_get_files(child);           /* the child's regions map the same files */
	ptl_unlock(child);
	ptl_unlock(parent);
	/* The parent's writable pages just became read-only: on every CPU its threads run on. */
	flush_tlb_mm(parent);
	up_write(&parent->mmap_sem);
	if (r < 0) {
		mm_destroy(child);      /* the parent keeps COW marks: its next writes just copy */
		return NULL;
	}
	return child;
}

/* Give mm its own copy, or take the frame if no one else maps it. */
enum mm_fault_result mm_break_cow_locked(struct mm *mm, pte_t *pte, uintptr_t va)
{
	physaddr_t old = PTE_ADDR(*pte), new;

	assert_spin_held(&mm->page_table_lock);
	if (frame_count(old) == 1) {
		/* Everyone else has copied or gone: the frame is ours alone. More rights: no shootdown. */
		*pte = (*pte | PTE_W) & ~PTE_COW;
		invlpg(va);     /* this CPU's stale read-only entry, if mm is loaded here */
		return MM_FAULT_DONE;
	}
	new = pmm_alloc_page();
	if (!new)
		return MM_FAULT_OOM;
	memcpy(P2V(new), P2V(old), PAGE_SIZE);
	frame_set_one(new);
	*pte = new | PTE_P | PTE_U | PTE_W;
	/*
	 * Under the lock, before old is let go: no thread of mm may go on reading
	 * the old frame once the writer writes the new one, and old may be freed
	 * as soon as the other sharer drops it too.
	 */
	flush_tlb_page(mm, va);
	frame_put(old);
	return MM_FAULT_DONE;
}

bool mm_break_cow(struct mm *mm, uintptr_t va)
{
	pte_t *pte;
	bool done = false;

	if (va >= USER_TOP)
		return false;
	ptl_lock(mm);
	pte = mm_pte_slot(mm, va, false);
	if (pte && (*pte & (PTE_P | PTE_COW)) == (PTE_P | PTE_COW))
		done = mm_break_cow_locked(mm, pte, va) == MM_FAULT_DONE;
	ptl_unlock(mm);
	return done;
}
