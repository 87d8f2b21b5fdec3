/*
 * The scheduler's insides, shared by kernel/sched/sched.c (the switch, the
 * tick, sleeping), kernel/sched/runqueue.c (the queues) and
 * kernel/sched/affinity.c (moving tasks between CPUs). Nobody else: the
 * rest of the kernel uses kernel/sched/sched.h.
 */
#ifndef KERNEL_SCHED_RUNQUEUE_H
#define KERNEL_SCHED_RUNQUEUE_H

#include "kernel/cpu.h"
#include "kernel/list.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/task.h"

struct runqueue {
	spinlock_t lock;
	struct list_head queue;         /* tasks waiting for this CPU, oldest first */
	unsigned nr_queued;
	struct list_head sleepers;      /* tasks in sched_sleep_ns() on this CPU */
};

extern struct runqueue runqueues[MAX_CPUS];

/* ---- kernel/sched/runqueue.c; the queue's lock is held unless said otherwise ---- */

/* t joins the back of rq (its wait for a CPU starts now). */
void rq_enqueue(struct runqueue *rq, struct task *t);
void rq_dequeue(struct runqueue *rq, struct task *t);
/* From one queue to another, still the same wait. Both locks are held. */
void rq_move_queued(struct runqueue *from, struct runqueue *to, struct task *t);
/* Lock the run queue t belongs to (t->cpu can change until we hold it). Interrupts off. */
struct runqueue *rq_lock_task(struct task *t);
/* Two queues' locks, lowest CPU first; the same queue twice is taken once. */
void rq_double_lock(struct runqueue *a, struct runqueue *b);
void rq_double_unlock(struct runqueue *a, struct runqueue *b);
/* Make CPU cpu look at its run queue soon: now if it is idle. No lock needed. */
void rq_kick_cpu(int cpu);
/* t got its CPU: account the wait. */
void rq_account_wait(struct task *t);
/* From the tick: report the oldest waiter of rq if it has waited a second of ticks. Takes the lock. */
struct trapframe;
void rq_report_starved_task(struct runqueue *rq, struct cpu *c, const struct trapframe *tf);

/* ---- kernel/sched/affinity.c ---- */

/* A CPU t may run on, preferring target; -1 if none is online. */
int sched_allowed_cpu(struct task *t, int target);
/* Move prev, just switched out, to CPU target. Called with prev's run-queue lock held; drops it. */
void sched_migrate_switched_out(struct runqueue *from, struct task *prev, int target, bool requeue);
/* An idle CPU takes a waiting task from the busiest other queue that allows it. */
bool sched_steal_task(struct cpu *c);

#endif
