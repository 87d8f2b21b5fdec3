/*
 * Futexes: the hashed wait queues, FUTEX_WAIT and FUTEX_WAKE.
 *
 * A futex is a user word that user space changes with atomic instructions;
 * the kernel only keeps the sleepers. They wait on a table of hash chains,
 * each with its own spinlock (Linux 2.6's futex_hash_bucket), indexed by the
 * futex's key (key.c). The rule that loses no wake-up (docs/futex.md):
 * the waiter reads the word and queues itself under the bucket's lock, and
 * the waker (who changed the word first) looks for waiters under that lock.
 */
#include "kernel/futex/futex.h"
#include "kernel/futex/futex_internal.h"

#include "kernel/locking/atomic.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/futex.h"

#define FUTEX_HASH_BITS 8
#define FUTEX_HASH_SIZE (1u << FUTEX_HASH_BITS)

static struct futex_bucket futex_buckets[FUTEX_HASH_SIZE];

void futex_init(void)
{
	for (unsigned i = 0; i < FUTEX_HASH_SIZE; i++) {
		/* One line, so one lock class for every bucket (docs/locking.md section 2). */
		spin_lock_init(&futex_buckets[i].lock, "futex_bucket");
		list_init(&futex_buckets[i].chain);
	}
}

/* Fibonacci hashing of the three fields: neighbouring words land in different buckets. */
struct futex_bucket *futex_hash(const struct futex_key *key)
{
	uint32_t h = (uint32_t)key->word ^ ((uint32_t)(uintptr_t)key->ptr * 0x9E3779B1u) ^ key->offset;

	return &futex_buckets[(h * 0x9E3779B1u) >> (32 - FUTEX_HASH_BITS)];
}

/* Lowest address first: any two tasks holding two buckets took them in one order. */
void futex_double_lock(struct futex_bucket *a, struct futex_bucket *b)
{
	if (a > b) {
		struct futex_bucket *t = a;

		a = b;
		b = t;
	}
	spin_lock(&a->lock);
	if (a != b)
		spin_lock_nested(&b->lock, 1);
}

void futex_double_unlock(struct futex_bucket *a, struct futex_bucket *b)
{
	spin_unlock(&a->lock);
	if (a != b)
		spin_unlock(&b->lock);
}

/*
 * q->bucket goes NULL last: the moment it does, the waiter may return and
 * its q (on its stack) is gone. Until then the waiter, whatever woke it,
 * waits for this bucket's lock before it looks (lock_q_bucket()).
 */
void futex_wake_q(struct futex_q *q)
{
	list_del(&q->link);
	wake_up_process(q->task);
	__atomic_store_n(&q->bucket, NULL, __ATOMIC_RELEASE);
}

int futex_wake_locked(struct futex_bucket *b, const struct futex_key *key, int nr, uint32_t bitset)
{
	struct list_head *pos, *tmp;
	int woken = 0;

	assert_spin_held(&b->lock);
	list_for_each_safe(pos, tmp, &b->chain) {
		struct futex_q *q = list_entry(pos, struct futex_q, link);

		if (!futex_key_equal(&q->key, key) || !(q->bitset & bitset))
			continue;
		futex_wake_q(q);
		/* Tested after the wake, as Linux does: nr 0 (or less) still wakes one. */
		if (++woken >= nr)
			break;
	}
	return woken;
}

/* The locked bucket q is queued on, or NULL once a waker dequeued it (requeue may move it meanwhile). */
static struct futex_bucket *lock_q_bucket(struct futex_q *q)
{
	for (;;) {
		struct futex_bucket *b = __atomic_load_n(&q->bucket, __ATOMIC_ACQUIRE);

		if (!b)
			return NULL;
		spin_lock(&b->lock);
		if (b == q->bucket)
			return b;
		spin_unlock(&b->lock);
	}
}

