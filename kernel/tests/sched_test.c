/* Self-tests of the scheduler, wait queues and mutexes. */
#include "kernel/ktest.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/pmm.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/task.h"
#include "kernel/tests/ktest_threads.h"

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

KTEST(kthreads_start_exit_and_free_memory)
{
	struct kheap_stats before, after;
	unsigned long frames_before, frames_after = 0;

	group_init(&quick_group);
	KT_ASSERT(group_start(&quick_group, quick_thread, NULL, "warmup", -1));
	group_wait(&quick_group);
	sched_sleep_ns(20 * 1000 * 1000);
	kheap_get_stats(&before);
	frames_before = frames_in_hand();
	for (int i = 0; i < 50; i++)
		KT_ASSERT(group_start(&quick_group, quick_thread, NULL, "quick", -1));
	group_wait(&quick_group);
	/* Exited threads are freed by the next task switched in on their CPU: let that happen. */
	for (int i = 0; i < 100 && frames_after != frames_before; i++) {
		sched_sleep_ns(10 * 1000 * 1000);
		frames_after = frames_in_hand();
	}
	KT_ASSERT_EQ(frames_after, frames_before);
	kheap_get_stats(&after);
	KT_ASSERT_EQ(after.bytes_in_use, before.bytes_in_use);
}
