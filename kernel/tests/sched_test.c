/* Self-tests of the scheduler, wait queues and mutexes. */
#include "kernel/ktest.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/pmm.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/task.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"

/* Two threads on two CPUs (when there are two) pass a token back and forth. */
#define PINGPONG_ROUNDS 2000
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile int turn;              /* 0: ping's turn, 1: pong's */
	volatile int rounds;
	int wrong_cpu;
} pp;

static int pingpong_thread(void *arg)
{
	int me = (int)(uintptr_t)arg;
	int cpu = cpu_id();

	for (int i = 0; i < PINGPONG_ROUNDS; i++) {
		wait_event(pp.wq, pp.turn == me);
		if (cpu_id() != cpu)
			pp.wrong_cpu++;
		if (me == 1)
			pp.rounds++;
		pp.turn = !me;
		wake_up(&pp.wq);
	}
	return group_exit(&pp.g);
}

KTEST(sched_pingpong_across_cpus_loses_no_wakeup)
{
	group_init(&pp.g);
	wait_queue_init(&pp.wq, "pingpong");
	pp.turn = 0;
	pp.rounds = 0;
	pp.wrong_cpu = 0;
	KT_ASSERT(group_start(&pp.g, pingpong_thread, (void *)0, "ping", 0));
	KT_ASSERT(group_start(&pp.g, pingpong_thread, (void *)1, "pong", last_online_cpu()));
	group_wait(&pp.g);
	KT_ASSERT_EQ(pp.rounds, PINGPONG_ROUNDS);
	KT_ASSERT_EQ(pp.wrong_cpu, 0);          /* pinned threads never moved */
}

/* A mutex holder sleeps (yields) inside; others must wait, and nothing is lost. */
#define MUTEX_THREADS 4
#define MUTEX_ROUNDS 300
static struct mutex test_mutex;
static struct thread_group mutex_group;
static volatile int mutex_counter, mutex_inside, mutex_overlap;

static int mutex_worker(void *unused)
{
	for (int i = 0; i < MUTEX_ROUNDS; i++) {
		mutex_lock(&test_mutex);
		if (mutex_inside++)
			mutex_overlap++;
		int v = mutex_counter;
		sched_yield();          /* give others every chance to break in */
		mutex_counter = v + 1;
		mutex_inside--;
		mutex_unlock(&test_mutex);
	}
	return group_exit(&mutex_group);
}

KTEST(mutex_excludes_while_holder_sleeps)
{
	mutex_init(&test_mutex, "ktest-mutex");
	group_init(&mutex_group);
	mutex_counter = mutex_inside = mutex_overlap = 0;
	for (int i = 0; i < MUTEX_THREADS; i++)
		KT_ASSERT(group_start(&mutex_group, mutex_worker, NULL, "mutex-worker", -1));
	group_wait(&mutex_group);
	KT_ASSERT_EQ(mutex_overlap, 0);
	KT_ASSERT_EQ(mutex_counter, MUTEX_THREADS * MUTEX_ROUNDS);
}

/* Kernel threads get pids, names, and are freed when they exit. */
static struct thread_group quick_group;

static int quick_thread(void *unused)
{
	return group_exit(&quick_group);
}

/*
 * 50 threads started and ended: the frames and heap bytes in hand come back
 * to what they were. The count is the whole machine's, so a free or an
 * allocation of something else in the window (a background thread, an earlier
 * test's thread freed late on a loaded host) can make one try unequal: up to
 * three tries, each after the count has held still. A real leak (a stack per
 * thread: 100 frames) fails all three.
 */
static bool start_exit_balanced(unsigned long *frames_before, unsigned long *frames_after,
				struct kheap_stats *before, struct kheap_stats *after)
{
	*frames_before = frames_in_hand();
	for (int i = 0; i < 50; i++) {          /* until the count holds still for 20 ms, up to a second */
		sched_sleep_ns(20 * 1000 * 1000);
		if (frames_in_hand() == *frames_before)
			break;
		*frames_before = frames_in_hand();
	}
	kheap_get_stats(before);
	*frames_before = frames_in_hand();
	for (int i = 0; i < 50; i++)
		if (!group_start(&quick_group, quick_thread, NULL, "quick", -1))
			return false;
	group_wait(&quick_group);
	/* Exited threads are freed by the next task switched in on their CPU: let that happen. */
	*frames_after = 0;
	for (int i = 0; i < 100 && *frames_after != *frames_before; i++) {
		sched_sleep_ns(10 * 1000 * 1000);
		*frames_after = frames_in_hand();
	}
	kheap_get_stats(after);
	return *frames_after == *frames_before && after->bytes_in_use == before->bytes_in_use;
}

