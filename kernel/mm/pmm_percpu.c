/*
 * Free frames kept per CPU, in front of the frame bitmap (kernel/mm/pmm.c).
 *
 * With the bitmap alone, every page fault, every COW break and every frame
 * of an exiting process took pmm_lock once. memtest's OOM test showed what
 * that costs: four CPUs faulting in pages while killed processes give back
 * 30 MiB each, all in the one lock's queue. Under QEMU's TCG, with more
 * virtual CPUs than the host has cores, a ticket lock hands over only when
 * the host runs the next waiter's thread, so the test took 30 to 100 s
 * instead of 10 (and timed out once in CI).
 *
 * So each CPU keeps a short list of free frames under a lock of its own
 * that only a CPU short of memory ever contends for. An empty list takes
 * PCP_BATCH frames from the bitmap at once; a full one gives PCP_BATCH back.
 * Linux 2.6 has the same lists in front of its zone lock (per_cpu_pages,
 * added in 2.5 for the same reason); 6.S081's allocator lab splits kalloc's
 * free list per CPU the same way.
 *
 * Frames on a list count as free (pmm_free_count, pmm_is_free). A CPU that
 * finds its list and the bitmap empty takes a frame from another CPU's list
 * before it reports no memory: the OOM killer runs only when none is left
 * anywhere. A run of contiguous frames comes from the bitmap; if it has none
 * long enough, the lists are emptied into it and it is searched again.
 *
 * Lock order: a CPU's list lock, then pmm_lock. Nobody holds two list locks.
 */
#include "kernel/mm/pmm_bitmap.h"

#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/locking/spinlock.h"
#include "kernel/mm/memlayout.h"
#include "kernel/panic.h"
#include "kernel/x86/x86.h"

#define PCP_HIGH 64             /* frames a CPU keeps before it gives a batch back */
#define PCP_BATCH 16            /* frames moved between a list and the bitmap at once */

struct cpu_frames {
	spinlock_t lock;        /* its CPU takes it with interrupts off; another CPU only to take frames */
	unsigned count;
	physaddr_t frames[PCP_HIGH];    /* a stack: the last frame freed is the first handed out */
} __cacheline_aligned;

static struct cpu_frames cpu_frames[MAX_CPUS] = {
	[0 ... MAX_CPUS - 1] = { .lock = SPINLOCK_INIT("pmm_cpu") },
};

/*
 * Frames handed out and not given back. Free is usable minus this, exact at
 * every moment: a sum of the bitmap's count and the lists' would count a
 * batch twice, or not at all, while it moves between them.
 */
static unsigned frames_in_use;

static void count_out(unsigned n) { __atomic_add_fetch(&frames_in_use, n, __ATOMIC_RELAXED); }
static void count_back(unsigned n) { __atomic_sub_fetch(&frames_in_use, n, __ATOMIC_RELAXED); }

/*
 * One bit per frame that sits on some CPU's list: free, though the bitmap
 * says used. It is how a double free of such a frame is still caught.
 */
#define NFRAMES (DIRECT_MAP_MAX / PAGE_SIZE)
static uint32_t parked[NFRAMES / 32];

static void park(physaddr_t pa)
{
	__atomic_fetch_or(&parked[pa / PAGE_SIZE / 32], 1u << (pa / PAGE_SIZE % 32), __ATOMIC_RELAXED);
}

static void unpark(physaddr_t pa)
{
	__atomic_fetch_and(&parked[pa / PAGE_SIZE / 32], ~(1u << (pa / PAGE_SIZE % 32)), __ATOMIC_RELAXED);
}

static bool is_parked(physaddr_t pa)
{
	return __atomic_load_n(&parked[pa / PAGE_SIZE / 32], __ATOMIC_RELAXED) & (1u << (pa / PAGE_SIZE % 32));
}

/* A frame coming back must be one the allocator handed out, and not already free. */
static void check_free(physaddr_t pa)
{
	if (pa % PAGE_SIZE || pa / PAGE_SIZE >= NFRAMES || pa == 0)
		panic("pmm_free_pages: bad address %08x", pa);
	if (bitmap_is_free(pa) || is_parked(pa))
		panic("pmm_free_pages: double free of frame %08x", pa);
}

