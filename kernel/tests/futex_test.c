/*
 * Futexes (kernel/futex/): no wake-up lost between CPUs, and the edge cases
 * of WAIT, REQUEUE, WAKE_OP and the robust list. The futex words are kernel
 * memory: each thread sets uaccess_kernel, as kernel_read() does, so the
 * user-access functions take kernel addresses; kernel threads have no mm, so
 * every key here is (NULL, address).
 */
#include "kernel/futex/futex.h"
#include "kernel/futex/futex_internal.h"
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/futex.h"

#define MS 1000000ULL
#define FAR_DEADLINE() (clock_ns() + 5000 * MS)

#define A(p) ((uint32_t)(uintptr_t)(p))

/* ---- a waiter thread: one futex_wait(), its answer kept ---- */

struct waiter_arg {
	struct thread_group *g;
	volatile uint32_t *word;
	uint32_t val;
	bool shared;
	volatile int result;
	volatile bool done;
};

static int waiter_thread(void *p)
{
	struct waiter_arg *w = p;

	current->uaccess_kernel = true;
	w->result = futex_wait(A(w->word), w->shared, w->val, FAR_DEADLINE(), FUTEX_BITSET_MATCH_ANY);
	w->done = true;
	return group_exit(w->g);
}

static void start_waiter(struct thread_group *g, struct waiter_arg *w, volatile uint32_t *word,
			 bool shared, int cpu)
{
	w->g = g;
	w->word = word;
	w->val = *word;
	w->shared = shared;
	w->result = 1;
	w->done = false;
	group_start(g, waiter_thread, w, "futex-waiter", cpu);
}

/* Sleep until n tasks wait on word (they need a moment to get there); false after 5 s. */
static bool wait_for_waiters(volatile uint32_t *word, bool shared, int n)
{
	for (int i = 0; i < 500; i++) {
		if (futex_nr_waiters(NULL, A(word), shared) == n)
			return true;
		sched_sleep_ns(10 * MS);
	}
	return false;
}

/* ---- the hammer: a token passed round a ring of threads on every CPU ---- */

#define RING_THREADS 4
#define RING_ROUNDS 200

static struct {
	struct thread_group g;
	volatile uint32_t turn;         /* thread turn % RING_THREADS has the token */
	volatile int lost;              /* waits that timed out: a lost wake-up */
	volatile int eagain;
} ring;

/*
 * Thread k sleeps on its own bit of the bitset until it holds the token,
 * passes it on (the word first, then the wake, as user space does) and
 * wakes exactly the next thread. A wake-up lost in any window (the value
 * read, the queueing, the sleep) leaves the next thread asleep until its
 * deadline: counted, and the test fails.
 */
static int ring_thread(void *p)
{
	uint32_t k = (uint32_t)(uintptr_t)p, last = RING_THREADS * RING_ROUNDS;

	current->uaccess_kernel = true;
	for (;;) {
		uint32_t v = READ_ONCE(ring.turn);

		if (v >= last)
			break;
		if (v % RING_THREADS != k) {
			int r = futex_wait(A(&ring.turn), false, v, clock_ns() + 5000 * MS, 1u << k);

			if (r == -ETIMEDOUT)
				__atomic_fetch_add(&ring.lost, 1, __ATOMIC_RELAXED);
			if (r == -EAGAIN)
				__atomic_fetch_add(&ring.eagain, 1, __ATOMIC_RELAXED);
			continue;
		}
		__atomic_store_n(&ring.turn, v + 1, __ATOMIC_SEQ_CST);
		futex_wake(A(&ring.turn), false, 1, 1u << ((k + 1) % RING_THREADS));
	}
	/* The last pass woke one thread; wake them all to see the end. */
	futex_wake(A(&ring.turn), false, RING_THREADS, FUTEX_BITSET_MATCH_ANY);
	return group_exit(&ring.g);
}

