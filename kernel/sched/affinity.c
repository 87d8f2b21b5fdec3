/*
 * Where tasks run: affinity (sched_setaffinity), moving a task to another
 * CPU once it is switched out, and idle CPUs that steal waiting tasks
 * from busy ones. The locking rules are in kernel/sched/sched.c's header.
 */
#include "kernel/sched/sched.h"

#include "kernel/sched/runqueue.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

/* A CPU t may run on, preferring target; -1 if none is online. */
int sched_allowed_cpu(struct task *t, int target)
{
	uint32_t ok = t->cpus_allowed & cpu_online_mask();

	if (target >= 0 && (ok & (1u << target)))
		return target;
	return ok ? __builtin_ctz(ok) : -1;
}

/* Move prev, just switched out, to CPU target. Called with prev's run-queue lock held; drops it. */
void sched_migrate_switched_out(struct runqueue *from, struct task *prev, int target, bool requeue)
{
	struct runqueue *to;

	/* From now on, wakers look for prev on its new CPU. */
	prev->cpu = target;
	__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
	if (!requeue) {
		spin_unlock(&from->lock);
		return;         /* asleep: whoever wakes it queues it over there */
	}
	/*
	 * Runnable but on no queue: nobody else may queue it (wakers see
	 * TASK_RUNNING or on_rq), steal it or free it, so it is ours to place.
	 * An affinity change may move it again meanwhile: queue it wherever
	 * its cpu field says under that queue's lock.
	 */
	spin_unlock(&from->lock);
	to = rq_lock_task(prev);
	rq_enqueue(to, prev);
	target = prev->cpu;
	spin_unlock(&to->lock);
	rq_kick_cpu(target);
}

/* An idle CPU takes a waiting task from the busiest other queue that allows it. */
bool sched_steal_task(struct cpu *c)
{
	struct runqueue *mine = &runqueues[c->id];
	int busiest = -1;

	for (int i = 0; i < ncpus; i++)
		if (i != c->id && runqueues[i].nr_queued > 0 &&
		    (busiest < 0 || runqueues[i].nr_queued > runqueues[busiest].nr_queued))
			busiest = i;
	if (busiest < 0)
		return false;

	struct runqueue *from = &runqueues[busiest];
	struct list_head *pos;
	bool moved = false;

	rq_double_lock(mine, from);
	list_for_each(pos, &from->queue) {
		struct task *t = list_entry(pos, struct task, run_link);
		if (t->cpus_allowed & (1u << c->id)) {
			rq_move_queued(from, mine, t);
			moved = true;
			break;
		}
	}
	rq_double_unlock(mine, from);
	return moved;
}

int sched_set_affinity(struct task *t, uint32_t mask)
{
	struct runqueue *rq;
	uint32_t flags;
	int target;

	mask &= cpu_online_mask();
	if (!mask)
		return -EINVAL;
	target = __builtin_ctz(mask);
	flags = irq_save();
	rq = rq_lock_task(t);
	t->cpus_allowed = mask;
	if (mask & (1u << t->cpu)) {
		spin_unlock(&rq->lock);
	} else if (t->queued) {
		/* Waiting for a CPU it may no longer use: move it to the other queue now. */
		struct runqueue *to = &runqueues[target];
		int from_cpu = t->cpu;

		spin_unlock(&rq->lock);
		rq_double_lock(rq, to);
		if (t->queued && t->cpu == from_cpu && !(t->cpus_allowed & (1u << from_cpu))) {
			rq_move_queued(rq, to, t);
			rq_kick_cpu(target);
		}
		rq_double_unlock(rq, to);
	} else if (t->on_cpu) {
		t->migrate_to = target;         /* moved once it is switched out */
		if (t != current)
			cpus[t->cpu].need_resched = true;
		spin_unlock(&rq->lock);
	} else if (!t->on_rq) {
		t->cpu = target;                /* asleep: wakes up over there */
		spin_unlock(&rq->lock);
	} else {
		t->migrate_to = target;         /* being moved right now: move again at its next switch */
		spin_unlock(&rq->lock);
	}
	irq_restore(flags);
	/* Moving ourselves: switch out until we run on an allowed CPU. */
	while (t == current && !(t->cpus_allowed & (1u << cpu_id()))) {
		flags = irq_save();
		t->migrate_to = sched_allowed_cpu(t, target);
		irq_restore(flags);
		schedule();
	}
	return 0;
}
