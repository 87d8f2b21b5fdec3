/*
 * The physical page-frame allocator. One bit per 4 KiB frame of the direct map
 * (768 MiB: a 24 KiB bitmap); a set bit means "not available". Allocation is
 * next-fit from where the last one ended, which keeps it short on average.
 * Pure bookkeeping: it never touches the memory it hands out (host-tested).
 */
#include "kernel/mm/pmm.h"

#include "kernel/mm/memlayout.h"
#include "kernel/panic.h"
#include "kernel/locking/spinlock.h"

#define MAX_FRAMES (DIRECT_MAP_MAX / PAGE_SIZE)
#define WORD_BITS 32

/* Protects the bitmap and the counters below. */
static spinlock_t pmm_lock = SPINLOCK_INIT("pmm");
static uint32_t used_bitmap[MAX_FRAMES / WORD_BITS];
static uint32_t owned_bitmap[MAX_FRAMES / WORD_BITS];  /* frames that are usable RAM at all */
static unsigned free_frames, usable_frames, search_hint;
static uint64_t highmem_bytes;

static bool test_bit(const uint32_t *map, unsigned f) { return map[f / WORD_BITS] & (1u << (f % WORD_BITS)); }
static void set_bit(uint32_t *map, unsigned f) { map[f / WORD_BITS] |= 1u << (f % WORD_BITS); }
static void clear_bit(uint32_t *map, unsigned f) { map[f / WORD_BITS] &= ~(1u << (f % WORD_BITS)); }

void pmm_reset(void)
{
	for (unsigned i = 0; i < ARRAY_SIZE(used_bitmap); i++) {
		used_bitmap[i] = ~0u;
		owned_bitmap[i] = 0;
	}
	free_frames = usable_frames = search_hint = 0;
	highmem_bytes = 0;
}

void pmm_add_usable(uint64_t start, uint64_t end)
{
	uint64_t first = ALIGN_UP(start, (uint64_t)PAGE_SIZE);
	uint64_t last = ALIGN_DOWN(end, (uint64_t)PAGE_SIZE);

	if (last <= first)
		return;
	if (last > DIRECT_MAP_MAX) {
		uint64_t high_start = first > DIRECT_MAP_MAX ? first : DIRECT_MAP_MAX;
		highmem_bytes += last - high_start;
		last = DIRECT_MAP_MAX;
	}
	for (uint64_t pa = first; pa < last; pa += PAGE_SIZE) {
		unsigned f = (unsigned)(pa / PAGE_SIZE);
		if (f == 0 || test_bit(owned_bitmap, f))
			continue;       /* frame 0 stays reserved: 0 means "no frame" */
		set_bit(owned_bitmap, f);
		clear_bit(used_bitmap, f);
		usable_frames++;
		free_frames++;
	}
}

void pmm_reserve(uint64_t start, uint64_t end)
{
	uint64_t first = ALIGN_DOWN(start, (uint64_t)PAGE_SIZE);
	uint64_t last = ALIGN_UP(end, (uint64_t)PAGE_SIZE);

	if (last > DIRECT_MAP_MAX)
		last = DIRECT_MAP_MAX;
	/* A reserved frame leaves the allocator for good: freeing it later is a bug it will catch. */
	for (uint64_t pa = first; pa < last; pa += PAGE_SIZE) {
		unsigned f = (unsigned)(pa / PAGE_SIZE);
		if (!test_bit(owned_bitmap, f))
			continue;
		if (!test_bit(used_bitmap, f))
			free_frames--;
		set_bit(used_bitmap, f);
		clear_bit(owned_bitmap, f);
		usable_frames--;
	}
}

/* Is [f, f+n) free? If not, *next is where the search can resume. */
static bool run_is_free(unsigned f, unsigned n, unsigned *next)
{
	for (unsigned i = 0; i < n; i++) {
		if (test_bit(used_bitmap, f + i)) {
			*next = f + i + 1;
			return false;
		}
	}
	return true;
}

static long find_free_run(unsigned n, unsigned from, unsigned to)
{
	unsigned f = from;

	while (f + n <= to) {
		unsigned next;
		/* Skip full words quickly: most of a busy bitmap is all ones. */
		if (f % WORD_BITS == 0 && used_bitmap[f / WORD_BITS] == ~0u) {
			f += WORD_BITS;
			continue;
		}
		if (run_is_free(f, n, &next))
			return f;
		f = next;
	}
	return -1;
}

physaddr_t pmm_alloc_pages(unsigned n)
{
	long f;

	if (n == 0)
		return 0;
	spin_lock(&pmm_lock);
	f = find_free_run(n, search_hint, MAX_FRAMES);
	if (f < 0)
		f = find_free_run(n, 1, MIN(search_hint + n, (unsigned)MAX_FRAMES));
	if (f >= 0) {
		for (unsigned i = 0; i < n; i++)
			set_bit(used_bitmap, (unsigned)f + i);
		free_frames -= n;
		search_hint = (unsigned)f + n;
	}
	spin_unlock(&pmm_lock);
	return f < 0 ? 0 : (physaddr_t)f * PAGE_SIZE;
}

void pmm_free_pages(physaddr_t pa, unsigned n)
{
	unsigned f = pa / PAGE_SIZE;

	if (pa % PAGE_SIZE || f + n > MAX_FRAMES)
		panic("pmm_free_pages: bad address %08x (%u pages)", pa, n);
	spin_lock(&pmm_lock);
	for (unsigned i = 0; i < n; i++) {
		if (!test_bit(owned_bitmap, f + i))
			panic("pmm_free_pages: frame %08x is not RAM the allocator owns", (f + i) * PAGE_SIZE);
		if (!test_bit(used_bitmap, f + i))
			panic("pmm_free_pages: double free of frame %08x", (f + i) * PAGE_SIZE);
		clear_bit(used_bitmap, f + i);
	}
	free_frames += n;
	spin_unlock(&pmm_lock);
}

unsigned pmm_free_count(void) { return free_frames; }
unsigned pmm_usable_count(void) { return usable_frames; }
uint64_t pmm_highmem_bytes(void) { return highmem_bytes; }

bool pmm_is_free(physaddr_t pa)
{
	unsigned f = pa / PAGE_SIZE;

	return f < MAX_FRAMES && !test_bit(used_bitmap, f);
}
