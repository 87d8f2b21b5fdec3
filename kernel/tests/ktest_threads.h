/* Helpers for self-tests that start kernel threads and wait for all of them to finish. */
#ifndef KERNEL_TESTS_KTEST_THREADS_H
#define KERNEL_TESTS_KTEST_THREADS_H

#include "kernel/locking/atomic.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/pmm.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/waitqueue.h"

struct thread_group {
	atomic_t running;
	struct wait_queue done;
};

static inline void group_init(struct thread_group *g)
{
	atomic_set(&g->running, 0);
	wait_queue_init(&g->done, "ktest-group");
}

/* Start fn(arg) as a kernel thread on cpu (or anywhere if cpu < 0), counted in g. */
static inline bool group_start(struct thread_group *g, int (*fn)(void *), void *arg, const char *name,
			       int cpu)
{
	atomic_inc(&g->running);
	if (!kthread_create_on_cpu(fn, arg, name, cpu)) {
		atomic_dec(&g->running);
		return false;
	}
	return true;
}

/* A thread of the group calls this last. */
static inline int group_exit(struct thread_group *g)
{
	if (atomic_dec_and_test(&g->running))
		wake_up(&g->done);
	return 0;
}

static inline void group_wait(struct thread_group *g)
{
	wait_event(g->done, atomic_read(&g->running) == 0);
}

/* The id of the last online CPU (the boot CPU is 0): "the other CPU" in two-CPU tests. */
static inline int last_online_cpu(void)
{
	return 31 - __builtin_clz(cpu_online_mask());
}

/*
 * Frames the allocator still has plus those the heap keeps cached: constant
 * across work that frees everything it allocated (the heap does not give
 * pages back, so free frames alone would not be).
 */
static inline unsigned long frames_in_hand(void)
{
	struct kheap_stats st;

	kheap_get_stats(&st);
	return pmm_free_count() + st.pages_in_use;
}

#endif
