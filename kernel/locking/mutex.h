/* Sleeping mutexes: for long critical sections where a spinlock would waste CPUs. */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include "kernel/sched/waitqueue.h"

struct task;

struct mutex {
	spinlock_t lock;                /* protects owner */
	struct task *owner;             /* NULL when free */
	struct wait_queue waiters;
	const char *name;
};

/* A mutex ready at compile time, as Linux's DEFINE_MUTEX: `static DEFINE_MUTEX(reboot_mutex);`. */
#define DEFINE_MUTEX(m)                                                                 \
	struct mutex m = {                                                              \
		.lock = SPINLOCK_INIT(#m),                                              \
		.owner = NULL,                                                          \
		.waiters = { .lock = SPINLOCK_INIT(#m),                                 \
			     .waiters = { &(m).waiters.waiters, &(m).waiters.waiters } }, \
		.name = #m,                                                             \
	}

void mutex_init(struct mutex *m, const char *name);
/* Sleeps until the mutex is ours. Not recursive: taking it twice is a bug, and reported. */
void mutex_lock(struct mutex *m);
/* The same, but a signal ends the wait: 0 when the mutex is ours, -ERESTARTSYS if not. */
int mutex_lock_interruptible(struct mutex *m);
bool mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);
bool mutex_is_mine(const struct mutex *m);

#endif