/*
 * Sleep, queued, until a waker dequeues q (0), the deadline passes
 * (-ETIMEDOUT) or a signal comes. TASK_SLEEPING is set BEFORE each look at
 * q, the signals and the clock: whatever happens after the look wakes a
 * sleeper, so schedule() cannot miss it (docs/futex.md).
 */
static int wait_queued(struct futex_q *q, uint64_t deadline)
{
	for (;;) {
		struct futex_bucket *b;
		int r = 0;

		current->state = TASK_SLEEPING;
		smp_mb();
		b = lock_q_bucket(q);
		if (!b) {
			current->state = TASK_RUNNING;
			return 0;
		}
		/*
		 * A signal: with no deadline the call may start again (SA_RESTART);
		 * with one, only if no handler ran, as Linux's restart block.
		 */
		if (task_signal_pending())
			r = deadline ? -ERESTARTNOHAND : -ERESTARTSYS;
		else if (deadline && clock_ns() >= deadline)
			r = -ETIMEDOUT;
		if (r) {
			list_del(&q->link);
			q->bucket = NULL;
			spin_unlock(&b->lock);
			current->state = TASK_RUNNING;
			return r;
		}
		spin_unlock(&b->lock);
		schedule_until(deadline);
	}
}

int futex_wait(uint32_t uaddr, bool shared, uint32_t val, uint64_t deadline, uint32_t bitset)
{
	struct futex_bucket *b;
	struct futex_q q;
	uint32_t cur;
	int r;

	if (!bitset)
		return -EINVAL;
	r = futex_get_key(current->mm, uaddr, shared, &q.key);
	if (r)
		return r;
	might_sleep();
	q.task = current;
	q.bitset = bitset;
	b = futex_hash(&q.key);
	spin_lock(&b->lock);
	/*
	 * Read under the lock: a waker changes the word BEFORE it takes this
	 * lock, so either we see its new value here, or it finds us queued.
	 * A page fault here may take page_table_lock (under ours) but never sleeps.
	 */
	if (get_user_u32(&cur, (const void *)uaddr) < 0) {
		spin_unlock(&b->lock);
		return -EFAULT;
	}
	if (cur != val) {
		spin_unlock(&b->lock);
		return -EAGAIN;
	}
	list_add_tail(&q.link, &b->chain);
	q.bucket = b;
	spin_unlock(&b->lock);
	return wait_queued(&q, deadline);
}

int futex_wake(uint32_t uaddr, bool shared, int nr, uint32_t bitset)
{
	struct futex_key key;
	struct futex_bucket *b;
	int r;

	if (!bitset)
		return -EINVAL;
	r = futex_get_key(current->mm, uaddr, shared, &key);
	if (r)
		return r;
	b = futex_hash(&key);
	spin_lock(&b->lock);
	r = futex_wake_locked(b, &key, nr, bitset);
	spin_unlock(&b->lock);
	return r;
}

/* CLONE_CHILD_CLEARTID at a thread's exit: Linux's mm_release() wakes the tid word's shared waiters. */
int futex_wake_uaddr(struct mm *mm, uint32_t uaddr, int nr)
{
	struct futex_key key;
	struct futex_bucket *b;
	int r;

	r = futex_get_key(mm, uaddr, true, &key);
	if (r)
		return r;
	b = futex_hash(&key);
	spin_lock(&b->lock);
	r = futex_wake_locked(b, &key, nr, FUTEX_BITSET_MATCH_ANY);
	spin_unlock(&b->lock);
	return r;
}

int futex_nr_waiters(struct mm *mm, uint32_t uaddr, bool shared)
{
	struct futex_key key;
	struct futex_bucket *b;
	struct list_head *pos;
	int n = 0;

	if (futex_get_key(mm, uaddr, shared, &key))
		return 0;
	b = futex_hash(&key);
	spin_lock(&b->lock);
	list_for_each(pos, &b->chain)
		if (futex_key_equal(&list_entry(pos, struct futex_q, link)->key, &key))
			n++;
	spin_unlock(&b->lock);
	return n;
}
