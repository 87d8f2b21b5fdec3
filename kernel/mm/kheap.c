/*
 * The kernel heap. Small requests (up to 2 KiB) come from size classes of
 * 32..2048 bytes: each class keeps a free list of blocks carved from whole
 * pages. Bigger requests get their own run of pages. Every block starts with
 * a 16-byte header that says which it is, so kfree() needs no size argument
 * and catches double frees and wild pointers.
 */
#include "kernel/mm/kheap.h"

#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/panic.h"
#include "kernel/locking/spinlock.h"

#define MIN_SHIFT 5                     /* 32-byte blocks */
#define MAX_SHIFT 11                    /* 2048-byte blocks */
#define NCLASSES (MAX_SHIFT - MIN_SHIFT + 1)
#define MAGIC_USED 0x6B6D616C            /* "kmal" */
#define MAGIC_FREE 0x66726565            /* "free" */
#define LARGE_CLASS 0xFF

struct block_header {
	uint32_t magic;
	uint32_t class;                 /* size class index, or LARGE_CLASS */
	uint32_t npages;                /* large blocks: pages in the run */
	uint32_t requested;             /* bytes the caller asked for */
};

struct free_block {
	struct block_header h;
	struct free_block *next;
};

/* Protects the free lists and the statistics. */
static spinlock_t heap_lock = SPINLOCK_INIT("kheap");
static struct free_block *free_lists[NCLASSES];
static struct kheap_stats stats;

void kheap_init(void)
{
	for (int i = 0; i < NCLASSES; i++)
		free_lists[i] = NULL;
}

static int class_for(size_t total)
{
	for (int c = 0; c < NCLASSES; c++)
		if (total <= (1u << (MIN_SHIFT + c)))
			return c;
	return -1;
}

/* Carve a fresh page into blocks of class c. Called with heap_lock held. */
static bool refill(int c)
{
	physaddr_t pa = pmm_alloc_page();
	size_t bsize = 1u << (MIN_SHIFT + c);
	char *page;

	if (!pa)
		return false;
	page = P2V(pa);
	for (size_t off = 0; off + bsize <= PAGE_SIZE; off += bsize) {
		struct free_block *b = (struct free_block *)(page + off);
		b->h.magic = MAGIC_FREE;
		b->h.class = c;
		b->next = free_lists[c];
		free_lists[c] = b;
	}
	stats.pages_in_use++;
	return true;
}

static void *alloc_large(size_t total, size_t size)
{
	unsigned npages = ALIGN_UP(total, PAGE_SIZE) / PAGE_SIZE;
	physaddr_t pa = pmm_alloc_pages(npages);
	struct block_header *h;

	if (!pa)
		return NULL;
	h = P2V(pa);
	h->magic = MAGIC_USED;
	h->class = LARGE_CLASS;
	h->npages = npages;
	h->requested = size;
	spin_lock(&heap_lock);
	stats.allocs++;
	stats.bytes_in_use += size;
	stats.pages_in_use += npages;
	spin_unlock(&heap_lock);
	return h + 1;
}

void *kmalloc(size_t size)
{
	size_t total = size + sizeof(struct block_header);
	int c = class_for(total);
	struct free_block *b;

	if (size == 0 || size > DIRECT_MAP_MAX)
		return NULL;
	if (c < 0)
		return alloc_large(total, size);
	spin_lock(&heap_lock);
	if (!free_lists[c] && !refill(c)) {
		spin_unlock(&heap_lock);
		return NULL;
	}
	b = free_lists[c];
	free_lists[c] = b->next;
	if (b->h.magic != MAGIC_FREE)
		panic("kmalloc: heap corrupted: free block %p has magic %08x", b, b->h.magic);
	b->h.magic = MAGIC_USED;
	b->h.requested = size;
	stats.allocs++;
	stats.bytes_in_use += size;
	spin_unlock(&heap_lock);
	return &b->h + 1;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	struct block_header *h;

	if (!p)
		return;
	h = (struct block_header *)p - 1;
	if ((uintptr_t)p % 16 || (uintptr_t)h < KERNEL_BASE)
		panic("kfree: %p was not returned by kmalloc", p);
	if (h->magic == MAGIC_FREE)
		panic("kfree: double free of %p", p);
	if (h->magic != MAGIC_USED)
		panic("kfree: %p was not returned by kmalloc (magic %08x)", p, h->magic);
	spin_lock(&heap_lock);
	stats.frees++;
	stats.bytes_in_use -= h->requested;
	if (h->class == LARGE_CLASS) {
		unsigned npages = h->npages;
		stats.pages_in_use -= npages;
		h->magic = MAGIC_FREE;
		spin_unlock(&heap_lock);
		pmm_free_pages(V2P(h), npages);
		return;
	}
	h->magic = MAGIC_FREE;
	((struct free_block *)h)->next = free_lists[h->class];
	free_lists[h->class] = (struct free_block *)h;
	spin_unlock(&heap_lock);
}

void kheap_get_stats(struct kheap_stats *st)
{
	spin_lock(&heap_lock);
	*st = stats;
	spin_unlock(&heap_lock);
}
