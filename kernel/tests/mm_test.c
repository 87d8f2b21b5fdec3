/* Self-tests of user address spaces: mapping, isolation of forked copies, brk, no leaked frames. */
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/tests/ktest_memory.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/vdso.h"

#define TEXT USER_TEXT_BASE

/* A small process image: 4 text pages, 2 data pages, a stack, a heap of one page. */
static struct mm *make_image(void)
{
	struct mm *mm = mm_create();

	if (!mm)
		return NULL;
	if (mm_alloc_range(mm, TEXT, TEXT + 4 * PAGE_SIZE, 0) < 0 ||
	    mm_alloc_range(mm, TEXT + 4 * PAGE_SIZE, TEXT + 6 * PAGE_SIZE, PTE_W) < 0 ||
	    mm_alloc_range(mm, USER_STACK_TOP - USER_STACK_SIZE, USER_STACK_TOP, PTE_W) < 0) {
		mm_destroy(mm);
		return NULL;
	}
	mm->brk_start = mm->brk = TEXT + 6 * PAGE_SIZE;
	return mm;
}

/*
 * The kernel half is the kernel's, shared, and out of user mode's reach,
 * but for one page: the vsyscall page (kernel/x86/sysenter.c), read-only,
 * the only user entry of the page table of the last 4 MiB.
 */
KTEST(mm_kernel_half_shared_and_not_user)
{
	struct mm *mm = mm_create();

	KT_ASSERT(mm != NULL);
	for (int i = PDX(USER_TOP); i < 1024; i++) {
		KT_ASSERT_EQ(mm->pgdir[i], kernel_pgdir[i]);
		KT_ASSERT(!(mm->pgdir[i] & PTE_U) || (vdso_available() && i == (int)PDX(VDSO_BASE)));
	}
	if (vdso_available()) {
		const pte_t *pt = P2V(PTE_ADDR(kernel_pgdir[PDX(VDSO_BASE)]));

		for (int j = 0; j < 1024; j++)
			KT_ASSERT_EQ(pt[j] & (PTE_P | PTE_U | PTE_W),
				     j == (int)PTX(VDSO_BASE) ? (uint32_t)(PTE_P | PTE_U) : 0u);
	}
	for (int i = 0; i < (int)PDX(USER_TOP); i++)
		KT_ASSERT_EQ(mm->pgdir[i], 0);
	mm_destroy(mm);
}

KTEST(mm_map_lookup_unmap)
{
	struct mm *mm = make_image();
	pte_t text, data;

	KT_ASSERT(mm != NULL);
	text = mm_lookup(mm, TEXT + 100);
	data = mm_lookup(mm, TEXT + 4 * PAGE_SIZE);
	KT_ASSERT((text & (PTE_P | PTE_U)) == (PTE_P | PTE_U) && !(text & PTE_W));
	KT_ASSERT((data & (PTE_P | PTE_U | PTE_W)) == (PTE_P | PTE_U | PTE_W));
	KT_ASSERT_EQ(mm_lookup(mm, 0x40000000), 0);
	KT_ASSERT_EQ(mm_lookup(mm, 0xC0100000), 0);         /* kernel: never a user PTE */
	KT_ASSERT_EQ(mm_alloc_range(mm, TEXT, TEXT + PAGE_SIZE, 0), -EEXIST);
	KT_ASSERT_EQ(mm_alloc_range(mm, 0xBFFFF000, 0xC0001000, 0), -EINVAL);
	KT_ASSERT_EQ(mm_map_page(mm, 0xC0000000, 0x200000, PTE_W), -EINVAL);
	KT_ASSERT_EQ(mm->npages, 6 + USER_STACK_SIZE / PAGE_SIZE);
	mm_unmap_range(mm, TEXT, TEXT + PAGE_SIZE);
	KT_ASSERT_EQ(mm_lookup(mm, TEXT), 0);
	KT_ASSERT_EQ(mm->npages, 5 + USER_STACK_SIZE / PAGE_SIZE);
	mm_destroy(mm);
}

