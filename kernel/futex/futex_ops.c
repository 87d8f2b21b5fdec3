/*
 * The futex operations on two words: FUTEX_REQUEUE and FUTEX_CMP_REQUEUE
 * (wake some waiters, move the rest to another futex without waking them:
 * a condition variable's broadcast hands its waiters to the mutex instead of
 * letting them all stampede for it), and FUTEX_WAKE_OP (change one word and
 * wake on two, in one call: a condition variable's signal with the mutex).
 */
#include "kernel/futex/futex_internal.h"

#include "kernel/mm/uaccess.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/futex.h"

/*
 * Move q to key2, on bucket b2; both buckets' locks are held. Within one
 * bucket (both keys hash there, or they are one futex) it stays in place:
 * moving it to the tail would bring it round again in the caller's walk.
 */
static void requeue_q(struct futex_q *q, struct futex_bucket *b2, const struct futex_key *key2)
{
	if (q->bucket != b2) {
		list_del(&q->link);
		list_add_tail(&q->link, &b2->chain);
		q->bucket = b2;
	}
	q->key = *key2;
}

int futex_requeue(uint32_t uaddr, bool shared, uint32_t uaddr2, int nr_wake, int nr_requeue,
		  const uint32_t *cmpval)
{
	struct futex_key key1, key2;
	struct futex_bucket *b1, *b2;
	struct list_head *pos, *tmp;
	uint32_t cur;
	int count = 0, r;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	r = futex_get_key(current->mm, uaddr, shared, &key1);
	if (!r)
		r = futex_get_key(current->mm, uaddr2, shared, &key2);
	if (r)
		return r;
	b1 = futex_hash(&key1);
	b2 = futex_hash(&key2);
	futex_double_lock(b1, b2);
	/* CMP_REQUEUE: the word is compared under the lock, as FUTEX_WAIT reads it (docs/futex.md). */
	if (cmpval) {
		if (get_user_u32(&cur, (const void *)uaddr) < 0) {
			r = -EFAULT;
			goto out;
		}
		if (cur != *cmpval) {
			r = -EAGAIN;
			goto out;
		}
	}
	list_for_each_safe(pos, tmp, &b1->chain) {
		struct futex_q *q = list_entry(pos, struct futex_q, link);

		if (count - nr_wake >= nr_requeue)
			break;
		if (!futex_key_equal(&q->key, &key1))
			continue;
		if (++count <= nr_wake)
			futex_wake_q(q);
		else
			requeue_q(q, b2, &key2);
	}
	r = count;
out:
	futex_double_unlock(b1, b2);
	return r;
}

/* Sign-extend a 12-bit field of FUTEX_WAKE_OP's encoding. */
static int32_t sext12(uint32_t v)
{
	return (int32_t)(v << 20) >> 20;
}

/* The new value of the word: -ENOSYS for an operation Linux does not know. */
static int apply_op(unsigned op, uint32_t old, uint32_t arg, uint32_t *new)
{
	switch (op) {
	case FUTEX_OP_SET:  *new = arg; return 0;
	case FUTEX_OP_ADD:  *new = old + arg; return 0;
	case FUTEX_OP_OR:   *new = old | arg; return 0;
	case FUTEX_OP_ANDN: *new = old & ~arg; return 0;
	case FUTEX_OP_XOR:  *new = old ^ arg; return 0;
	default:            return -ENOSYS;
	}
}

/* Does the old value pass the comparison? 1 or 0, -ENOSYS for a comparison Linux does not know. */
static int compare(unsigned cmp, int32_t old, int32_t arg)
{
	switch (cmp) {
	case FUTEX_OP_CMP_EQ: return old == arg;
	case FUTEX_OP_CMP_NE: return old != arg;
	case FUTEX_OP_CMP_LT: return old < arg;
	case FUTEX_OP_CMP_LE: return old <= arg;
	case FUTEX_OP_CMP_GT: return old > arg;
	case FUTEX_OP_CMP_GE: return old >= arg;
	default:              return -ENOSYS;
	}
}

/*
 * Change *uaddr2 atomically as encoded, and say whether its old value passes
 * the comparison. As in Linux, an unknown operation writes nothing, but an
 * unknown comparison is found only after the write. A shift beyond 31 is
 * taken modulo 32 (Linux logs it and does the same).
 */
static int atomic_op_user(uint32_t encoded, uint32_t uaddr2)
{
	unsigned op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
	int32_t oparg = sext12(encoded >> 12), cmparg = sext12(encoded);
	uint32_t old, seen, new;
	int r;

	if (encoded & (FUTEX_OP_OPARG_SHIFT << 28))
		oparg = (int32_t)(1u << (oparg & 31));
	if (apply_op(op, 0, 0, &new))
		return -ENOSYS;         /* before any access, as Linux's switch */
	if (get_user_u32(&old, (const void *)uaddr2) < 0)
		return -EFAULT;
	for (;;) {
		r = apply_op(op, old, (uint32_t)oparg, &new);
		if (r)
			return r;
		if (cmpxchg_user_u32((uint32_t *)uaddr2, old, new, &seen) < 0)
			return -EFAULT;
		if (seen == old)
			break;
		old = seen;     /* user space changed it meanwhile: again with its value */
	}
	return compare(cmp, (int32_t)old, cmparg);
}

int futex_wake_op(uint32_t uaddr, bool shared, uint32_t uaddr2, int nr_wake, int nr_wake2, uint32_t op)
{
	struct futex_key key1, key2;
	struct futex_bucket *b1, *b2;
	int r, woken, pass;

	r = futex_get_key(current->mm, uaddr, shared, &key1);
	if (!r)
		r = futex_get_key(current->mm, uaddr2, shared, &key2);
	if (r)
		return r;
	b1 = futex_hash(&key1);
	b2 = futex_hash(&key2);
	/*
	 * The change to uaddr2 is made with both buckets held, so a waiter on
	 * uaddr2 that read the old value is already queued and is found below.
	 */
	futex_double_lock(b1, b2);
	pass = atomic_op_user(op, uaddr2);
	if (pass < 0) {
		futex_double_unlock(b1, b2);
		return pass;
	}
	woken = futex_wake_locked(b1, &key1, nr_wake, FUTEX_BITSET_MATCH_ANY);
	if (pass)
		woken += futex_wake_locked(b2, &key2, nr_wake2, FUTEX_BITSET_MATCH_ANY);
	futex_double_unlock(b1, b2);
	return woken;
}
