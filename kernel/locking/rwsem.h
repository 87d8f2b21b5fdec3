/* Reader-writer semaphores: many readers or one writer, sleeping, as Linux's struct rw_semaphore. */
#ifndef KERNEL_RWSEM_H
#define KERNEL_RWSEM_H

#include "kernel/locking/lock_stat.h"
#include "kernel/sched/waitqueue.h"

struct task;

struct rw_semaphore {
	spinlock_t lock;                /* protects the three fields below */
	int readers;                    /* tasks holding it for reading */
	struct task *writer;            /* the task holding it for writing, or NULL */
	int writers_waiting;            /* while > 0, new readers wait: writers are not starved */
	struct wait_queue waiters;      /* readers and writers sleep here */
	const char *name;
	struct lock_class *class;       /* one class for readers and writers, for the lock-order checker */
};

/* An rw-semaphore set up at run time: the class is this call's place, named by its expression. */
#define init_rwsem(s, n)                                                                        \
	do {                                                                                    \
		static struct lock_class rwsem_class_ = { .name = #s, .file = __FILE__,         \
							  .line = __LINE__, .kind = LOCK_MUTEX }; \
		rwsem_init_class((s), (n), &rwsem_class_);                                      \
	} while (0)
void rwsem_init_class(struct rw_semaphore *s, const char *name, struct lock_class *class);

/*
 * Sleep until s is held for reading. Not recursive: a writer may be waiting
 * between the two, and it waits for the first read hold, which waits for it.
 */
void down_read(struct rw_semaphore *s);
/* Take s for reading if that needs no wait (no writer holds or waits for it). */
bool down_read_trylock(struct rw_semaphore *s);
void up_read(struct rw_semaphore *s);
/* Sleep until s is held for writing: no reader, no other writer. */
void down_write(struct rw_semaphore *s);
bool down_write_trylock(struct rw_semaphore *s);
void up_write(struct rw_semaphore *s);
/* For assertions: does the current task hold s for writing? Does anyone hold it at all? */
bool rwsem_is_write_locked_by_me(const struct rw_semaphore *s);
bool rwsem_is_locked(const struct rw_semaphore *s);

#endif
