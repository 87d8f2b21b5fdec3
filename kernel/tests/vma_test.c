/* Self-tests of the region list (kernel/mm/vma.c): splits, merges, holes, gaps, and a full list. */
#include "kernel/ktest.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/vma.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/mman.h"

#define A 0x20000000
#define P PAGE_SIZE
#define RW (PROT_READ | PROT_WRITE)

KTEST(vma_split_merge_and_holes)
{
	struct mm *mm = mm_create();

	KT_ASSERT(mm != NULL);
	spin_lock(&mm->page_table_lock);
	KT_ASSERT_EQ(vma_set(mm, A, A + 4 * P, RW), 0);
	KT_ASSERT_EQ(vma_set(mm, A + 4 * P, A + 6 * P, RW), 0);
	KT_ASSERT_EQ(mm->nvmas, 1);                             /* neighbours with one prot merge */
	KT_ASSERT_EQ(vma_set(mm, A + P, A + 2 * P, PROT_READ), 0);
	KT_ASSERT_EQ(mm->nvmas, 3);                             /* a different prot splits */
	KT_ASSERT_EQ(vma_find(mm, A + P + 5)->prot, PROT_READ);
	KT_ASSERT_EQ(vma_remove(mm, A + 3 * P, A + 4 * P), 0);
	KT_ASSERT_EQ(mm->nvmas, 4);
	KT_ASSERT(vma_find(mm, A + 3 * P) == NULL);
	KT_ASSERT(vma_range_covered(mm, A, A + 3 * P));
	KT_ASSERT(!vma_range_covered(mm, A, A + 5 * P));        /* the hole */
	KT_ASSERT(vma_range_free(mm, A + 3 * P, A + 4 * P));
	KT_ASSERT(!vma_range_free(mm, A + 3 * P, A + 5 * P));
	KT_ASSERT_EQ(vma_remove(mm, 0, USER_TOP), 0);
	KT_ASSERT_EQ(mm->nvmas, 0);
	spin_unlock(&mm->page_table_lock);
	mm_destroy(mm);
}

KTEST(vma_gaps_top_down_and_a_full_list)
{
	struct mm *mm = mm_create();
	uintptr_t g1, g2;
	int r = 0;

	KT_ASSERT(mm != NULL);
	spin_lock(&mm->page_table_lock);
	g1 = vma_find_gap(mm, 0, 2 * P);
	KT_ASSERT_EQ(g1, USER_MMAP_TOP - 2 * P);
	vma_set(mm, g1, g1 + 2 * P, RW);
	g2 = vma_find_gap(mm, 0, 2 * P);
	KT_ASSERT_EQ(g2, g1 - 2 * P);
	vma_set(mm, g2, g2 + 2 * P, PROT_READ);
	KT_ASSERT_EQ(vma_find_gap(mm, A, P), A);                /* a free hint is taken */
	KT_ASSERT_EQ(vma_find_gap(mm, g1, P), g2 - P);          /* a busy one is not */
	KT_ASSERT_EQ(vma_find_gap(mm, 0, USER_TOP), 0);
	vma_remove(mm, 0, USER_TOP);
	/* Every other page, so nothing merges: the list fills up and says so. */
	for (unsigned i = 0; i < MM_VMAS_MAX && r == 0; i++)
		r = vma_set(mm, A + 2 * i * P, A + (2 * i + 1) * P, RW);
	KT_ASSERT_EQ(r, 0);
	KT_ASSERT_EQ(vma_set(mm, A - 2 * P, A - P, RW), -ENOMEM);
	KT_ASSERT_EQ(vma_remove(mm, A + P / 2, A + P / 2 + 1), -ENOMEM);  /* a split needs a slot */
	KT_ASSERT_EQ(mm->nvmas, MM_VMAS_MAX);
	spin_unlock(&mm->page_table_lock);
	mm_destroy(mm);
}
