/* Wait queues: sleep until a condition holds, without losing a wakeup (rule in waitqueue.h). */
#include "kernel/sched/waitqueue.h"

#include "kernel/locking/atomic.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"

void wait_queue_init(struct wait_queue *wq, const char *name)
{
	spin_lock_init(&wq->lock, name);
	list_init(&wq->waiters);
}

void prepare_to_wait(struct wait_queue *wq, struct waiter *w)
{
	uint32_t flags;

	w->task = current;
	spin_lock_irqsave(&wq->lock, flags);
	if (w->link.next == NULL || list_empty(&w->link))
		list_add_tail(&w->link, &wq->waiters);
	/* Marked sleeping while on the queue: a wake_up() from now on will find us. */
	current->state = TASK_SLEEPING;
	spin_unlock_irqrestore(&wq->lock, flags);
	/* The caller's test of its condition must not be done before the state store is seen. */
	smp_mb();
}

void finish_wait(struct wait_queue *wq, struct waiter *w)
{
	uint32_t flags;

	current->state = TASK_RUNNING;
	spin_lock_irqsave(&wq->lock, flags);
	list_del(&w->link);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void wake_up_one(struct wait_queue *wq)
{
	struct list_head *pos;
	uint32_t flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_for_each(pos, &wq->waiters)
		if (wake_up_process(list_entry(pos, struct waiter, link)->task))
			break;
	spin_unlock_irqrestore(&wq->lock, flags);
}

void wake_up(struct wait_queue *wq)
{
	struct list_head *pos;
	uint32_t flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_for_each(pos, &wq->waiters)
		wake_up_process(list_entry(pos, struct waiter, link)->task);
	spin_unlock_irqrestore(&wq->lock, flags);
}
