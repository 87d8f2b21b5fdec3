// TESTS: kernel/mm/pmm.c
/* The frame allocator's bookkeeping: ranges, reservations, contiguous runs, misuse. */
#include "hosttest.h"
#include "stubs.h"

#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"

#define MiB (1024ULL * 1024)

static void expect_panic_on_free(physaddr_t pa, unsigned n)
{
	panic_expected = 1;
	int before = panic_seen;
	if (setjmp(panic_jump) == 0)
		pmm_free_pages(pa, n);
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
	CHECK(pmm_free_count() == (32 * MiB - 2 * MiB - 4096) / 4096);

	physaddr_t a = pmm_alloc_page();
	CHECK(a >= 2 * MiB + 4096);
	CHECK(a % 4096 == 0);
	CHECK(!pmm_is_free(a));

	/* A contiguous run really is contiguous and free before. */
	physaddr_t run = pmm_alloc_pages(100);
	CHECK(run != 0);
	for (unsigned i = 0; i < 100; i++)
		CHECK(!pmm_is_free(run + i * 4096));
	pmm_free_pages(run, 100);
	pmm_free_page(a);
	CHECK(pmm_free_count() == (32 * MiB - 2 * MiB - 4096) / 4096);

	/* Misuse panics: double free, freeing a reserved or non-RAM frame, unaligned. */
	a = pmm_alloc_page();
	pmm_free_page(a);
	expect_panic_on_free(a, 1);
	expect_panic_on_free(0x1000, 1);             /* reserved low memory was never handed out */
	expect_panic_on_free(40 * MiB, 1);           /* not RAM */
	expect_panic_on_free(a + 1, 1);

	/* Exhaustion returns 0, then everything comes back. */
	unsigned nfree = pmm_free_count(), got = 0;
	static physaddr_t pages[8192];
	while ((pages[got] = pmm_alloc_page()) != 0)
		got++;
	CHECK(got == nfree);
	CHECK(pmm_free_count() == 0);
	CHECK(pmm_alloc_pages(1) == 0);
	for (unsigned i = 0; i < got; i++)
		pmm_free_page(pages[i]);
	CHECK(pmm_free_count() == nfree);
	CHECK(pmm_alloc_pages(0) == 0);
	CHECK(pmm_alloc_pages(1000000) == 0);

	/* 3 GiB of RAM: only the direct map is managed; the rest is counted as highmem. */
	pmm_reset();
	pmm_add_usable(1 * MiB, 3072 * MiB);
	CHECK(pmm_usable_count() == (DIRECT_MAP_MAX - 1 * MiB) / 4096);
	CHECK(pmm_highmem_bytes() == 3072 * MiB - DIRECT_MAP_MAX);
	physaddr_t hi = 0, p;
	while ((p = pmm_alloc_pages(1024)) != 0)
		hi = p;
	CHECK(hi + 1024 * 4096 <= DIRECT_MAP_MAX);
	return hosttest_finish("pmm");
}
