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

/*
 * A run of frames is found among frames that sit on CPU lists: with every
 * frame handed out, two neighbours freed one by one go to a list, not to the
 * bitmap, and pmm_alloc_pages(2) must empty the lists into the bitmap
 * (drain_all_lists) to find them. The frames taken are chained through
 * their own first word, so the test needs no memory of its own.
 */
static uint32_t taken_by_test[DIRECT_MAP_MAX / PAGE_SIZE / 32];

static bool taken_here(physaddr_t pa)
{
	unsigned f = pa / PAGE_SIZE;

	return f < ARRAY_SIZE(taken_by_test) * 32 && (taken_by_test[f / 32] & (1u << (f % 32)));
}

/* Give back every frame of a chain made by the test below. */
static void free_chain(physaddr_t chain)
{
	while (chain) {
		physaddr_t pa = chain;

		chain = *(physaddr_t *)P2V(pa);
		pmm_free_page(pa);
	}
}

KTEST(pmm_run_found_among_listed_frames)
{
	physaddr_t chain = 0, pa, pair = 0, run = 0;
	unsigned before = pmm_free_count(), taken = 0;

	memset(taken_by_test, 0, sizeof(taken_by_test));
	while ((pa = pmm_alloc_page())) {
		*(physaddr_t *)P2V(pa) = chain;
		chain = pa;
		taken_by_test[pa / PAGE_SIZE / 32] |= 1u << (pa / PAGE_SIZE % 32);
		taken++;
	}
	for (pa = chain; pa && !pair; pa = *(physaddr_t *)P2V(pa))
		if (taken_here(pa + PAGE_SIZE))
			pair = pa;
	if (pair) {
		/* Unchain the pair, then free it frame by frame: both go to this CPU's list. */
		for (physaddr_t *link = &chain; *link;) {
			if (*link == pair || *link == pair + PAGE_SIZE)
				*link = *(physaddr_t *)P2V(*link);
			else
				link = (physaddr_t *)P2V(*link);
		}
		pmm_free_page(pair);
		pmm_free_page(pair + PAGE_SIZE);
		run = pmm_alloc_pages(2);
		if (run)
			pmm_free_pages(run, 2);
	}
	free_chain(chain);              /* memory back before any assertion can end the test */
	KT_ASSERT_EQ(taken, before);
	KT_ASSERT(pair != 0);
	KT_ASSERT_EQ(run, pair);        /* nothing else was free: it came off the list */
	KT_ASSERT_EQ(pmm_free_count(), before);
}

/* A frame freed twice while it sits on a CPU's list: the listed-frames bitmap catches it. */
KTEST_CRASH(pmm_double_free_of_a_listed_frame)
{
	physaddr_t pa = pmm_alloc_page();

	pmm_free_page(pa);
	pmm_free_page(pa);
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