KTEST(futex_wait_wake_ring_loses_no_wakeup)
{
	int online = last_online_cpu() + 1;      /* CPUs 0..n-1 */
	uint64_t t0 = clock_ns();

	group_init(&ring.g);
	ring.turn = 0;
	ring.lost = ring.eagain = 0;
	for (int k = 0; k < RING_THREADS; k++)
		KT_ASSERT(group_start(&ring.g, ring_thread, (void *)(uintptr_t)k, "futex-ring", k % online));
	group_wait(&ring.g);
	printk("futex ring: %d passes on %d CPUs in %u ms, %d waits found the token moved (-EAGAIN)\n",
	       RING_THREADS * RING_ROUNDS, online, (unsigned)((clock_ns() - t0) / MS), ring.eagain);
	KT_ASSERT_EQ(ring.lost, 0);
	KT_ASSERT_EQ(ring.turn, RING_THREADS * RING_ROUNDS);
	KT_ASSERT_EQ(futex_nr_waiters(NULL, A(&ring.turn), false), 0);
}

/* ---- WAIT's answers without a waker ---- */

KTEST(futex_wait_answers_eagain_etimedout_einval)
{
	static volatile uint32_t word = 7;
	bool saved = current->uaccess_kernel;
	uint64_t t0;
	int r;

	current->uaccess_kernel = true;
	r = futex_wait(A(&word), false, 8, 0, FUTEX_BITSET_MATCH_ANY);
	KT_ASSERT_EQ(r, -EAGAIN);
	t0 = clock_ns();
	r = futex_wait(A(&word), false, 7, t0 + 30 * MS, FUTEX_BITSET_MATCH_ANY);
	KT_ASSERT_EQ(r, -ETIMEDOUT);
	KT_ASSERT(clock_ns() - t0 >= 30 * MS);
	KT_ASSERT_EQ(futex_wait(A(&word), false, 7, 1, FUTEX_BITSET_MATCH_ANY), -ETIMEDOUT);
	KT_ASSERT_EQ(futex_wait(A(&word) + 1, false, 7, 0, FUTEX_BITSET_MATCH_ANY), -EINVAL);
	KT_ASSERT_EQ(futex_wait(A(&word), false, 7, 0, 0), -EINVAL);
	KT_ASSERT_EQ(futex_wake(A(&word), false, 1, 0), -EINVAL);
	KT_ASSERT_EQ(futex_wake(A(&word), false, 1, FUTEX_BITSET_MATCH_ANY), 0);
	KT_ASSERT_EQ(futex_nr_waiters(NULL, A(&word), false), 0);
	current->uaccess_kernel = saved;
}

/* ---- REQUEUE and CMP_REQUEUE ---- */

