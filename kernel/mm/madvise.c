/*
 * madvise(): advice about how a range of memory will be used. smpix acts on
 * one piece of it: MADV_DONTNEED (and MADV_FREE, which Linux may treat the
 * same) drops the pages, so the next touch finds a zeroed one. glibc calls it
 * on the stack of a thread that has exited, to give the memory back while
 * keeping the mapping for the next thread; the pages go after one TLB
 * shootdown (kernel/mm/unmap.c), as for munmap. The other advice Linux
 * knows is accepted and changes nothing; advice it does not know is EINVAL.
 * Checks in Linux's order (do_madvise(), mm/madvise.c).
 */
#include "kernel/mm/mm.h"

#include "kernel/mm/mm_internal.h"
#include "kernel/mm/vma.h"
#include "kernel/sched/task.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/mman.h"

/* Is the advice one Linux 6.1 accepts (madvise_behavior_valid(), with KSM and THP)? */
static bool advice_valid(int advice)
{
	switch (advice) {
	case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
	case MADV_DONTNEED: case MADV_FREE: case MADV_REMOVE: case MADV_DONTFORK:
	case MADV_DOFORK: case MADV_MERGEABLE: case MADV_UNMERGEABLE: case MADV_HUGEPAGE:
	case MADV_NOHUGEPAGE: case MADV_DONTDUMP: case MADV_DODUMP: case MADV_WIPEONFORK:
	case MADV_KEEPONFORK: case MADV_COLD: case MADV_PAGEOUT: case MADV_POPULATE_READ:
	case MADV_POPULATE_WRITE:
		return true;
	default:
		return false;
	}
}

/* Is every page of [start, end) in a region or in the heap? Needs page_table_lock. */
static bool range_mapped(struct mm *mm, uintptr_t start, uintptr_t end)
{
	uintptr_t hs = mm->brk_start, he = ALIGN_UP(mm->brk, PAGE_SIZE);

	if (hs < he && start < he && hs < end)
		return (start >= hs || vma_range_covered(mm, start, hs)) &&
		       (end <= he || vma_range_covered(mm, he, end));
	return vma_range_covered(mm, start, end);
}

long sys_madvise(uintptr_t start, size_t len, int advice)
{
	struct mm *mm = current->mm;
	uintptr_t end;
	bool mapped;

	if (!advice_valid(advice) || start % PAGE_SIZE)
		return -EINVAL;
	end = start + ALIGN_UP(len, PAGE_SIZE);
	if ((len && ALIGN_UP(len, PAGE_SIZE) == 0) || end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	if (end > USER_TOP)
		return -ENOMEM;
	/* For writing, as Linux 2.6 did: the unmap below must not meet a fault halfway. */
	down_write(&mm->mmap_sem);
	ptl_lock(mm);
	mapped = range_mapped(mm, start, end);
	ptl_unlock(mm);
	/* Only pages inside a region or the heap exist: dropping all of the range drops those. */
	if (advice == MADV_DONTNEED || advice == MADV_FREE)
		mm_unmap_range(mm, start, end);
	up_write(&mm->mmap_sem);
	/* Linux acts on the mapped parts, then reports the holes. */
	return mapped ? 0 : -ENOMEM;
}
