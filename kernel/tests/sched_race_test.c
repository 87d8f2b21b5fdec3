/*
 * Regression tests for scheduler races found in review: each one hung or
 * crashed the kernel before it was fixed.
 */
#include "kernel/locking/bkl.h"
#include "kernel/ktest.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"

/*
 * A task preempted inside wait_event(), after it marked itself asleep while
 * its (already true) condition was being evaluated, must run again: a
 * preemption is not a sleep.
 */
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile bool done, stop;
} pre;

static bool slow_true_condition(void)
{
	mdelay(30);             /* longer than a tick: the tick lands in here */
	return true;
}

static int preempted_waiter(void *unused)
{
	wait_event(pre.wq, slow_true_condition());
	pre.done = true;
	return group_exit(&pre.g);
}

static int busy_neighbour(void *unused)
{
	while (!READ_ONCE(pre.stop))
		cpu_relax();
	return group_exit(&pre.g);
}

KTEST(sched_preempted_while_going_to_sleep_runs_again)
{
	group_init(&pre.g);
	wait_queue_init(&pre.wq, "ktest-preempt");
	pre.done = pre.stop = false;
	KT_ASSERT(group_start(&pre.g, busy_neighbour, NULL, "neighbour", 0));
	KT_ASSERT(group_start(&pre.g, preempted_waiter, NULL, "waiter", 0));
	/* A bound for a waiter that never runs again, not a timing test: 10 s (4 vCPUs on a loaded host). */
	for (int i = 0; i < 1000 && !READ_ONCE(pre.done); i++)
		sched_sleep_ns(10 * 1000 * 1000);
	pre.stop = true;
	KT_ASSERT(pre.done);
	group_wait(&pre.g);
}

#ifdef CONFIG_BKL       /* make ERA=2.6.39: no BKL */
/* BKL holders that yield (and get preempted) inside their critical sections. */
#define YIELD_ROUNDS 300
static struct thread_group yield_group;
static volatile unsigned long yield_counter;

static int bkl_yielding_worker(void *unused)
{
	for (int i = 0; i < YIELD_ROUNDS; i++) {
		lock_kernel();
		unsigned long v = yield_counter;
		sched_yield();          /* switched out and back in, holding the BKL */
		yield_counter = v + 1;
		unlock_kernel();
	}
	return group_exit(&yield_group);
}

KTEST(bkl_holders_that_yield_keep_their_counter_exact)
{
	int workers = 0;

	group_init(&yield_group);
	yield_counter = 0;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (!(cpu_online_mask() & (1u << cpu)))
			continue;
		for (int k = 0; k < 2; k++, workers++)
			KT_ASSERT(group_start(&yield_group, bkl_yielding_worker, NULL, "bkl-yield", cpu));
	}
	group_wait(&yield_group);
	/* The BKL is released across the yield, so the read-modify-write is NOT atomic... */
	KT_ASSERT(yield_counter <= (unsigned long)workers * YIELD_ROUNDS);
	KT_ASSERT(yield_counter > 0);
	KT_ASSERT(!kernel_locked());
}
#endif

/* Changing a task's affinity over and over while it sleeps and is woken. */
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile bool flag, stop, mover_done;
	volatile int rounds;
	struct task *sleeper;
} mw;

static int mw_sleeper(void *unused)
{
	while (!READ_ONCE(mw.stop)) {
		wait_event(mw.wq, mw.flag || mw.stop);
		mw.flag = false;
		mw.rounds++;
	}
	/* The mover still holds a pointer to us: do not exit (and be freed) before it is done. */
	wait_event(mw.wq, mw.mover_done);
	return group_exit(&mw.g);
}

static int mw_waker(void *unused)
{
	while (!READ_ONCE(mw.stop)) {
		mw.flag = true;
		wake_up(&mw.wq);
		udelay(20);
	}
	return group_exit(&mw.g);
}

static int mw_mover(void *unused)
{
	for (int n = 0; !READ_ONCE(mw.stop); n++) {
		uint32_t m = 1u << (n % MAX_CPUS);
		if (m & cpu_online_mask())
			sched_set_affinity(mw.sleeper, m);
		else
			udelay(10);
	}
	mw.mover_done = true;
	wake_up(&mw.wq);
	return group_exit(&mw.g);
}

KTEST(sched_affinity_changes_race_wakeups_safely)
{
	group_init(&mw.g);
	wait_queue_init(&mw.wq, "ktest-migrate");
	mw.flag = mw.stop = mw.mover_done = false;
	mw.rounds = 0;
	atomic_inc(&mw.g.running);
	mw.sleeper = kthread_create(mw_sleeper, NULL, "mw-sleeper");
	KT_ASSERT(mw.sleeper != NULL);
	KT_ASSERT(group_start(&mw.g, mw_waker, NULL, "mw-waker", -1));
	KT_ASSERT(group_start(&mw.g, mw_mover, NULL, "mw-mover", -1));
	sched_sleep_ns(1000 * 1000 * 1000ULL);
	mw.stop = true;
	wake_up(&mw.wq);
	group_wait(&mw.g);
	KT_ASSERT(mw.rounds > 0);
}