/* A frame off another CPU's list, when this one's and the bitmap are empty: 0 if every list is. */
static physaddr_t take_from_other_cpu(void)
{
	int self = cpu_id();

	for (int i = 0; i < MAX_CPUS; i++) {
		struct cpu_frames *cf = &cpu_frames[i];
		physaddr_t pa = 0;

		if (i == self || !READ_ONCE(cf->count))
			continue;
		spin_lock(&cf->lock);
		if (cf->count)
			pa = cf->frames[--cf->count];
		spin_unlock(&cf->lock);
		if (pa)
			return pa;
	}
	return 0;
}

physaddr_t pmm_alloc_page(void)
{
	uint32_t flags = irq_save();    /* this CPU's list: we stay on this CPU meanwhile */
	struct cpu_frames *cf = &cpu_frames[cpu_id()];
	physaddr_t pa = 0;

	spin_lock(&cf->lock);
	if (!cf->count) {
		cf->count = bitmap_take(cf->frames, PCP_BATCH);
		for (unsigned i = 0; i < cf->count; i++)
			park(cf->frames[i]);
	}
	if (cf->count)
		pa = cf->frames[--cf->count];
	spin_unlock(&cf->lock);
	if (!pa)
		pa = take_from_other_cpu();
	irq_restore(flags);
	if (pa) {
		unpark(pa);
		count_out(1);
	}
	return pa;
}

void pmm_free_page(physaddr_t pa)
{
	uint32_t flags;
	struct cpu_frames *cf;

	check_free(pa);
	park(pa);
	count_back(1);
	flags = irq_save();
	cf = &cpu_frames[cpu_id()];
	spin_lock(&cf->lock);
	cf->frames[cf->count++] = pa;
	if (cf->count == PCP_HIGH) {
		/* The oldest batch goes back: those are the frames least likely still in a cache. */
		for (unsigned i = 0; i < PCP_BATCH; i++)
			unpark(cf->frames[i]);
		bitmap_give(cf->frames, PCP_BATCH);
		memmove(cf->frames, cf->frames + PCP_BATCH, (PCP_HIGH - PCP_BATCH) * sizeof(physaddr_t));
		cf->count -= PCP_BATCH;
	}
	spin_unlock(&cf->lock);
	irq_restore(flags);
}

/* Every CPU's list back into the bitmap, so that a run can be found among its frames. */
static void drain_all_lists(void)
{
	for (int i = 0; i < MAX_CPUS; i++) {
		struct cpu_frames *cf = &cpu_frames[i];
		uint32_t flags = irq_save();

		spin_lock(&cf->lock);
		for (unsigned j = 0; j < cf->count; j++)
			unpark(cf->frames[j]);
		bitmap_give(cf->frames, cf->count);
		cf->count = 0;
		spin_unlock(&cf->lock);
		irq_restore(flags);
	}
}

physaddr_t pmm_alloc_pages(unsigned n)
{
	physaddr_t pa;

	if (n == 1)
		return pmm_alloc_page();
	pa = bitmap_alloc_run(n);
	if (!pa && n) {
		drain_all_lists();
		pa = bitmap_alloc_run(n);
	}
	if (pa)
		count_out(n);
	return pa;
}

void pmm_free_pages(physaddr_t pa, unsigned n)
{
	if (n == 1) {
		pmm_free_page(pa);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		check_free(pa + i * PAGE_SIZE);
	bitmap_free_run(pa, n);
	count_back(n);
}

void pmm_free_batch_flush(struct frame_batch *b)
{
	bitmap_give(b->frames, b->n);
	b->n = 0;
}

void pmm_free_batch_add(struct frame_batch *b, physaddr_t pa)
{
	check_free(pa);
	count_back(1);
	b->frames[b->n++] = pa;
	if (b->n == FRAME_BATCH_MAX)
		pmm_free_batch_flush(b);
}

/* Every frame the allocator owns is free, on a CPU's list, or handed out (boot reserves before it allocates). */
unsigned pmm_free_count(void)
{
	return pmm_usable_count() - __atomic_load_n(&frames_in_use, __ATOMIC_RELAXED);
}

bool pmm_is_free(physaddr_t pa)
{
	return bitmap_is_free(pa) || is_parked(pa);
}