static uint32_t read_u32(struct mm *mm, uintptr_t va)
{
	uint32_t v;

	memcpy(&v, (char *)P2V(PTE_ADDR(mm_lookup(mm, va))) + va % PAGE_SIZE, 4);
	return v;
}

#define DATA_VA (TEXT + 4 * PAGE_SIZE + 8)

KTEST(mm_fork_shares_until_written)
{
	struct mm *parent = make_image(), *child;
	uint32_t v = 0x11111111;
	physaddr_t shared;

	KT_ASSERT(parent != NULL);
	KT_ASSERT_EQ(mm_copy_in(parent, DATA_VA, &v, 4), 0);
	child = mm_fork(parent);
	KT_ASSERT(child != NULL);
	/* Right after fork: one frame, read-only and marked COW on both sides. */
	shared = PTE_ADDR(mm_lookup(parent, DATA_VA));
	KT_ASSERT_EQ(PTE_ADDR(mm_lookup(child, DATA_VA)), shared);
	KT_ASSERT(!(mm_lookup(parent, DATA_VA) & PTE_W) && (mm_lookup(parent, DATA_VA) & PTE_COW));
	KT_ASSERT(!(mm_lookup(child, DATA_VA) & PTE_W) && (mm_lookup(child, DATA_VA) & PTE_COW));
	/* Text was never writable: shared, and no COW mark that could make it writable. */
	KT_ASSERT(!(mm_lookup(child, TEXT) & (PTE_W | PTE_COW)));
	/* The parent writes: it gets its own copy; the child still sees the old value. */
	v = 0x22222222;
	KT_ASSERT_EQ(mm_copy_in(parent, DATA_VA, &v, 4), 0);
	KT_ASSERT(PTE_ADDR(mm_lookup(parent, DATA_VA)) != shared);
	KT_ASSERT(mm_lookup(parent, DATA_VA) & PTE_W);
	KT_ASSERT_EQ(read_u32(parent, DATA_VA), 0x22222222);
	KT_ASSERT_EQ(read_u32(child, DATA_VA), 0x11111111);
	/* The child is now the frame's only user: its write takes the frame without copying. */
	KT_ASSERT(mm_break_cow(child, DATA_VA));
	KT_ASSERT_EQ(PTE_ADDR(mm_lookup(child, DATA_VA)), shared);
	KT_ASSERT((mm_lookup(child, DATA_VA) & (PTE_W | PTE_COW)) == PTE_W);
	KT_ASSERT(!mm_break_cow(child, DATA_VA));           /* nothing left to break */
	KT_ASSERT(!mm_break_cow(child, TEXT));              /* read-only is not COW */
	KT_ASSERT_EQ(child->npages, parent->npages);
	KT_ASSERT_EQ(child->brk, parent->brk);
	mm_destroy(child);
	mm_destroy(parent);
}

