/*
 * The mapped regions of an address space: a small array sorted by address,
 * like the list Linux 2.4 kept before its tree. A region says which
 * addresses are valid and what user mode may do there (prot); the page
 * tables say which pages exist. mmap, munmap, mprotect and mremap
 * (kernel/mm/mmap.c) change both; the fault path (mm_fault) reads the
 * regions to know if an absent page may come on demand.
 *
 * Every function here needs page_table_lock and does at most MM_VMAS_MAX
 * steps, so the rule of docs/mm.md (no long work under the lock) holds.
 * Whoever changes the regions holds mmap_sem for writing as well, so a
 * page fault may read them under either lock (docs/mm.md section 8).
 */
#include "kernel/mm/vma.h"

#include "kernel/lib/string.h"
#include "kernel/uapi/errno.h"

struct vma *vma_find(struct mm *mm, uintptr_t va)
{
	assert_spin_held(&mm->page_table_lock);
	for (unsigned i = 0; i < mm->nvmas; i++)
		if (va >= mm->vmas[i].start && va < mm->vmas[i].end)
			return &mm->vmas[i];
	return NULL;
}

static bool meets_heap(struct mm *mm, uintptr_t start, uintptr_t end)
{
	uintptr_t heap_end = ALIGN_UP(mm->brk, PAGE_SIZE);

	return mm->brk_start < heap_end && start < heap_end && end > mm->brk_start;
}

bool vma_meets(struct mm *mm, uintptr_t start, uintptr_t end)
{
	assert_spin_held(&mm->page_table_lock);
	for (unsigned i = 0; i < mm->nvmas; i++)
		if (start < mm->vmas[i].end && end > mm->vmas[i].start)
			return true;
	return false;
}

bool vma_range_free(struct mm *mm, uintptr_t start, uintptr_t end)
{
	return !meets_heap(mm, start, end) && !vma_meets(mm, start, end);
}

bool vma_range_covered(struct mm *mm, uintptr_t start, uintptr_t end)
{
	assert_spin_held(&mm->page_table_lock);
	/* Sorted and disjoint: walk the regions, each must begin where the last ended. */
	for (unsigned i = 0; i < mm->nvmas && start < end; i++) {
		struct vma *v = &mm->vmas[i];

		if (v->end <= start)
			continue;
		if (v->start > start)
			return false;
		start = v->end;
	}
	return start >= end;
}

static void insert_at(struct mm *mm, unsigned i, uintptr_t start, uintptr_t end, unsigned prot)
{
	memmove(&mm->vmas[i + 1], &mm->vmas[i], (mm->nvmas - i) * sizeof(mm->vmas[0]));
	mm->vmas[i] = (struct vma){ .start = start, .end = end, .prot = prot };
	mm->nvmas++;
}

static void delete_at(struct mm *mm, unsigned i)
{
	memmove(&mm->vmas[i], &mm->vmas[i + 1], (mm->nvmas - i - 1) * sizeof(mm->vmas[0]));
	mm->nvmas--;
}

/* Would removing [start, end) split a region in two (and so need a slot)? */
static bool splits(struct mm *mm, uintptr_t start, uintptr_t end)
{
	for (unsigned i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start < start && mm->vmas[i].end > end)
			return true;
	return false;
}

int vma_remove(struct mm *mm, uintptr_t start, uintptr_t end)
{
	assert_spin_held(&mm->page_table_lock);
	if (splits(mm, start, end) && mm->nvmas >= MM_VMAS_MAX)
		return -ENOMEM;
	for (unsigned i = mm->nvmas; i-- > 0;) {
		struct vma *v = &mm->vmas[i];

		if (v->end <= start || v->start >= end)
			continue;
		if (v->start < start && v->end > end) {
			insert_at(mm, i + 1, end, v->end, v->prot);
			v->end = start;
		} else if (v->start < start) {
			v->end = start;
		} else if (v->end > end) {
			v->start = end;
		} else {
			delete_at(mm, i);
		}
	}
	return 0;
}

/* Join region i with its neighbours when they touch and allow the same: fewer regions, same meaning. */
static void merge_around(struct mm *mm, unsigned i)
{
	if (i + 1 < mm->nvmas && mm->vmas[i].end == mm->vmas[i + 1].start &&
	    mm->vmas[i].prot == mm->vmas[i + 1].prot) {
		mm->vmas[i].end = mm->vmas[i + 1].end;
		delete_at(mm, i + 1);
	}
	if (i > 0 && mm->vmas[i - 1].end == mm->vmas[i].start &&
	    mm->vmas[i - 1].prot == mm->vmas[i].prot) {
		mm->vmas[i - 1].end = mm->vmas[i].end;
		delete_at(mm, i);
	}
}

int vma_set(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot)
{
	unsigned i;

	assert_spin_held(&mm->page_table_lock);
	/* Worst case: one split by the removal, one new region. Check first: fail without a change. */
	if (mm->nvmas + (splits(mm, start, end) ? 2 : 1) > MM_VMAS_MAX)
		return -ENOMEM;
	vma_remove(mm, start, end);
	for (i = 0; i < mm->nvmas && mm->vmas[i].start < start; i++)
		;
	insert_at(mm, i, start, end, prot);
	merge_around(mm, i);
	return 0;
}

uintptr_t vma_find_gap(struct mm *mm, uintptr_t hint, size_t len)
{
	uintptr_t top = USER_MMAP_TOP;

	assert_spin_held(&mm->page_table_lock);
	if (len == 0 || len > USER_MMAP_TOP - USER_MMAP_MIN)
		return 0;
	hint = ALIGN_DOWN(hint, PAGE_SIZE);
	if (hint >= USER_MMAP_MIN && hint <= USER_MMAP_TOP - len && vma_range_free(mm, hint, hint + len))
		return hint;
	/*
	 * Top-down, as Linux places mmap regions: try just below each obstacle
	 * (a region or the heap), from the highest down. At most MM_VMAS_MAX + 1 tries.
	 */
	for (;;) {
		uintptr_t start = top - len, lowest = 0;

		if (top < USER_MMAP_MIN + len)
			return 0;
		if (vma_range_free(mm, start, top))
			return start;
		/* Something meets [start, top): go below the lowest start among what meets it. */
		lowest = top;
		for (unsigned i = 0; i < mm->nvmas; i++)
			if (start < mm->vmas[i].end && top > mm->vmas[i].start && mm->vmas[i].start < lowest)
				lowest = mm->vmas[i].start;
		if (meets_heap(mm, start, top) && mm->brk_start < lowest)
			lowest = mm->brk_start;
		top = lowest;
	}
}
