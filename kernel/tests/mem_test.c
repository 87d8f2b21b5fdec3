/* Self-tests of the frame allocator and the kernel heap on the real memory map. */
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/locking/spinlock.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"

KTEST(pmm_alloc_free_roundtrip)
{
	unsigned before = pmm_free_count();
	physaddr_t a = pmm_alloc_page(), b = pmm_alloc_page();
	physaddr_t run = pmm_alloc_pages(8);

	KT_ASSERT(a && b && run);
	KT_ASSERT(a != b);
	KT_ASSERT(a % PAGE_SIZE == 0 && run % PAGE_SIZE == 0);
	KT_ASSERT(!pmm_is_free(a) && !pmm_is_free(run + 7 * PAGE_SIZE));
	KT_ASSERT_EQ(pmm_free_count(), before - 10);
	/* The pages are real memory: writing them must not fault or clobber each other. */
	memset(P2V(a), 0xAA, PAGE_SIZE);
	memset(P2V(b), 0x55, PAGE_SIZE);
	KT_ASSERT(((unsigned char *)P2V(a))[PAGE_SIZE - 1] == 0xAA);
	pmm_free_page(a);
	pmm_free_page(b);
	pmm_free_pages(run, 8);
	KT_ASSERT_EQ(pmm_free_count(), before);
}

/* kernel/mm/pmm_percpu.c: a frame freed goes to this CPU's list and is the next one it hands out. */
KTEST(pmm_cpu_list_reuses_and_counts_exactly)
{
	static physaddr_t got[200];
	uint32_t flags = irq_save();    /* stay on this CPU: its list */
	physaddr_t a = pmm_alloc_page(), b;
	unsigned before;

	pmm_free_page(a);
	b = pmm_alloc_page();
	irq_restore(flags);
	KT_ASSERT(a != 0);
	KT_ASSERT_EQ(a, b);
	KT_ASSERT(!pmm_is_free(b));
	pmm_free_page(b);
	KT_ASSERT(pmm_is_free(b));      /* on a list, and free all the same */
	/* More than a list holds, out and back: the count stays exact while batches move. */
	before = pmm_free_count();
	for (int i = 0; i < 200; i++) {
		got[i] = pmm_alloc_page();
		KT_ASSERT(got[i] != 0);
	}
	KT_ASSERT_EQ(pmm_free_count(), before - 200);
	for (int i = 0; i < 200; i++)
		pmm_free_page(got[i]);
	KT_ASSERT_EQ(pmm_free_count(), before);
}

KTEST(pmm_never_hands_out_kernel_or_low_memory)
{
	extern char kernel_start[], kernel_end[];
	physaddr_t got[64];

	for (int i = 0; i < 64; i++) {
		got[i] = pmm_alloc_page();
		KT_ASSERT(got[i] >= 0x100000);
		KT_ASSERT(got[i] < V2P(kernel_start) || got[i] >= V2P(kernel_end));
	}
	for (int i = 0; i < 64; i++)
		pmm_free_page(got[i]);
}

KTEST(kheap_sizes_alignment_and_reuse)
{
	static const size_t sizes[] = { 1, 15, 16, 17, 100, 1000, 2032, 2048, 4096, 20000 };
	void *p[ARRAY_SIZE(sizes)];
	struct kheap_stats s0, s1;

	kheap_get_stats(&s0);
	for (unsigned i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = kmalloc(sizes[i]);
		KT_ASSERT(p[i] != NULL);
		KT_ASSERT((uintptr_t)p[i] % 16 == 0);
		memset(p[i], (int)i, sizes[i]);
	}
	for (unsigned i = 0; i < ARRAY_SIZE(sizes); i++)
		KT_ASSERT(((unsigned char *)p[i])[sizes[i] - 1] == i);
	for (unsigned i = 0; i < ARRAY_SIZE(sizes); i++)
		kfree(p[i]);
	kheap_get_stats(&s1);
	KT_ASSERT_EQ(s1.bytes_in_use, s0.bytes_in_use);
	KT_ASSERT_EQ(s1.allocs - s0.allocs, ARRAY_SIZE(sizes));
	/* A freed small block is reused first, on the same CPU (its own cache is last in, first out). */
	void *a = kmalloc(100), *again;

	preempt_disable();
	kfree(a);
	again = kmalloc(100);
	preempt_enable();
	KT_ASSERT(again == a);
	kfree(a);
}

KTEST(kheap_zeroed_and_exhaustion_returns_null)
{
	char *z = kzalloc(300);

	KT_ASSERT(z != NULL);
	for (int i = 0; i < 300; i++)
		KT_ASSERT(z[i] == 0);
	kfree(z);
	KT_ASSERT(kmalloc(0) == NULL);
	KT_ASSERT(kmalloc(0x7FFFFFFF) == NULL);
}
