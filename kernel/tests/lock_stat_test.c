/*
 * Self-tests of lock_stat (kernel/locking/lock_stat.c): a known number of
 * acquisitions of a class of its own is counted exactly, a contention made
 * certain is counted once with both its points, and the mutex and BKL
 * classes count theirs. Counts only: no time is checked beyond "some".
 */
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/locking/bkl.h"
#include "kernel/locking/lock_stat.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/spinlock.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"

#define ROUNDS 1000

static spinlock_t counted_lock = SPINLOCK_INIT("ktest-lockstat");

static struct lock_class_stats sum_of(const char *name)
{
	struct lock_class_stats s;

	memset(&s, 0, sizeof(s));
	for (const struct lock_class *c = lock_stat_classes(); c; c = c->next)
		if (strcmp(c->name, name) == 0)
			lock_stat_sum(c, &s);
	return s;
}

static struct lock_class *class_named(const char *name)
{
	for (struct lock_class *c = lock_stat_classes(); c; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

KTEST(lock_stat_counts_every_acquisition_of_a_class)
{
	bool was_on = lock_stat_on;
	struct lock_class_stats s;
	struct mutex m;

	lock_stat_set(true);
	lock_stat_reset();
	for (int i = 0; i < ROUNDS; i++) {
		spin_lock(&counted_lock);
		spin_unlock(&counted_lock);
	}
	KT_ASSERT(spin_trylock(&counted_lock));
	spin_unlock(&counted_lock);
	mutex_init(&m, "ktest-lockstat-mutex");
	for (int i = 0; i < ROUNDS / 10; i++) {
		mutex_lock(&m);
		mutex_unlock(&m);
	}
	lock_stat_set(was_on);
	s = sum_of("ktest-lockstat");
	KT_ASSERT_EQ(s.acquisitions, ROUNDS + 1);
	KT_ASSERT_EQ(s.holds, ROUNDS + 1);
	KT_ASSERT_EQ(s.contentions, 0);
	KT_ASSERT(s.hold_total > 0 && s.hold_min <= s.hold_max);
	s = sum_of("&m");                       /* a mutex's class is named by its expression, as Linux's */
	KT_ASSERT_EQ(s.acquisitions, ROUNDS / 10);
	KT_ASSERT_EQ(s.holds, ROUNDS / 10);
}

/* A holder on one CPU keeps the lock until it sees a waiter: one contention, certain. */
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile int phase;
} ct;

static int contention_holder(void *unused)
{
	uint64_t give_up = clock_ns() + 10000000000ULL;     /* a loaded host may hold the waiter back for seconds */

	spin_lock(&counted_lock);
	ct.phase = 1;
	wake_up(&ct.wq);
	while ((uint16_t)(READ_ONCE(counted_lock.next) - READ_ONCE(counted_lock.owner)) < 2 &&
	       clock_ns() < give_up)
		cpu_relax();
	spin_unlock(&counted_lock);
	return group_exit(&ct.g);
}

static int contention_waiter(void *unused)
{
	wait_event(ct.wq, ct.phase == 1);
	spin_lock(&counted_lock);
	spin_unlock(&counted_lock);
	return group_exit(&ct.g);
}

KTEST(lock_stat_counts_a_contention_and_its_points)
{
	int a_cpu = last_online_cpu(), b_cpu = __builtin_ctz(cpu_online_mask());
	bool was_on = lock_stat_on;
	struct lock_class_stats s;
	struct lock_class *c;
	uint64_t bkl_before __attribute__((unused));     /* unused without the BKL (make ERA=2.6.39) */

	if (a_cpu == b_cpu)
		return;                 /* one CPU: nobody to wait */
	lock_stat_set(true);
	lock_stat_reset();
	group_init(&ct.g);
	wait_queue_init(&ct.wq, "ktest-lockstat");
	ct.phase = 0;
	KT_ASSERT(group_start(&ct.g, contention_holder, NULL, "lockstat-holder", a_cpu));
	KT_ASSERT(group_start(&ct.g, contention_waiter, NULL, "lockstat-waiter", b_cpu));
	group_wait(&ct.g);
#ifdef CONFIG_BKL               /* make ERA=2.6.39: no BKL to count */
	bkl_before = sum_of("kernel_flag").acquisitions;
	for (int i = 0; i < 10; i++) {
		lock_kernel();
		unlock_kernel();
	}
#endif
	lock_stat_set(was_on);
	s = sum_of("ktest-lockstat");
	KT_ASSERT_EQ(s.acquisitions, 2);
	KT_ASSERT_EQ(s.contentions, 1);
	KT_ASSERT_EQ(s.con_bounces, 1);         /* it waited for a lock last held on the other CPU */
	KT_ASSERT(s.wait_total > 0 && s.wait_min == s.wait_max);
	c = class_named("ktest-lockstat");
	KT_ASSERT(c != NULL);
	KT_ASSERT(strcmp(c->contention_point[0].file, "kernel/tests/lock_stat_test.c") == 0);
	KT_ASSERT_EQ(c->contention_point[0].count, 1);
	KT_ASSERT(c->contention_point[0].line != c->contending_point[0].line);  /* waiter's and holder's lines */
	KT_ASSERT_EQ(c->contending_point[0].count, 1);
#ifdef CONFIG_BKL
	KT_ASSERT(sum_of("kernel_flag").acquisitions >= bkl_before + 10);
#endif
}
