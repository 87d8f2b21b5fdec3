/*
 * Self-tests of TLB shootdowns (kernel/mm/tlb.c): a flush reaches every CPU
 * in the mm's cpu_mask and returns only after each has answered; after it, a
 * CPU that was reading a page reads what the PTE says now; a lazy CPU
 * leaves the mm instead of flushing, so it drops out of the mask.
 */
#include "kernel/cpu.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/mm/frame_refs.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/tlb.h"
#include "kernel/sched/sched.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"

#define VA 0x20000000
#define MS 1000000ULL
#define BATCH 64               /* pages in the batched munmap */

static struct {
	struct mm *mm;
	struct thread_group g;
	atomic_t ready;
	volatile bool stop;
	volatile uint32_t seen[MAX_CPUS];       /* what each reader last read at VA */
	volatile uint32_t reads[MAX_CPUS];      /* how many times it read */
} tt;

/* On its own CPU: load the test mm (not lazily) and read VA until told to stop. */
static int tlb_reader(void *unused)
{
	int me;
	uint32_t flags;

	preempt_disable();              /* stay running, with the mm loaded: not lazy */
	me = cpu_id();
	flags = irq_save();
	switch_mm(tt.mm);
	irq_restore(flags);
	atomic_inc(&tt.ready);
	while (!READ_ONCE(tt.stop)) {
		tt.seen[me] = *(volatile uint32_t *)VA;
		tt.reads[me]++;
		cpu_relax();
	}
	preempt_enable();               /* switched away from, this CPU keeps the mm lazily */
	return group_exit(&tt.g);
}

/* The frame at VA, holding value. */
static physaddr_t page_with(uint32_t value)
{
	physaddr_t pa = pmm_alloc_page();

	if (pa)
		memcpy(P2V(pa), &value, sizeof(value));
	return pa;
}

/* Let each reader read at least twice more. */
static void let_readers_read(uint32_t others)
{
	uint32_t before[MAX_CPUS];

	for (int i = 0; i < ncpus; i++)
		before[i] = tt.reads[i];
	for (int i = 0; i < ncpus; i++)
		for (int ms = 0; ms < 2000 && (others & (1u << i)) && tt.reads[i] - before[i] < 2; ms++)
			sched_sleep_ns(MS);
}

KTEST(tlb_shootdown_reaches_every_cpu_in_the_mask_and_waits)
{
	/* Every CPU but ours: the readers keep theirs busy, so we must not be woken there. */
	uint32_t others = cpu_online_mask() & ~(1u << cpu_id()), ipis[MAX_CPUS];
	physaddr_t a, b;
	pte_t *pte;
	int n = 0;

	memset(&tt, 0, sizeof(tt));
	tt.mm = mm_create();
	a = page_with(1);
	b = page_with(2);
	KT_ASSERT(tt.mm && a && b);
	KT_ASSERT_EQ(mm_map_page(tt.mm, VA, a, PTE_W), 0);
	group_init(&tt.g);
	for (int i = 0; i < ncpus; i++) {
		if (!(others & (1u << i)))
			continue;
		KT_ASSERT(group_start(&tt.g, tlb_reader, NULL, "tlb-reader", i));
		n++;
	}
	for (int ms = 0; ms < 5000 && atomic_read(&tt.ready) < n; ms++)
		sched_sleep_ns(MS);
	KT_ASSERT_EQ(atomic_read(&tt.ready), n);
	let_readers_read(others);
	KT_ASSERT_EQ(tt.mm->cpu_mask & others, others);        /* the context switch keeps the mask */
	for (int i = 0; i < ncpus; i++) {
		ipis[i] = cpus[i].tlb_ipis;
		KT_ASSERT(!(others & (1u << i)) || tt.seen[i] == 1);
	}
	/* Point VA at another frame, then shoot down: on return every reader has flushed. */
	frame_set_one(b);
	ptl_lock(tt.mm);
	pte = mm_pte_slot(tt.mm, VA, false);
	*pte = b | PTE_P | PTE_U | PTE_W;
	ptl_unlock(tt.mm);
	flush_tlb_page(tt.mm, VA);
	for (int i = 0; i < ncpus; i++)
		KT_ASSERT(!(others & (1u << i)) || cpus[i].tlb_ipis > ipis[i]);   /* answered before we returned */
	let_readers_read(others);
	for (int i = 0; i < ncpus; i++)
		KT_ASSERT(!(others & (1u << i)) || tt.seen[i] == 2);
	KT_ASSERT_EQ(tt.mm->cpu_mask & others, others);        /* running there: flushed, still in */
	/* A munmap of many pages: one shootdown, one IPI per CPU, not one per page. */
	KT_ASSERT_EQ(mm_alloc_range(tt.mm, VA + PAGE_SIZE, VA + (1 + BATCH) * PAGE_SIZE, PTE_W), 0);
	for (int i = 0; i < ncpus; i++)
		ipis[i] = cpus[i].tlb_ipis;
	down_write(&tt.mm->mmap_sem);
	mm_unmap_range(tt.mm, VA + PAGE_SIZE, VA + (1 + BATCH) * PAGE_SIZE);
	up_write(&tt.mm->mmap_sem);
	for (int i = 0; i < ncpus; i++)
		KT_ASSERT(!(others & (1u << i)) || cpus[i].tlb_ipis == ipis[i] + 1);
	tt.stop = true;
	group_wait(&tt.g);
	/*
	 * Now lazy (or gone to another mm): the next shootdown makes them leave. A reader that
	 * group_wait() saw finish may still be switching out on its CPU, with the mm loaded: then
	 * the next shootdown, once it is off, does it.
	 */
	for (int ms = 0; ms < 1000 && tt.mm->cpu_mask; ms++) {
		flush_tlb_mm(tt.mm);
		if (tt.mm->cpu_mask)
			sched_sleep_ns(MS);
	}
	KT_ASSERT_EQ(tt.mm->cpu_mask, 0);
	pmm_free_page(a);               /* no longer mapped: the PTE holds b */
	mm_destroy(tt.mm);              /* frees b through its mapping */
}
