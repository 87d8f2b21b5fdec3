/*
 * Self-tests of the reader-writer semaphore (kernel/locking/rwsem.c):
 * readers hold it together, a writer alone, and a waiting writer stops new
 * readers, so a stream of readers cannot starve it.
 */
#include "kernel/ktest.h"
#include "kernel/locking/rwsem.h"
#include "kernel/sched/sched.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"

#define MS 1000000ULL
#define WRITER_ROUNDS 100

static struct {
	struct rw_semaphore sem;
	struct thread_group g;
	atomic_t readers_in;            /* readers inside now */
	volatile int max_readers;       /* the most seen inside at once */
	volatile bool writer_in;
	volatile bool overlap;          /* a reader saw a writer inside, or a writer saw anyone */
	volatile unsigned long counter; /* written by writers only, non-atomically */
} rw;

static int reader(void *unused)
{
	for (int i = 0; i < 20; i++) {
		int n;

		down_read(&rw.sem);
		n = atomic_add_return(&rw.readers_in, 1);
		if (n > rw.max_readers)
			rw.max_readers = n;
		if (READ_ONCE(rw.writer_in))
			rw.overlap = true;
		sched_sleep_ns(MS);     /* asleep inside: the others come in meanwhile */
		atomic_dec(&rw.readers_in);
		up_read(&rw.sem);
	}
	return group_exit(&rw.g);
}

static int writer(void *unused)
{
	for (int i = 0; i < WRITER_ROUNDS; i++) {
		unsigned long v;

		down_write(&rw.sem);
		rw.writer_in = true;
		if (atomic_read(&rw.readers_in))
			rw.overlap = true;
		v = rw.counter;
		sched_yield();          /* switched out inside: nobody else may come in */
		rw.counter = v + 1;
		rw.writer_in = false;
		up_write(&rw.sem);
	}
	return group_exit(&rw.g);
}

KTEST(rwsem_readers_share_and_writers_exclude)
{
	init_rwsem(&rw.sem, "ktest-rwsem");
	group_init(&rw.g);
	atomic_set(&rw.readers_in, 0);
	rw.max_readers = 0;
	rw.writer_in = rw.overlap = false;
	rw.counter = 0;
	for (int i = 0; i < 3; i++)
		KT_ASSERT(group_start(&rw.g, reader, NULL, "rw-reader", -1));
	for (int i = 0; i < 2; i++)
		KT_ASSERT(group_start(&rw.g, writer, NULL, "rw-writer", -1));
	group_wait(&rw.g);
	KT_ASSERT(!rw.overlap);
	KT_ASSERT_EQ(rw.counter, 2 * WRITER_ROUNDS);
	KT_ASSERT(rw.max_readers >= 2);
	KT_ASSERT(!rwsem_is_locked(&rw.sem));
}

static volatile bool fair_writer_done;

static int fair_writer(void *unused)
{
	down_write(&rw.sem);
	fair_writer_done = true;
	up_write(&rw.sem);
	return group_exit(&rw.g);
}

KTEST(rwsem_waiting_writer_stops_new_readers)
{
	init_rwsem(&rw.sem, "ktest-rwsem-fair");
	group_init(&rw.g);
	fair_writer_done = false;
	down_read(&rw.sem);
	KT_ASSERT(group_start(&rw.g, fair_writer, NULL, "rw-fair-writer", -1));
	for (int i = 0; i < 200 && !READ_ONCE(rw.sem.writers_waiting); i++)
		sched_sleep_ns(MS);
	KT_ASSERT_EQ(READ_ONCE(rw.sem.writers_waiting), 1);
	/* A second reader now would starve the writer if it got in: it must not. */
	KT_ASSERT(!down_read_trylock(&rw.sem));
	KT_ASSERT(!down_write_trylock(&rw.sem));
	KT_ASSERT(!fair_writer_done);
	up_read(&rw.sem);
	group_wait(&rw.g);
	KT_ASSERT(fair_writer_done);
	KT_ASSERT(down_read_trylock(&rw.sem));
	up_read(&rw.sem);
	KT_ASSERT(down_write_trylock(&rw.sem));
	KT_ASSERT(rwsem_is_write_locked_by_me(&rw.sem));
	up_write(&rw.sem);
}