KTEST(futex_cmp_requeue_wakes_some_and_moves_the_rest)
{
	static volatile uint32_t a, b;
	static struct waiter_arg w[3];
	struct thread_group g;
	bool saved = current->uaccess_kernel;
	int online = last_online_cpu() + 1;      /* CPUs 0..n-1 */
	uint32_t cmp;

	current->uaccess_kernel = true;
	a = 0;
	b = 100;
	group_init(&g);
	for (int i = 0; i < 3; i++)
		start_waiter(&g, &w[i], &a, false, i % online);
	KT_ASSERT(wait_for_waiters(&a, false, 3));
	cmp = 1;        /* the word is 0: CMP_REQUEUE refuses */
	KT_ASSERT_EQ(futex_requeue(A(&a), false, A(&b), 1, 1, &cmp), -EAGAIN);
	KT_ASSERT_EQ(futex_requeue(A(&a), false, A(&b), -1, 1, NULL), -EINVAL);
	KT_ASSERT_EQ(futex_requeue(A(&a), false, A(&b), 1, -1, NULL), -EINVAL);
	KT_ASSERT_EQ(futex_requeue(A(&a), false, A(&b) + 2, 1, 1, NULL), -EINVAL);
	KT_ASSERT_EQ(futex_requeue(A(&a), false, A(&b), 0, 0, NULL), 0);
	/* Onto itself, waking nobody: a count of the waiters, each left where it was. */
	KT_ASSERT_EQ(futex_requeue(A(&a), false, A(&a), 0, 0x7fffffff, NULL), 3);
	KT_ASSERT_EQ(futex_nr_waiters(NULL, A(&a), false), 3);
	cmp = 0;        /* one woken, one moved to b, one left on a */
	KT_ASSERT_EQ(futex_requeue(A(&a), false, A(&b), 1, 1, &cmp), 2);
	KT_ASSERT_EQ(futex_nr_waiters(NULL, A(&a), false), 1);
	KT_ASSERT_EQ(futex_nr_waiters(NULL, A(&b), false), 1);
	/* The one moved is woken by a wake on b (not on a), though it waited with a's value. */
	KT_ASSERT_EQ(futex_wake(A(&b), false, 10, FUTEX_BITSET_MATCH_ANY), 1);
	KT_ASSERT_EQ(futex_wake(A(&a), false, 10, FUTEX_BITSET_MATCH_ANY), 1);
	group_wait(&g);
	for (int i = 0; i < 3; i++)
		KT_ASSERT_EQ(w[i].result, 0);
	current->uaccess_kernel = saved;
}

/* ---- WAKE_OP ---- */

static struct {
	volatile uint32_t a, b;
	struct waiter_arg wa, wb;
	struct thread_group g;
} wop;

/* One waiter on a and one on b, then FUTEX_WAKE_OP(a, b, 1, 1, op): what it returned. */
static int wake_op_with_waiters(uint32_t op, bool *b_woken)
{
	int r;

	group_init(&wop.g);
	start_waiter(&wop.g, &wop.wa, &wop.a, false, -1);
	start_waiter(&wop.g, &wop.wb, &wop.b, false, -1);
	if (!wait_for_waiters(&wop.a, false, 1) || !wait_for_waiters(&wop.b, false, 1))
		return -1000;
	r = futex_wake_op(A(&wop.a), false, A(&wop.b), 1, 1, op);
	*b_woken = futex_nr_waiters(NULL, A(&wop.b), false) == 0;
	futex_wake(A(&wop.b), false, 1, FUTEX_BITSET_MATCH_ANY);
	futex_wake(A(&wop.a), false, 1, FUTEX_BITSET_MATCH_ANY);
	group_wait(&wop.g);
	return r;
}

