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

#include "fs/file.h"
#include "kernel/lib/string.h"
#include "kernel/panic.h"
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

static void file_get(struct file *f)
{
	if (f)
		fget_ref(f);
}

/* The file of a region going away: fput() later, with no spinlock held (vma_put_files). */
static void file_put_later(struct mm *mm, struct file *f)
{
	if (!f)
		return;
	if (mm->nfput_later >= ARRAY_SIZE(mm->fput_later))
		panic("vma: %u files to put without vma_put_files()", mm->nfput_later);
	mm->fput_later[mm->nfput_later++] = f;
}

void vma_put_files(struct mm *mm)
{
	while (mm->nfput_later > 0)
		fput(mm->fput_later[--mm->nfput_later]);
}

void vma_get_files(struct mm *mm)
{
	for (unsigned i = 0; i < mm->nvmas; i++)
		file_get(mm->vmas[i].file);
}

void vma_drop_all(struct mm *mm)
{
	for (unsigned i = 0; i < mm->nvmas; i++)
		file_put_later(mm, mm->vmas[i].file);
	mm->nvmas = 0;
	vma_put_files(mm);
}

/* Insert a region; it takes its own reference to f. */
static void insert_at(struct mm *mm, unsigned i, uintptr_t start, uintptr_t end, unsigned prot,
		      struct file *f, uint32_t pgoff)
{
	memmove(&mm->vmas[i + 1], &mm->vmas[i], (mm->nvmas - i) * sizeof(mm->vmas[0]));
	mm->vmas[i] = (struct vma){ .start = start, .end = end, .prot = prot, .file = f,
				    .pgoff = f ? pgoff : 0 };
	file_get(f);
	mm->nvmas++;
}

/* Forget region i, whose file reference (if any) the caller has dealt with. */
static void delete_at(struct mm *mm, unsigned i)
{
	memmove(&mm->vmas[i], &mm->vmas[i + 1], (mm->nvmas - i - 1) * sizeof(mm->vmas[0]));
	mm->nvmas--;
}

/* Cut the region holding addr in two at addr (both keep the file): a slot must be free. */
static void split_at(struct mm *mm, uintptr_t addr)
{
	for (unsigned i = 0; i < mm->nvmas; i++) {
		struct vma *v = &mm->vmas[i];

		if (v->start < addr && v->end > addr) {
			insert_at(mm, i + 1, addr, v->end, v->prot, v->file, v->file ? vma_pgoff_at(v, addr) : 0);
			mm->vmas[i].end = addr;
			return;
		}
	}
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
			split_at(mm, end);
			mm->vmas[i].end = start;
		} else if (v->start < start) {
			v->end = start;
		} else if (v->end > end) {
			if (v->file)
				v->pgoff = vma_pgoff_at(v, end);
			v->start = end;
		} else {
			file_put_later(mm, v->file);
			delete_at(mm, i);
		}
	}
	return 0;
}

/* Do a and b (a just below b) touch and mean the same: same rights, same file, its pages in a row? */
static bool mergeable(const struct vma *a, const struct vma *b)
{
	return a->end == b->start && a->prot == b->prot && a->file == b->file &&
	       (!a->file || vma_pgoff_at(a, a->end) == b->pgoff);
}

/* Join region i with its neighbours when they can: fewer regions, same meaning. */
static void merge_around(struct mm *mm, unsigned i)
{
	if (i + 1 < mm->nvmas && mergeable(&mm->vmas[i], &mm->vmas[i + 1])) {
		mm->vmas[i].end = mm->vmas[i + 1].end;
		file_put_later(mm, mm->vmas[i + 1].file);
		delete_at(mm, i + 1);
	}
	if (i > 0 && mergeable(&mm->vmas[i - 1], &mm->vmas[i])) {
		mm->vmas[i - 1].end = mm->vmas[i].end;
		file_put_later(mm, mm->vmas[i].file);
		delete_at(mm, i);
	}
}

int vma_set_file(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot, struct file *f,
		 uint32_t pgoff)
{
	unsigned i;

	assert_spin_held(&mm->page_table_lock);
	/* Worst case: one split by the removal, one new region. Check first: fail without a change. */
	if (mm->nvmas + (splits(mm, start, end) ? 2 : 1) > MM_VMAS_MAX)
		return -ENOMEM;
	vma_remove(mm, start, end);
	for (i = 0; i < mm->nvmas && mm->vmas[i].start < start; i++)
		;
	insert_at(mm, i, start, end, prot, f, pgoff);
	merge_around(mm, i);
	return 0;
}

int vma_set(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot)
{
	return vma_set_file(mm, start, end, prot, NULL, 0);
}

/* Does some region strictly contain addr (so that a boundary there needs a split)? */
static bool cuts(struct mm *mm, uintptr_t addr)
{
	for (unsigned i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start < addr && mm->vmas[i].end > addr)
			return true;
	return false;
}

int vma_protect(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot)
{
	assert_spin_held(&mm->page_table_lock);
	if (mm->nvmas + cuts(mm, start) + cuts(mm, end) > MM_VMAS_MAX)
		return -ENOMEM;
	split_at(mm, start);
	split_at(mm, end);
	for (unsigned i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start >= start && mm->vmas[i].end <= end)
			mm->vmas[i].prot = prot;
	/* Back to the fewest regions: every join the new rights allow. */
	for (unsigned i = mm->nvmas; i-- > 0;)
		if (i < mm->nvmas)
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
