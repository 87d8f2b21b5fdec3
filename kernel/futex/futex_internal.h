/*
 * The insides of futexes, shared by the files of kernel/futex/ and nobody else: keys,
 * the hashed wait queues and the waiters on them. The design and the
 * argument that no wake-up is lost are in docs/futex.md.
 */
#ifndef KERNEL_FUTEX_FUTEX_INTERNAL_H
#define KERNEL_FUTEX_FUTEX_INTERNAL_H

#include "kernel/list.h"
#include "kernel/locking/spinlock.h"
#include "kernel/types.h"

struct mm;
struct task;

/*
 * Which futex a user address names. Two waits meet only if their keys are
 * equal in all three fields:
 *  - private (FUTEX_PRIVATE_FLAG): ptr = the mm, word = the address's page;
 *  - shared, on a private mapping: the same, with FUTEX_KEY_MM_SHARED in
 *    offset, as Linux keys an anonymous page. So a private and a shared
 *    wait at one address are two futexes, as in Linux (a robust lock's
 *    waiters are shared: the death walk wakes shared);
 *  - shared, on a MAP_SHARED page (FUTEX_KEY_PHYS): ptr = NULL, word = the
 *    frame's physical address: every process mapping the frame meets there.
 */
struct futex_key {
	uintptr_t word;
	const void *ptr;
	uint32_t offset;        /* offset in the page (a multiple of 4) | a FUTEX_KEY_ kind bit */
};
#define FUTEX_KEY_MM_SHARED 1u
#define FUTEX_KEY_PHYS      2u

/* One hash chain of waiters. */
struct futex_bucket {
	/*
	 * Protects chain, and the bucket and key fields of every futex_q on it.
	 * One lock class for all buckets ("&futex_buckets[i].lock"); two are
	 * taken together only by futex_double_lock(), in address order.
	 * Never taken in an interrupt; a page fault on the futex word may take
	 * page_table_lock under it (the value is read with the bucket held).
	 */
	spinlock_t lock;
	struct list_head chain;         /* of struct futex_q, oldest first */
};

/* A task waiting on a futex: lives on the waiter's kernel stack for the wait. */
struct futex_q {
	struct list_head link;          /* on bucket->chain */
	struct task *task;
	struct futex_key key;
	uint32_t bitset;                /* FUTEX_WAIT_BITSET's mask; WAKE_BITSET wakes it if they meet */
	/*
	 * The bucket it is queued on, or NULL once a waker has dequeued it. Set
	 * and cleared only with the bucket's lock held; the waiter reads it to
	 * find the lock to take (requeue may have moved it meanwhile).
	 */
	struct futex_bucket *volatile bucket;
};

/* ---- key.c ---- */

/*
 * The key of the futex at uaddr in mm (the caller's). -EINVAL if uaddr is not
 * 4-aligned, -EFAULT if it is not a user address (or, for a shared futex, not
 * mapped), as Linux's get_futex_key().
 */
int futex_get_key(struct mm *mm, uint32_t uaddr, bool shared, struct futex_key *key);
bool futex_key_equal(const struct futex_key *a, const struct futex_key *b);

/* ---- futex.c ---- */

struct futex_bucket *futex_hash(const struct futex_key *key);
/* Two buckets, locked in address order (the same one once): REQUEUE and WAKE_OP hold both. */
void futex_double_lock(struct futex_bucket *a, struct futex_bucket *b);
void futex_double_unlock(struct futex_bucket *a, struct futex_bucket *b);
/* Dequeue q and wake its task. q's bucket lock is held. */
void futex_wake_q(struct futex_q *q);
/* Wake up to nr waiters of key whose bitset meets bitset; b is key's bucket, locked. Returns how many. */
int futex_wake_locked(struct futex_bucket *b, const struct futex_key *key, int nr, uint32_t bitset);
/*
 * FUTEX_WAIT_BITSET: sleep on the futex at uaddr while it holds val, until a
 * wake meets bitset, deadline (clock_ns(), 0: none) passes, or a signal comes.
 * 0, -EAGAIN (the value differed), -ETIMEDOUT, -ERESTARTSYS / -ERESTARTNOHAND
 * (a signal), -EFAULT, -EINVAL.
 */
int futex_wait(uint32_t uaddr, bool shared, uint32_t val, uint64_t deadline, uint32_t bitset);
/* FUTEX_WAKE_BITSET: wake up to nr waiters (at least one, as Linux) of uaddr's futex. */
int futex_wake(uint32_t uaddr, bool shared, int nr, uint32_t bitset);

/* ---- futex_ops.c ---- */

/* FUTEX_REQUEUE (cmpval NULL) and FUTEX_CMP_REQUEUE. Woken plus requeued, or -errno. */
int futex_requeue(uint32_t uaddr, bool shared, uint32_t uaddr2, int nr_wake, int nr_requeue,
		  const uint32_t *cmpval);
/* FUTEX_WAKE_OP. Woken on both, or -errno. */
int futex_wake_op(uint32_t uaddr, bool shared, uint32_t uaddr2, int nr_wake, int nr_wake2, uint32_t op);

#endif
