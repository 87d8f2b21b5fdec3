// TESTS: kernel/mm/pmm.c
/* The frame allocator's bookkeeping: ranges, reservations, contiguous runs, misuse. */
#include "hosttest.h"
#include "stubs.h"

#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm_bitmap.h"

#define MiB (1024ULL * 1024)

static void expect_panic_on_free(physaddr_t pa, unsigned n)
{
	panic_expected = 1;
	int before = panic_seen;
	if (setjmp(panic_jump) == 0)
		bitmap_free_run(pa, n);
	CHECK(panic_seen == before + 1);
	panic_expected = 0;
}

int main(void)
{
	/* A QEMU-like map: 639 KiB low, then 1 MiB .. 32 MiB. */
	pmm_reset();
	pmm_add_usable(0, 639 * 1024);
	pmm_add_usable(1 * MiB, 32 * MiB);
	pmm_reserve(0, 1 * MiB);
	pmm_reserve(1 * MiB, 2 * MiB + 100);        /* "the kernel", not page-aligned at the end */
	unsigned usable = pmm_usable_count();
	CHECK(usable == 31 * 256 - 257);             /* everything below 2 MiB + 4 KiB is reserved */
	CHECK(bitmap_free_count() == (32 * MiB - 2 * MiB - 4096) / 4096);

	physaddr_t a = bitmap_alloc_run(1);
	CHECK(a >= 2 * MiB + 4096);
	CHECK(a % 4096 == 0);
	CHECK(!bitmap_is_free(a));

	/* A contiguous run really is contiguous and free before. */
	physaddr_t run = bitmap_alloc_run(100);
	CHECK(run != 0);
	for (unsigned i = 0; i < 100; i++)
		CHECK(!bitmap_is_free(run + i * 4096));
	bitmap_free_run(run, 100);
	bitmap_free_run(a, 1);
	CHECK(bitmap_free_count() == (32 * MiB - 2 * MiB - 4096) / 4096);

	/* Misuse panics: double free, freeing a reserved or non-RAM frame, unaligned. */
	a = bitmap_alloc_run(1);
	bitmap_free_run(a, 1);
	expect_panic_on_free(a, 1);
	expect_panic_on_free(0x1000, 1);             /* reserved low memory was never handed out */
	expect_panic_on_free(40 * MiB, 1);           /* not RAM */
	expect_panic_on_free(a + 1, 1);

	/* Exhaustion returns 0, then everything comes back. */
	unsigned nfree = bitmap_free_count(), got = 0;
	static physaddr_t pages[8192];
	while ((pages[got] = bitmap_alloc_run(1)) != 0)
		got++;
	CHECK(got == nfree);
	CHECK(bitmap_free_count() == 0);
	CHECK(bitmap_alloc_run(1) == 0);
	for (unsigned i = 0; i < got; i++)
		bitmap_free_run(pages[i], 1);
	CHECK(bitmap_free_count() == nfree);
	CHECK(bitmap_alloc_run(0) == 0);
	CHECK(bitmap_alloc_run(1000000) == 0);

	/* A batch for a CPU's list: distinct frames, all marked used; given back as a batch. */
	physaddr_t batch[16];
	CHECK(bitmap_take(batch, 16) == 16);
	CHECK(bitmap_free_count() == nfree - 16);
	for (unsigned i = 0; i < 16; i++) {
		CHECK(!bitmap_is_free(batch[i]));
		for (unsigned j = 0; j < i; j++)
			CHECK(batch[i] != batch[j]);
	}
	bitmap_give(batch, 16);
	CHECK(bitmap_free_count() == nfree);
	panic_expected = 1;
	int seen = panic_seen;
	if (setjmp(panic_jump) == 0)
		bitmap_give(batch, 1);                  /* already free */
	CHECK(panic_seen == seen + 1);
	panic_expected = 0;
	/* Fewer than asked for when memory is short: what there is. */
	got = 0;
	while ((pages[got] = bitmap_alloc_run(1)) != 0)
		got++;
	bitmap_free_run(pages[0], 1);
	bitmap_free_run(pages[1], 1);
	CHECK(bitmap_take(batch, 16) == 2);
	CHECK(bitmap_take(batch + 2, 16) == 0);
	bitmap_give(batch, 2);
	for (unsigned i = 2; i < got; i++)
		bitmap_free_run(pages[i], 1);
	CHECK(bitmap_free_count() == nfree);

	/* 3 GiB of RAM: only the direct map is managed; the rest is counted as highmem. */
	pmm_reset();
	pmm_add_usable(1 * MiB, 3072 * MiB);
	CHECK(pmm_usable_count() == (DIRECT_MAP_MAX - 1 * MiB) / 4096);
	CHECK(pmm_highmem_bytes() == 3072 * MiB - DIRECT_MAP_MAX);
	physaddr_t hi = 0, p;
	while ((p = bitmap_alloc_run(1024)) != 0)
		hi = p;
	CHECK(hi + 1024 * 4096 <= DIRECT_MAP_MAX);
	return hosttest_finish("pmm");
}
