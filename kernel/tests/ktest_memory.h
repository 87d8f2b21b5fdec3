/* Helpers for self-tests that need memory to be short: take every free frame, give them back. */
#ifndef KERNEL_TESTS_KTEST_MEMORY_H
#define KERNEL_TESTS_KTEST_MEMORY_H

#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"

/* Take every free frame; each links to the previous one (a list that costs no memory). */
static inline physaddr_t ktest_hog_all_frames(void)
{
	physaddr_t head = 0, pa;

	while ((pa = pmm_alloc_page()) != 0) {
		*(physaddr_t *)P2V(pa) = head;
		head = pa;
	}
	return head;
}

static inline void ktest_free_hogged_frames(physaddr_t head)
{
	while (head) {
		physaddr_t next = *(physaddr_t *)P2V(head);

		pmm_free_page(head);
		head = next;
	}
}

#endif