KTEST(mm_brk_grows_and_shrinks)
{
	struct mm *mm = make_image();
	uintptr_t b0;

	KT_ASSERT(mm != NULL);
	b0 = mm->brk;
	KT_ASSERT_EQ(mm_brk(mm, 0), b0);
	KT_ASSERT_EQ(mm_brk(mm, b0 + 3 * PAGE_SIZE + 1), b0 + 3 * PAGE_SIZE + 1);
	/* brk maps nothing: the first touch does, through mm_fault(). */
	KT_ASSERT_EQ(mm_lookup(mm, b0 + 3 * PAGE_SIZE), 0);
	KT_ASSERT_EQ(mm_fault(mm, b0 + 3 * PAGE_SIZE + 7, false), MM_FAULT_DONE);
	KT_ASSERT(mm_lookup(mm, b0 + 3 * PAGE_SIZE) & PTE_W);
	KT_ASSERT_EQ(mm_fault(mm, b0, true), MM_FAULT_DONE);
	KT_ASSERT_EQ(mm_fault(mm, b0 + 4 * PAGE_SIZE, true), MM_FAULT_BAD);     /* past the break */
	KT_ASSERT_EQ(mm_fault(mm, TEXT, true), MM_FAULT_BAD);                   /* read-only text */
	KT_ASSERT_EQ(mm_brk(mm, b0 + 10), b0 + 10);
	KT_ASSERT(mm_lookup(mm, b0) != 0);
	KT_ASSERT_EQ(mm_lookup(mm, b0 + PAGE_SIZE), 0);
	KT_ASSERT_EQ(mm_brk(mm, b0 - 1), b0 + 10);          /* below the start: refused */
	KT_ASSERT_EQ(mm_brk(mm, USER_STACK_TOP - PAGE_SIZE), b0 + 10);   /* into the stack: refused */
	/* More heap than there is RAM can never be backed: refused at once (Linux's heuristic). */
	KT_ASSERT_EQ(mm_brk(mm, b0 + (pmm_usable_count() + 1) * PAGE_SIZE), b0 + 10);
	mm_destroy(mm);
}

KTEST(mm_no_frames_leak)
{
	unsigned before;
	struct mm *a, *b;

	/* Warm up the heap's size classes so that only page tables and pages are counted. */
	a = make_image();
	KT_ASSERT(a != NULL);
	mm_destroy(a);
	before = pmm_free_count();
	for (int i = 0; i < 20; i++) {
		uint32_t v = i;

		a = make_image();
		KT_ASSERT(a != NULL);
		mm_brk(a, a->brk + 5 * PAGE_SIZE);
		KT_ASSERT_EQ(mm_fault(a, a->brk_start + PAGE_SIZE, true), MM_FAULT_DONE);
		b = mm_fork(a);
		KT_ASSERT(b != NULL);
		/* Break some sharing on either side, and free in both orders. */
		KT_ASSERT_EQ(mm_copy_in(i % 2 ? a : b, TEXT + 4 * PAGE_SIZE, &v, 4), 0);
		mm_brk(b, b->brk_start);
		mm_destroy(i % 2 ? a : b);
		mm_destroy(i % 2 ? b : a);
	}
	KT_ASSERT_EQ(pmm_free_count(), before);
}

/*
 * With no free frame, a valid access is not a bad one: a heap page or a COW
 * copy answers MM_FAULT_OOM (the fault path then calls the OOM killer), a
 * bad address still MM_FAULT_BAD; with frames back, both resolve.
 */
KTEST(mm_fault_out_of_memory_is_not_a_bad_access)
{
	struct mm *parent = make_image(), *child;
	uintptr_t heap;
	physaddr_t hog;

	KT_ASSERT(parent != NULL);
	heap = parent->brk;
	KT_ASSERT_EQ(mm_brk(parent, heap + PAGE_SIZE), heap + PAGE_SIZE);
	child = mm_fork(parent);
	KT_ASSERT(child != NULL);
	hog = ktest_hog_all_frames();
	KT_ASSERT_EQ(mm_fault(child, heap, true), MM_FAULT_OOM);         /* heap page on demand */
	KT_ASSERT_EQ(mm_fault(child, DATA_VA, true), MM_FAULT_OOM);      /* COW copy */
	KT_ASSERT_EQ(mm_fault(child, heap + PAGE_SIZE, true), MM_FAULT_BAD);
	KT_ASSERT_EQ(mm_fault(child, DATA_VA, false), MM_FAULT_DONE);    /* reading needs no frame */
	ktest_free_hogged_frames(hog);
	KT_ASSERT_EQ(mm_fault(child, heap, true), MM_FAULT_DONE);
	KT_ASSERT_EQ(mm_fault(child, DATA_VA, true), MM_FAULT_DONE);
	KT_ASSERT((mm_lookup(child, DATA_VA) & (PTE_W | PTE_COW)) == PTE_W);
	mm_destroy(child);
	mm_destroy(parent);
}