KTEST(futex_wake_op_computes_and_compares_as_linux)
{
	bool saved = current->uaccess_kernel, b_woken;

	current->uaccess_kernel = true;
	wop.b = 5;      /* 5 + 3 = 8; the old value 5 == 5: both woken */
	KT_ASSERT_EQ(wake_op_with_waiters(FUTEX_OP(FUTEX_OP_ADD, 3, FUTEX_OP_CMP_EQ, 5), &b_woken), 2);
	KT_ASSERT(b_woken);
	KT_ASSERT_EQ(wop.b, 8);
	/* 8 | 1 = 9; 8 > 100 is false: only a's waiter */
	KT_ASSERT_EQ(wake_op_with_waiters(FUTEX_OP(FUTEX_OP_OR, 1, FUTEX_OP_CMP_GT, 100), &b_woken), 1);
	KT_ASSERT(!b_woken);
	KT_ASSERT_EQ(wop.b, 9);
	/* 9 & ~1 = 8; 12-bit -1 sign-extends: 9 >= -1 */
	KT_ASSERT_EQ(wake_op_with_waiters(FUTEX_OP(FUTEX_OP_ANDN, 1, FUTEX_OP_CMP_GE, -1), &b_woken), 2);
	KT_ASSERT_EQ(wop.b, 8);
	/* 8 ^ (1 << 4) = 24; 8 < 8 is false */
	KT_ASSERT_EQ(wake_op_with_waiters(FUTEX_OP(FUTEX_OP_XOR | FUTEX_OP_OPARG_SHIFT, 4,
						   FUTEX_OP_CMP_LT, 8), &b_woken), 1);
	KT_ASSERT_EQ(wop.b, 24);
	/* set -2 (0xfffffffe); 24 != 24 is false, 24 <= 24 true */
	KT_ASSERT_EQ(wake_op_with_waiters(FUTEX_OP(FUTEX_OP_SET, -2, FUTEX_OP_CMP_LE, 24), &b_woken), 2);
	KT_ASSERT_EQ(wop.b, 0xfffffffeu);
	/* An unknown operation writes nothing; an unknown comparison is found after the write. */
	wop.b = 1;
	KT_ASSERT_EQ(futex_wake_op(A(&wop.a), false, A(&wop.b), 1, 1, FUTEX_OP(5, 1, FUTEX_OP_CMP_EQ, 0)),
		     -ENOSYS);
	KT_ASSERT_EQ(wop.b, 1);
	KT_ASSERT_EQ(futex_wake_op(A(&wop.a), false, A(&wop.b), 1, 1, FUTEX_OP(FUTEX_OP_ADD, 1, 6, 0)),
		     -ENOSYS);
	KT_ASSERT_EQ(wop.b, 2);
	KT_ASSERT_EQ(futex_wake_op(A(&wop.a), false, A(&wop.b) + 1, 1, 1, 0), -EINVAL);
	current->uaccess_kernel = saved;
}

/* ---- the robust list at a thread's death ---- */

struct robust_lock {
	uint32_t next;          /* struct robust_list: the list link, at the start */
	uint32_t word;          /* the futex: futex_offset 4 */
};

KTEST(futex_robust_list_marks_owner_died_and_wakes)
{
	static struct robust_list_head_32 head;
	static struct robust_lock mine, theirs, pending, cyclic;
	static struct waiter_arg w1, w2;
	struct thread_group g;
	bool saved = current->uaccess_kernel;
	uint32_t saved_list = current->robust_list, me = (uint32_t)current->pid;

	current->uaccess_kernel = true;
	/* head -> mine -> theirs -> head; pending: released (0) just before the death */
	head.next = A(&mine);
	head.futex_offset = 4;
	head.list_op_pending = A(&pending);
	mine.next = A(&theirs);
	mine.word = me | FUTEX_WAITERS;
	theirs.next = A(&head);
	theirs.word = me + 1000;
	pending.next = A(&head);
	pending.word = 0;
	group_init(&g);
	start_waiter(&g, &w1, (volatile uint32_t *)&mine.word, true, -1);
	start_waiter(&g, &w2, (volatile uint32_t *)&pending.word, true, -1);
	KT_ASSERT(wait_for_waiters((volatile uint32_t *)&mine.word, true, 1));
	KT_ASSERT(wait_for_waiters((volatile uint32_t *)&pending.word, true, 1));

	current->robust_list = A(&head);
	futex_exit_robust_list(current);
	group_wait(&g);
	KT_ASSERT_EQ(mine.word, FUTEX_OWNER_DIED | FUTEX_WAITERS);
	KT_ASSERT_EQ(theirs.word, me + 1000);
	KT_ASSERT_EQ(w1.result, 0);
	KT_ASSERT_EQ(w2.result, 0);

	/* A list that loops back on itself ends after ROBUST_LIST_LIMIT entries. */
	cyclic.next = A(&cyclic);
	cyclic.word = me;
	head.next = A(&cyclic);
	head.list_op_pending = 0;
	futex_exit_robust_list(current);
	KT_ASSERT_EQ(cyclic.word, FUTEX_OWNER_DIED);
	current->robust_list = saved_list;
	current->uaccess_kernel = saved;
}
