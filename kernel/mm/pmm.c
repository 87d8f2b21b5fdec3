/*
 * The physical page-frame allocator's bitmap (the CPUs' lists in front of
 * it are kernel/mm/pmm_percpu.c). One bit per 4 KiB frame of the direct map
 * (768 MiB: a 24 KiB bitmap); a set bit means "not available". Allocation is
 * next-fit from where the last one ended, which keeps it short on average.
 * Pure bookkeeping: it never touches the memory it hands out (host-tested).
 */
#include "kernel/mm/pmm_bitmap.h"

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
static unsigned frames_end;     /* one past the highest frame of RAM: no search looks beyond it */
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
	free_frames = usable_frames = search_hint = frames_end = 0;
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
		frames_end = MAX(frames_end, f + 1);
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

/*
 * Find n free frames in a row, next-fit from search_hint, and mark them used:
 * the first one, or -1. Needs pmm_lock. Out of memory is the common case
 * under pressure, when every faulting task retries each tick: it is said at
 * once rather than found by a scan of the whole bitmap with the lock held
 * (the other CPUs' frees wait for it).
 */
static long take_run_locked(unsigned n)
{
	long f;

	if (free_frames < n)
		return -1;
	f = find_free_run(n, search_hint, frames_end);
	if (f < 0)
		f = find_free_run(n, 1, MIN(search_hint + n, frames_end));
	if (f < 0)
		return -1;
	for (unsigned i = 0; i < n; i++)
		set_bit(used_bitmap, (unsigned)f + i);
	free_frames -= n;
	search_hint = (unsigned)f + n;
	return f;
}

physaddr_t bitmap_alloc_run(unsigned n)
{
	long f;

	if (n == 0)
		return 0;
	spin_lock(&pmm_lock);
	f = take_run_locked(n);
	spin_unlock(&pmm_lock);
	return f < 0 ? 0 : (physaddr_t)f * PAGE_SIZE;
}

/* Check and clear frame f. Needs pmm_lock. */
static void free_one_locked(unsigned f)
{
	if (f >= MAX_FRAMES || !test_bit(owned_bitmap, f))
		panic("pmm_free_pages: frame %08x is not RAM the allocator owns", f * PAGE_SIZE);
	if (!test_bit(used_bitmap, f))
		panic("pmm_free_pages: double free of frame %08x", f * PAGE_SIZE);
	clear_bit(used_bitmap, f);
	free_frames++;
}

void bitmap_free_run(physaddr_t pa, unsigned n)
{
	unsigned f = pa / PAGE_SIZE;

	if (pa % PAGE_SIZE || f + n > MAX_FRAMES)
		panic("pmm_free_pages: bad address %08x (%u pages)", pa, n);
	spin_lock(&pmm_lock);
	for (unsigned i = 0; i < n; i++)
		free_one_locked(f + i);
	spin_unlock(&pmm_lock);
}

unsigned bitmap_take(physaddr_t *frames, unsigned n)
{
	unsigned got = 0;
	long f;

	spin_lock(&pmm_lock);
	while (got < n && (f = take_run_locked(1)) >= 0)
		frames[got++] = (physaddr_t)f * PAGE_SIZE;
	spin_unlock(&pmm_lock);
	return got;
}

void bitmap_give(const physaddr_t *frames, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (frames[i] % PAGE_SIZE)
			panic("pmm_free_pages: bad address %08x", frames[i]);
	spin_lock(&pmm_lock);
	for (unsigned i = 0; i < n; i++)
		free_one_locked(frames[i] / PAGE_SIZE);
	spin_unlock(&pmm_lock);
}

unsigned bitmap_free_count(void) { return free_frames; }
unsigned pmm_usable_count(void) { return usable_frames; }
uint64_t pmm_highmem_bytes(void) { return highmem_bytes; }

bool bitmap_is_free(physaddr_t pa)
{
	unsigned f = pa / PAGE_SIZE;

	return f < MAX_FRAMES && !test_bit(used_bitmap, f);
}
