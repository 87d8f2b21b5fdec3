/*
 * Wait queues: where tasks sleep until something happens.
 *
 * The rule that loses no wakeup, even across CPUs: a sleeper first puts itself
 * on the queue and marks itself TASK_SLEEPING (prepare_to_wait), THEN tests its
 * condition, and only then calls schedule(). A waker first makes the condition
 * true, THEN calls wake_up(). Whatever the interleaving, either the sleeper sees
 * the condition, or the waker sees the sleeper on the queue and wakes it.
 */
#ifndef KERNEL_WAITQUEUE_H
#define KERNEL_WAITQUEUE_H

#include "kernel/errno.h"
#include "kernel/list.h"
#include "kernel/locking/spinlock.h"

struct task;

struct wait_queue {
	spinlock_t lock;                /* protects waiters */
	struct list_head waiters;       /* of struct waiter */
};

struct waiter {
	struct task *task;
	struct list_head link;
};

void wait_queue_init(struct wait_queue *wq, const char *name);
/* Put the current task on wq and mark it sleeping; it still runs until schedule(). */
void prepare_to_wait(struct wait_queue *wq, struct waiter *w);
/* Take the current task off wq and mark it running again. */
void finish_wait(struct wait_queue *wq, struct waiter *w);
/* Wake every task sleeping on wq. */
void wake_up(struct wait_queue *wq);
/*
 * Wake the first task on wq that is still asleep, if any (the oldest
 * waiter). For a resource only one waiter can take, such as a mutex: waking
 * them all would send every one of them to fight over one lock, only for
 * all but one to go back to sleep. Whoever is woken and does not take the
 * resource must pass the wakeup on (see mutex_lock_interruptible).
 */
void wake_up_one(struct wait_queue *wq);

/* Sleep until cond is true. May sleep: not with a spinlock held, nor in an interrupt. */
#define wait_event(wq, cond)                                            \
	do {                                                            \
		struct waiter w_ = { .task = 0 };                                       \
		might_sleep();                                          \
		for (;;) {                                              \
			prepare_to_wait(&(wq), &w_);                    \
			if (cond)                                       \
				break;                                  \
			schedule();                                     \
		}                                                       \
		finish_wait(&(wq), &w_);                                \
	} while (0)

/*
 * Like wait_event, but also returns early (with -EINTR, as an int) if the task
 * is being killed (a fatal signal: SIGKILL, or one whose default action
 * terminates and which has no handler). Other signals do not end this sleep.
 */
#define wait_event_killable(wq, cond)                                   \
	({                                                              \
		struct waiter w_ = { .task = 0 };                                       \
		int r_ = 0;                                             \
		might_sleep();                                          \
		for (;;) {                                              \
			prepare_to_wait(&(wq), &w_);                    \
			if (cond)                                       \
				break;                                  \
			if (task_should_stop_waiting()) {               \
				r_ = -4;        /* -EINTR */            \
				break;                                  \
			}                                               \
			schedule();                                     \
		}                                                       \
		finish_wait(&(wq), &w_);                                \
		r_;                                                     \
	})

/*
 * THE INTERRUPTIBLE SLEEP, for every wait a signal should cut short: a read
 * from an empty pipe or a tty, wait4(), pause(). Sleeps until cond is true
 * (returns 0) or a signal is ready to be delivered (returns -ERESTARTSYS).
 *
 * A system call that gets -ERESTARTSYS undoes what it must and returns it
 * AS IS, without copying anything to user space. On the way back to user
 * mode the signal code (kernel/signal/deliver.c) turns it into -EINTR, or, if the
 * handler has SA_RESTART (or no handler runs), restarts the call from the
 * top: so the call must be safe to repeat. A read that already moved some
 * bytes returns that count instead, as Linux does. See docs/signals.md.
 */
#define wait_event_interruptible(wq, cond)                              \
	({                                                              \
		struct waiter w_ = { .task = 0 };                       \
		int r_ = 0;                                             \
		might_sleep();                                          \
		for (;;) {                                              \
			prepare_to_wait(&(wq), &w_);                    \
			if (cond)                                       \
				break;                                  \
			if (task_signal_pending()) {                    \
				r_ = -ERESTARTSYS;                      \
				break;                                  \
			}                                               \
			schedule();                                     \
		}                                                       \
		finish_wait(&(wq), &w_);                                \
		r_;                                                     \
	})

void schedule(void);
void might_sleep_at(const char *file, int line);
#define might_sleep() might_sleep_at(__FILE__, __LINE__)
/* The current task is being killed (kernel/sched/sched.c). */
bool task_should_stop_waiting(void);
/* A signal is ready for the current task, or it is being killed (kernel/signal/deliver.c). */
bool task_signal_pending(void);

#endif
