/* Futex keys: which futex a user address names (struct futex_key, futex_internal.h). */
#include "kernel/futex/futex_internal.h"

#include "kernel/mm/memlayout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/uapi/errno.h"

#define FUTEX_PAGE_MASK (PAGE_SIZE - 1)

/*
 * Linux's get_futex_key(). A private futex is only checked for range. A
 * shared one must also be mapped, and Linux finds out by faulting the page
 * in, so reading the word here answers -EFAULT exactly where Linux does.
 * Then: on a MAP_SHARED page (PTE_SHARED, kernel/mm/mmap.c) the key is the
 * frame and offset, the same in every process that maps the frame; on any
 * other page it is (mm, address) marked shared, Linux's key for an
 * anonymous page (keying a private page by its frame would be wrong: after
 * fork() both processes map it until the first write copies it).
 * Kernel threads (mm NULL: the ktests) have no page tables to look in.
 */
int futex_get_key(struct mm *mm, uint32_t uaddr, bool shared, struct futex_key *key)
{
	uint32_t ignored;
	pte_t pte;

	if (uaddr % sizeof(uint32_t))
		return -EINVAL;
	if (!access_ok((const void *)uaddr, sizeof(uint32_t)))
		return -EFAULT;
	key->ptr = mm;
	key->word = uaddr & ~FUTEX_PAGE_MASK;
	key->offset = uaddr & FUTEX_PAGE_MASK;
	if (!shared)
		return 0;
	if (get_user_u32(&ignored, (const void *)uaddr) < 0)
		return -EFAULT;
	pte = mm ? mm_lookup(mm, uaddr) : 0;
	if (pte & PTE_SHARED) {
		key->ptr = NULL;
		key->word = PTE_ADDR(pte);
		key->offset |= FUTEX_KEY_PHYS;
	} else {
		key->offset |= FUTEX_KEY_MM_SHARED;
	}
	return 0;
}

bool futex_key_equal(const struct futex_key *a, const struct futex_key *b)
{
	return a->word == b->word && a->ptr == b->ptr && a->offset == b->offset;
}
