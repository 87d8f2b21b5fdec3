/*
 * Self-tests of the era=2.6.8 BKL, a sleeping semaphore (kernel/locking/bkl_sem.c):
 * its holder can be preempted, and its waiter sleeps, so its CPU runs
 * something else meanwhile. Under a spinning BKL (every other era) each test
 * checks the opposite, so the pair shows the difference in either boot.
 */
#include "kernel/era.h"
#include "kernel/ktest.h"
#include "kernel/locking/bkl.h"
#include "kernel/sched/task.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"

#ifdef CONFIG_BKL        /* no BKL to test in make ERA=2.6.39 */

/*
 * How long a holder keeps the BKL waiting for the other task to run. A
 * semaphore lets that task run at the next tick, so the generous bound only
 * matters on a very busy host; a spinlock never does, so there it is short.
 */
#define SEM_BOUND_NS (5 * 1000 * 1000 * 1000ULL)
#define SPIN_BOUND_NS (200 * 1000 * 1000ULL)

static uint64_t bound_ns(void)
{
	return bkl_is_semaphore() ? SEM_BOUND_NS : SPIN_BOUND_NS;
}

/*
 * H takes the BKL and busy-waits (never sleeps, never yields) until O has
 * run. O is queued on H's CPU, so it can only run there if the tick preempts
 * H, BKL and all.
 */
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile int phase;
	volatile bool other_ran;
	bool ran_while_held, held_after;
} pre;

static int bkl_busy_holder(void *unused)
{
	uint64_t give_up;

	lock_kernel();
	pre.phase = 1;
	wake_up(&pre.wq);
	give_up = clock_ns() + bound_ns();
	while (!READ_ONCE(pre.other_ran) && clock_ns() < give_up)
		cpu_relax();
	pre.ran_while_held = READ_ONCE(pre.other_ran);
	pre.held_after = kernel_locked();
	unlock_kernel();
	return group_exit(&pre.g);
}

static int bkl_other_on_same_cpu(void *unused)
{
	wait_event(pre.wq, pre.phase == 1);
	pre.other_ran = true;
	return group_exit(&pre.g);
}

KTEST(bkl_holder_is_preempted_only_as_a_semaphore)
{
	int cpu = last_online_cpu();

	group_init(&pre.g);
	wait_queue_init(&pre.wq, "bkl-preempt");
	pre.phase = 0;
	pre.other_ran = pre.ran_while_held = pre.held_after = false;
	KT_ASSERT(group_start(&pre.g, bkl_busy_holder, NULL, "bkl-busy", cpu));
	KT_ASSERT(group_start(&pre.g, bkl_other_on_same_cpu, NULL, "bkl-other", cpu));
	group_wait(&pre.g);
	KT_ASSERT(pre.held_after);              /* preempted or not, it kept the BKL */
	if (bkl_is_semaphore())
		KT_ASSERT(pre.ran_while_held);  /* era=2.6.8: the tick preempted the holder */
	else
		KT_ASSERT(!pre.ran_while_held); /* a spinning BKL's holder is never preempted */
}

/*
 * H holds the BKL on one CPU until R has looked. W asks for the BKL on another
 * CPU (the same one when there is only one); R, queued on W's CPU, looks at the
 * BKL while W waits. A sleeping W lets R run and see it waiting; a spinning W
 * keeps its CPU (preemption is off while it spins), so R runs only after W got
 * the lock, and H gives up waiting for R first.
 */
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile int phase;
	volatile bool w_got, r_done;
	bool r_saw_w_waiting, w_got_it;
} sleeper;

static int bkl_holder_until_looked(void *unused)
{
	uint64_t give_up;

	lock_kernel();
	sleeper.phase = 1;
	wake_up(&sleeper.wq);
	give_up = clock_ns() + bound_ns();
	while (!READ_ONCE(sleeper.r_done) && clock_ns() < give_up)
		cpu_relax();            /* not a sleep: that would let the BKL go */
	unlock_kernel();
	return group_exit(&sleeper.g);
}

static int bkl_asking_waiter(void *unused)
{
	wait_event(sleeper.wq, sleeper.phase == 1);
	sleeper.phase = 2;
	wake_up(&sleeper.wq);
	lock_kernel();
	sleeper.w_got = true;
	unlock_kernel();
	sleeper.w_got_it = true;
	return group_exit(&sleeper.g);
}

static int bkl_looker_beside_waiter(void *unused)
{
	uint64_t give_up;
	struct bkl_state st;

	wait_event(sleeper.wq, sleeper.phase == 2);
	give_up = clock_ns() + bound_ns();
	while (!READ_ONCE(sleeper.w_got) && clock_ns() < give_up) {
		bkl_get_state(&st);
		if (st.waiting > 0 && !READ_ONCE(sleeper.w_got)) {
			sleeper.r_saw_w_waiting = true;
			break;
		}
		sched_yield();
	}
	sleeper.r_done = true;
	return group_exit(&sleeper.g);
}

KTEST(bkl_waiter_sleeps_only_as_a_semaphore)
{
	int h_cpu = __builtin_ctz(cpu_online_mask()), w_cpu = last_online_cpu();

	group_init(&sleeper.g);
	wait_queue_init(&sleeper.wq, "bkl-sleeper");
	sleeper.phase = 0;
	sleeper.w_got = sleeper.r_done = sleeper.r_saw_w_waiting = sleeper.w_got_it = false;
	KT_ASSERT(group_start(&sleeper.g, bkl_holder_until_looked, NULL, "bkl-holder", h_cpu));
	KT_ASSERT(group_start(&sleeper.g, bkl_asking_waiter, NULL, "bkl-waiter", w_cpu));
	KT_ASSERT(group_start(&sleeper.g, bkl_looker_beside_waiter, NULL, "bkl-looker", w_cpu));
	group_wait(&sleeper.g);
	KT_ASSERT(sleeper.w_got_it);
	if (bkl_is_semaphore())
		KT_ASSERT(sleeper.r_saw_w_waiting);     /* W slept: its CPU ran R */
	else if (h_cpu != w_cpu)
		KT_ASSERT(!sleeper.r_saw_w_waiting);    /* W spun with its CPU to itself */
	KT_ASSERT(!kernel_locked());
}

#endif /* CONFIG_BKL */