KTEST(kthreads_start_exit_and_free_memory)
{
	struct kheap_stats before = { 0 }, after = { 0 };
	unsigned long frames_before = 0, frames_after = 0;
	bool balanced = false;

	group_init(&quick_group);
	KT_ASSERT(group_start(&quick_group, quick_thread, NULL, "warmup", -1));
	group_wait(&quick_group);
	for (int try = 0; try < 3 && !balanced; try++)
		balanced = start_exit_balanced(&frames_before, &frames_after, &before, &after);
	KT_ASSERT_EQ(frames_after, frames_before);
	KT_ASSERT_EQ(after.bytes_in_use, before.bytes_in_use);
}

/*
 * An idle CPU that polls its run queue is woken by the queueing alone, with
 * no IPI (kernel/sched/sched.c, idle_poll(); runqueue.c, rq_kick_cpu());
 * one that has stopped polling and halted still gets its IPI. A sleeper
 * pinned to the other CPU is woken both ways; the IPIs that CPU received
 * tell which way it went.
 */
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile int go;
	volatile bool asleep;
	volatile int ran_on;
} pw;

static int poll_wake_thread(void *unused)
{
	pw.asleep = true;
	wait_event(pw.wq, pw.go);
	pw.ran_on = cpu_id();
	return group_exit(&pw.g);
}

/*
 * Wake a sleeper pinned to target once target idles, polling or not; the
 * caller runs on CPU 0. Returns the IPIs target got meanwhile; *saved: the
 * IPIs our own wake_up() did without (interrupts off around it: nothing
 * else of ours wakes anybody meanwhile).
 */
static uint64_t wake_idle_cpu(int target, bool polling, uint64_t *saved)
{
	uint64_t ipis, start;
	uint32_t flags;

	pw.go = 0;
	pw.asleep = false;
	pw.ran_on = -1;
	group_init(&pw.g);
	if (!group_start(&pw.g, poll_wake_thread, NULL, "poll-wake", target))
		return ~0ull;
	/* Until it sleeps and its CPU idles: polling (the long poll), or halted (polling over). */
	start = clock_ns();
	while (!(pw.asleep && cpus[target].curr == cpus[target].idle && cpus[target].polling == polling) &&
	       clock_ns() - start < 2000000000ULL)
		cpu_relax();
	if (!polling)
		sched_sleep_ns(2000000);        /* well past the end of its poll: it has halted */
	ipis = READ_ONCE(cpus[target].resched_ipis);
	flags = irq_save();
	*saved = cpus[0].ipis_saved;
	pw.go = 1;
	wake_up(&pw.wq);
	*saved = cpus[0].ipis_saved - *saved;
	irq_restore(flags);
	/*
	 * Count target's IPIs until the sleeper runs, not until it has
	 * exited: after that, a wakeup from another CPU (a kthread's timer,
	 * say) may IPI target with no bearing on ours.
	 */
	start = clock_ns();
	while (READ_ONCE(pw.ran_on) < 0 && clock_ns() - start < 2000000000ULL)
		cpu_relax();
	ipis = READ_ONCE(cpus[target].resched_ipis) - ipis;
	group_wait(&pw.g);
	return ipis;
}

#define POLL_WAKE_TRIES 10

KTEST(sched_polling_idle_cpu_wakes_without_ipi)
{
	uint32_t mask = current->cpus_allowed, poll_us = idle_poll_us;
	int target = last_online_cpu(), ran_polling = -1, ran_halted, tries;
	uint64_t ipis_polling = 0, saved_polling = 0, ipis_halted, saved_halted;

	if (target == 0)
		return;                 /* one CPU: no cross-CPU wakeup */
	wait_queue_init(&pw.wq, "poll-wake");
	KT_ASSERT_EQ(sched_set_affinity(current, 1u << 0), 0);    /* the waker on CPU 0, the sleeper elsewhere */
	idle_poll_us = 1000000;         /* a second: it polls for as long as the test needs */
	/*
	 * Something else may end target's poll just before our wakeup (the
	 * console's kthread, woken there): target is then between its poll
	 * and schedule(), idle but not polling, and rightly gets an IPI.
	 * Only a wakeup that found target polling tells; try again until one does.
	 */
	for (tries = 0; tries < POLL_WAKE_TRIES; tries++) {
		ipis_polling = wake_idle_cpu(target, true, &saved_polling);
		ran_polling = pw.ran_on;
		if (saved_polling)
			break;
	}
	idle_poll_us = 0;               /* no poll: it halts at once */
	ipis_halted = wake_idle_cpu(target, false, &saved_halted);
	ran_halted = pw.ran_on;
	idle_poll_us = poll_us;
	sched_set_affinity(current, mask);

	KT_ASSERT_EQ(ran_polling, target);
	KT_ASSERT_EQ(ipis_polling, 0);
	KT_ASSERT(saved_polling >= 1);
	KT_ASSERT_EQ(ran_halted, target);
	KT_ASSERT(ipis_halted >= 1);
	KT_ASSERT_EQ(saved_halted, 0);
}
