/*
 * An ABBA deadlock on purpose, for gdb's `smpix deadlock` to find: two
 * kernel threads take two mutexes in opposite orders, and both sleep for
 * ever. Explicit (test=abba_deadlock_planted): it leaves the kernel with two
 * threads that never end.
 */
#include "kernel/ktest.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/time/timer.h"

static struct mutex ledger_a, ledger_b;
static atomic_t holding;                /* threads that hold their first mutex */

/* Take first, wait until the other thread holds its first too, then take second: ABBA. */
static void take_in_order(struct mutex *first, struct mutex *second)
{
	mutex_lock(first);
	atomic_inc(&holding);
	while (atomic_read(&holding) < 2)
		sched_sleep_ns(1000000);
	mutex_lock(second);             /* never returns */
	mutex_unlock(second);
	mutex_unlock(first);
}

static int thread_ab(void *arg)
{
	take_in_order(&ledger_a, &ledger_b);
	return 0;
}

static int thread_ba(void *arg)
{
	take_in_order(&ledger_b, &ledger_a);
	return 0;
}

/* Where gdb stops: both threads are asleep in mutex_lock() for each other's mutex. */
void __attribute__((noinline)) ktest_deadlock_planted(struct task *a, struct task *b)
{
	printk("ktest: ABBA deadlock planted: pid %d and pid %d\n", a->pid, b->pid);
}

KTEST_CRASH(abba_deadlock_planted)
{
	struct task *a, *b;
	uint64_t start = clock_ns();

	mutex_init(&ledger_a, "ledger-a");
	mutex_init(&ledger_b, "ledger-b");
	atomic_set(&holding, 0);
	a = kthread_create(thread_ab, NULL, "abba-ab");
	b = kthread_create(thread_ba, NULL, "abba-ba");
	KT_ASSERT(a && b);
	while (!(READ_ONCE(a->blocked_on) && READ_ONCE(b->blocked_on)) && clock_ns() - start < 10000000000ULL)
		sched_sleep_ns(1000000);
	KT_ASSERT(READ_ONCE(a->blocked_on) == &ledger_b && READ_ONCE(b->blocked_on) == &ledger_a);
	ktest_deadlock_planted(a, b);
}
