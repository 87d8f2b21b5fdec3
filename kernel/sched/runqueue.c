/*
 * Run queues: one per CPU, the tasks waiting for it, oldest first, and the
 * helpers that put tasks on them and take them off (kernel/sched/sched.c
 * picks from them; kernel/sched/affinity.c moves tasks between them).
 * The locking rules are in sched.c's header.
 *
 * Each queue also measures how long its tasks wait for their turn
 * (/proc/PID/sched), in ns and in ticks of the CPU they wait on, and
 * reports a task that has waited a whole second of ticks.
 */
#include "kernel/sched/runqueue.h"

#include "kernel/sched/sched.h"

#include "kernel/ipi.h"
#include "kernel/lib/string.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/printk.h"
#include "kernel/time/timer.h"
#include "kernel/ksyms.h"
#include "kernel/x86/trap.h"

/* A task waiting this many ticks of its CPU for a turn is reported: something starves it. */
#define LATENCY_REPORT_TICKS HZ

struct runqueue runqueues[MAX_CPUS];

/* The wait starts when a task joins a queue (not when it moves between queues: rq_move_queued). */
static void stamp_queued(struct runqueue *rq, struct task *t)
{
	int cpu = (int)(rq - runqueues);

	t->queued_at_ns = clock_ns();
	t->queued_tick_cpu = cpu;
	t->queued_at_tick = READ_ONCE(cpus[cpu].sched_ticks);
	t->latency_reported = false;
}

static uint64_t ticks_waited(const struct task *t)
{
	return READ_ONCE(cpus[t->queued_tick_cpu].sched_ticks) - t->queued_at_tick;
}

/* t got its CPU: account the wait (/proc/PID/sched shows it). */
void rq_account_wait(struct task *t)
{
	uint64_t ns = clock_ns() - t->queued_at_ns, ticks = ticks_waited(t);

	t->wait_sum_ns += ns;
	t->wait_count++;
	if (ns > t->wait_max_ns)
		t->wait_max_ns = ns;
	if (ticks > t->wait_max_ticks)
		t->wait_max_ticks = ticks;
}

void rq_enqueue(struct runqueue *rq, struct task *t)
{
	stamp_queued(rq, t);
	list_add_tail(&t->run_link, &rq->queue);
	t->queued = true;
	t->on_rq = true;
	rq->nr_queued++;
}

void rq_dequeue(struct runqueue *rq, struct task *t)
{
	list_del(&t->run_link);
	t->queued = false;
	rq->nr_queued--;
}

/* From one queue to another (stealing, affinity): still the same wait. Both locks are held. */
void rq_move_queued(struct runqueue *from, struct runqueue *to, struct task *t)
{
	rq_dequeue(from, t);
	t->cpu = (int)(to - runqueues);
	list_add_tail(&t->run_link, &to->queue);
	t->queued = true;
	to->nr_queued++;
}

/* Lock the run queue t belongs to; t->cpu can change until we hold it. Interrupts must be off. */
struct runqueue *rq_lock_task(struct task *t)
{
	for (;;) {
		int cpu = READ_ONCE(t->cpu);
		struct runqueue *rq = &runqueues[cpu];

		spin_lock(&rq->lock);
		if (READ_ONCE(t->cpu) == cpu)
			return rq;
		spin_unlock(&rq->lock);
	}
}

void rq_double_lock(struct runqueue *a, struct runqueue *b)
{
	if (a > b) {
		struct runqueue *tmp = a;
		a = b;
		b = tmp;
	}
	spin_lock(&a->lock);
	if (b != a)
		spin_lock_nested(&b->lock, 1);  /* the higher one second: an order, not recursion */
}

void rq_double_unlock(struct runqueue *a, struct runqueue *b)
{
	spin_unlock(&a->lock);
	if (b != a)
		spin_unlock(&b->lock);
}

uint32_t cpu_online_mask(void)
{
	uint32_t mask = 0;

	for (int i = 0; i < ncpus; i++)
		if (cpus[i].online)
			mask |= 1u << i;
	return mask;
}

/*
 * Make CPU cpu look at its run queue soon: now if it is idle. The caller has
 * just queued a task there. An idle CPU that is still polling its queue
 * (idle_poll() in sched.c) sees the task by itself: no IPI, as Linux's
 * resched_task() skips one for a CPU with TIF_POLLING_NRFLAG. The barrier
 * orders our store to the queue before the load of polling; idle_poll()
 * orders its clearing of polling before its last look at the queue. So
 * either it sees the task, or we see it no longer polling and send the IPI.
 */
void rq_kick_cpu(int cpu)
{
	struct cpu *c = &cpus[cpu];

	if (c->curr != c->idle)
		return;         /* busy: the task waits for the next tick, round robin */
	if (cpu == this_cpu()->id) {
		this_cpu()->need_resched = true;
		return;
	}
	smp_mb();
	if (READ_ONCE(c->polling))
		this_cpu()->ipis_saved++;
	else
		smp_send_reschedule(cpu);
}

/*
 * The oldest task on this queue has waited a whole second of this CPU's
 * ticks: whatever runs here is not letting go (a long section with
 * preemption off, a lock spun on for ever). Say so once per wait; the
 * fuzzer and the load tests look for this line. Linux's hung-task
 * detector speaks the same way about tasks that sleep too long.
 */
/*
 * What kept the CPU: the task running, and whether it is a BKL holder (which
 * is never preempted, docs/bkl.md) or may be spinning for the BKL with
 * preemption off; so the BKL's state too; and where the tick found it, in
 * the kernel, which names the long section.
 */
static void report_starved(int pid, const char *name, uint64_t ticks, struct cpu *c, const struct trapframe *tf)
{
	struct bkl_state st;
	uintptr_t off = 0;
	const char *fn = tf && !trap_from_user(tf) ? ksym_lookup(tf->eip, &off) : NULL;

	bkl_get_state(&st);
	printk("INFO: task %d (%s) runnable but not picked for %u ticks on CPU %d; running: %d (%s), "
	       "lock_depth %d; BKL held by %d on CPU %d, %d waiting\n", pid, name, (uint32_t)ticks, c->id,
	       c->curr->pid, c->curr->name, c->curr->lock_depth, st.owner ? st.owner->pid : -1, st.owner_cpu,
	       st.waiting);
	if (fn)
		printk("INFO: the tick found %d in the kernel at %s+0x%x\n", c->curr->pid, fn, (uint32_t)off);
}

void rq_report_starved_task(struct runqueue *rq, struct cpu *c, const struct trapframe *tf)
{
	struct task *t;
	uint64_t ticks = 0;
	char name[TASK_NAME_LEN];
	int pid = -1;

	/* The facts under the lock; the printing after it (printk may poll the UART for a while). */
	spin_lock(&rq->lock);
	if (rq->nr_queued) {
		t = list_first_entry(&rq->queue, struct task, run_link);
		ticks = ticks_waited(t);
		if (ticks >= LATENCY_REPORT_TICKS && !t->latency_reported) {
			t->latency_reported = true;
			pid = t->pid;
			memcpy(name, t->name, sizeof(name));
		}
	}
	spin_unlock(&rq->lock);
	if (pid >= 0)
		report_starved(pid, name, ticks, c, tf);
}
