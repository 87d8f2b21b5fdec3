/* Sleeping mutexes: for long critical sections where a spinlock would waste CPUs. */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include "kernel/locking/lock_stat.h"
#include "kernel/sched/waitqueue.h"

struct task;

struct mutex {
	spinlock_t lock;                /* protects owner and the fields below it */
	struct task *owner;             /* NULL when free */
	struct wait_queue waiters;
	const char *name;
	struct lock_class *class;       /* where it was initialised: its line of /proc/lock_stat */
	int last_cpu;                   /* the CPU it was last taken on with lock_stat on, -1: none */
	uint64_t acquired_at;           /* TSC when taken with lock_stat on, else 0 */
	uintptr_t acquired_ip;          /* where the owner took it (lock_stat's contending point) */
};

/* A mutex set up at run time: the class is this call's place, named by the mutex's expression. */
#define mutex_init(m, n)                                                                        \
	do {                                                                                    \
		static struct lock_class mutex_class_ = { .name = #m, .file = __FILE__,         \
							  .line = __LINE__, .kind = LOCK_MUTEX }; \
		mutex_init_class((m), (n), &mutex_class_);                                      \
	} while (0)
void mutex_init_class(struct mutex *m, const char *name, struct lock_class *class);

/*
 * A mutex ready at compile time, as Linux's DEFINE_MUTEX: `static DEFINE_MUTEX(reboot_mutex);`.
 * Its lock_stat class is the place of the definition.
 */
#define DEFINE_MUTEX(m)                                                                 \
	struct mutex m = {                                                              \
		.lock = SPINLOCK_INIT(#m),                                              \
		.owner = NULL,                                                          \
		.waiters = { .lock = SPINLOCK_INIT(#m),                                 \
			     .waiters = { &(m).waiters.waiters, &(m).waiters.waiters } }, \
		.name = #m,                                                             \
		.class = LOCK_CLASS_HERE(#m, LOCK_MUTEX),                              \
		.last_cpu = -1,                                                         \
	}
/* Sleeps until the mutex is ours. Not recursive: taking it twice is a bug, and reported. */
void mutex_lock(struct mutex *m);
/*
 * The same, for a second (or third) mutex of one class taken on purpose in an
 * order of its own (a parent directory's i_mutex, then its child's): subclass
 * 1 or 2 tells the lock-order checker so (Linux's mutex_lock_nested()).
 */
void mutex_lock_nested(struct mutex *m, int subclass);
/* The same, but a signal ends the wait: 0 when the mutex is ours, -ERESTARTSYS if not. */
int mutex_lock_interruptible(struct mutex *m);
bool mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);
bool mutex_is_mine(const struct mutex *m);

#endif
