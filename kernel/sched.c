/*
 * The scheduler: one run queue per CPU, round robin within it, preemption on
 * the timer tick, and idle CPUs that steal work from busy ones.
 *
 * Locking rules (read these before changing anything below):
 *  - runqueues[n].lock protects CPU n's queue and timed sleepers, and the
 *    on_rq / queued / cpu fields of the tasks that belong to CPU n.
 *  - schedule() takes its run-queue lock and keeps it across the stack switch;
 *    the task switched TO releases it (sched_finish_switch). So while a CPU is
 *    switching a task out, nobody else can look at that task's run-queue
 *    state: a wakeup from another CPU waits for the switch to finish.
 *  - Two run-queue locks are always taken lowest CPU first (double_lock).
 *  - Every run-queue lock holder has interrupts off (the tick takes them too).
 */
#include "kernel/sched.h"

#include "kernel/atomic.h"
#include "kernel/bkl.h"
#include "kernel/ipi.h"
#include "kernel/lib/format.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/tls.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"


struct runqueue {
	spinlock_t lock;
	struct list_head queue;         /* tasks waiting for this CPU, oldest first */
	unsigned nr_queued;
	struct list_head sleepers;      /* tasks in sched_sleep_ns() on this CPU */
};

static struct runqueue runqueues[MAX_CPUS];

struct task *switch_stacks(uint32_t *prev_esp, uint32_t next_esp, struct task *prev);
void sched_finish_switch(struct task *prev);

/* ---- run-queue helpers ---------------------------------------------------- */

/* A task waiting this many ticks of its CPU for a turn is reported: something starves it. */
#define LATENCY_REPORT_TICKS HZ

/* The wait starts when a task joins a queue (not when it moves between queues, see move_queued). */
static void stamp_queued(struct runqueue *rq, struct task *t)
{
	int cpu = (int)(rq - runqueues);

	t->queued_at_ns = clock_ns();
	t->queued_tick_cpu = cpu;
	t->queued_at_tick = READ_ONCE(cpus[cpu].ticks);
	t->latency_reported = false;
}

static uint64_t ticks_waited(const struct task *t)
{
	return READ_ONCE(cpus[t->queued_tick_cpu].ticks) - t->queued_at_tick;
}

/* t got its CPU: account the wait (/proc/PID/sched shows it). */
static void account_wait(struct task *t)
{
	uint64_t ns = clock_ns() - t->queued_at_ns, ticks = ticks_waited(t);

	t->wait_sum_ns += ns;
	t->wait_count++;
	if (ns > t->wait_max_ns)
		t->wait_max_ns = ns;
	if (ticks > t->wait_max_ticks)
		t->wait_max_ticks = ticks;
}

static void enqueue(struct runqueue *rq, struct task *t)
{
	stamp_queued(rq, t);
	list_add_tail(&t->run_link, &rq->queue);
	t->queued = true;
	t->on_rq = true;
	rq->nr_queued++;
}

static void dequeue(struct runqueue *rq, struct task *t)
{
	list_del(&t->run_link);
	t->queued = false;
	rq->nr_queued--;
}

/* From one queue to another (stealing, affinity): still the same wait. Both locks are held. */
static void move_queued(struct runqueue *from, struct runqueue *to, struct task *t)
{
	dequeue(from, t);
	t->cpu = (int)(to - runqueues);
	list_add_tail(&t->run_link, &to->queue);
	t->queued = true;
	to->nr_queued++;
}

/* Lock the run queue t belongs to; t->cpu can change until we hold it. Interrupts must be off. */
static struct runqueue *lock_task_rq(struct task *t)
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

static void double_lock(struct runqueue *a, struct runqueue *b)
{
	if (a > b) {
		struct runqueue *tmp = a;
		a = b;
		b = tmp;
	}
	spin_lock(&a->lock);
	if (b != a)
		spin_lock(&b->lock);
}

static void double_unlock(struct runqueue *a, struct runqueue *b)
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

/* Make CPU cpu look at its run queue soon: now if it is idle. */
static void kick_cpu(int cpu)
{
	if (cpus[cpu].curr != cpus[cpu].idle)
		return;         /* busy: the task waits for the next tick, round robin */
	if (cpu == this_cpu()->id)
		this_cpu()->need_resched = true;
	else
		smp_send_reschedule(cpu);
}

/* ---- making tasks runnable -------------------------------------------------- */

/* A task that has never run may start anywhere: pick the least loaded allowed CPU. */
static void place_new_task(struct task *t)
{
	uint32_t allowed = t->cpus_allowed & cpu_online_mask();
	int best = -1;

	for (int i = 0; i < ncpus; i++) {
		if (!(allowed & (1u << i)))
			continue;
		if (best < 0 || runqueues[i].nr_queued < runqueues[best].nr_queued)
			best = i;
	}
	t->cpu = best < 0 ? this_cpu()->id : best;
}

/* Wake t; the caller holds the lock of t's run queue (rq == &runqueues[t->cpu]). */
static bool wake_locked(struct runqueue *rq, struct task *t)
{
	if (t->state != TASK_SLEEPING)
		return false;
	t->state = TASK_RUNNING;
	/*
	 * Still on_rq means it never really left: it had not reached schedule()
	 * yet, or was preempted on its way to sleep. It simply carries on.
	 * Otherwise queue it.
	 */
	if (!t->on_rq) {
		enqueue(rq, t);
		kick_cpu(t->cpu);
	}
	return true;
}

bool wake_up_process(struct task *t)
{
	struct runqueue *rq;
	uint32_t flags;
	bool woke;

	flags = irq_save();
	rq = lock_task_rq(t);
	woke = wake_locked(rq, t);
	spin_unlock(&rq->lock);
	irq_restore(flags);
	return woke;
}

void wake_up_new_task(struct task *t)
{
	struct runqueue *rq;
	uint32_t flags;

	if (t->state != TASK_NEW)
		panic("wake_up_new_task: task %d (%s) is not new", t->pid, t->name);
	place_new_task(t);      /* nobody else knows t yet: no lock needed for t->cpu */
	flags = irq_save();
	rq = lock_task_rq(t);
	t->state = TASK_RUNNING;
	enqueue(rq, t);
	kick_cpu(t->cpu);
	spin_unlock(&rq->lock);
	irq_restore(flags);
}

/* A CPU t may run on, preferring target; -1 if none is online. */
static int allowed_cpu(struct task *t, int target)
{
	uint32_t ok = t->cpus_allowed & cpu_online_mask();

	if (target >= 0 && (ok & (1u << target)))
		return target;
	return ok ? __builtin_ctz(ok) : -1;
}

/* ---- the switch ------------------------------------------------------------------ */

/* Every CPU starts (and stays, when there is nothing to do) in its idle task. */
static struct task *pick_next(struct runqueue *rq, struct cpu *c)
{
	struct task *t;

	if (rq->nr_queued == 0)
		return c->idle;
	t = list_first_entry(&rq->queue, struct task, run_link);
	dequeue(rq, t);
	account_wait(t);
	return t;
}

/*
 * The end of a schedule() that picked the task it was called from (a yield
 * with nobody else queued here): the task runs on, but if it holds the BKL
 * it has just let it go (bkl_release_for_switch()), and takes it back now, as
 * it would after a real switch. Linux 2.6's schedule() did the same
 * (release_kernel_lock() and reacquire_kernel_lock() around the switch,
 * even when next == prev): otherwise a holder that polls with sched_yield()
 * keeps a waiter on another CPU spinning for as long as it polls. The
 * ticket lock is fair, so a waiter's ticket is served before ours.
 * Preemption stays off until the lock is back, as after a switch.
 */
static void bkl_retake_running_on(uint32_t flags)
{
	preempt_disable();
	irq_restore(flags);
	bkl_reacquire_after_switch(current);
	preempt_enable();
}

/*
 * Give up the CPU. A task that is switched out because it was preempted stays
 * runnable whatever its state says: it may have been stopped half way into
 * wait_event(), after marking itself asleep but before (or after!) finding
 * its condition true, and nobody would ever wake it.
 */
static void __schedule(bool preempted)
{
	struct task *prev, *next;
	struct runqueue *rq;
	struct cpu *c;
	uint32_t flags;

	flags = irq_save();
	c = this_cpu();
	prev = c->curr;
	if (c->preempt_count || c->irq_nesting)
		panic("schedule() while atomic: preempt_count %d, irq_nesting %d",
		      c->preempt_count, c->irq_nesting);
	rq = &runqueues[c->id];
	spin_lock(&rq->lock);
	c->need_resched = false;

	if (prev != c->idle) {
		bool runnable = preempted || prev->state == TASK_RUNNING;

		prev->preempted = preempted;
		if (!runnable)
			prev->on_rq = false;    /* sleeping or exiting */
		else if (prev->migrate_to < 0)
			enqueue(rq, prev);      /* preempted or yielding: back of the line */
		/* else: leaving this CPU; still on_rq, so no waker queues it meanwhile */
	}
	next = pick_next(rq, c);
	if (next == prev) {
		if (prev != c->idle)
			prev->on_rq = true;
		bkl_release_for_switch(prev);
		spin_unlock(&rq->lock);
		bkl_retake_running_on(flags);
		return;
	}

	/* prev gives up the BKL while it is not running (kernel/bkl.c). */
	bkl_release_for_switch(prev);
	next->on_cpu = true;
	next->cpu = c->id;
	c->curr = next;
	c->tss.esp0 = next->kstack ? (uint32_t)next->kstack + KSTACK_SIZE : c->tss.esp0;
	mm_switch_to(next);
	fpu_switch(&prev->fpu, &next->fpu);
	tls_load(c, next);              /* its %gs/%fs segments, reloaded by trap_return */

	prev = switch_stacks(&prev->saved_esp, next->saved_esp, prev);

	/*
	 * We are the task that was switched out above, running again, maybe much
	 * later. No preemption until we hold the BKL again (if we held it): a
	 * preemption in between would make schedule() release a lock we do not
	 * hold yet.
	 */
	preempt_disable();
	sched_finish_switch(prev);
	irq_restore(flags);
	bkl_reacquire_after_switch(current);
	preempt_enable();
}

void schedule(void)
{
	__schedule(false);
}

/* Move prev, just switched out, to CPU target. Called with prev's run-queue lock held; drops it. */
static void migrate_switched_out(struct runqueue *from, struct task *prev, int target, bool requeue)
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
	to = lock_task_rq(prev);
	enqueue(to, prev);
	target = prev->cpu;
	spin_unlock(&to->lock);
	kick_cpu(target);
}

/* The second half of every switch, run by the task switched to (see switch.S for new tasks). */
void sched_finish_switch(struct task *prev)
{
	struct cpu *c = this_cpu();
	struct runqueue *rq = &runqueues[c->id];
	int target = prev->migrate_to;
	enum task_state state = prev->state;
	bool requeue = prev->preempted || state == TASK_RUNNING;
	uint64_t now = clock_ns();

	c->curr->switches++;
	c->curr->last_switch_in_ns = now;
	prev->runtime_ns += now - prev->last_switch_in_ns;
	prev->migrate_to = -1;
	if (target >= 0 && prev != c->idle && state != TASK_ZOMBIE && state != TASK_DEAD) {
		target = allowed_cpu(prev, target);
		if (target >= 0 && target != c->id) {
			migrate_switched_out(rq, prev, target, requeue);
			return;
		}
		if (requeue)
			enqueue(rq, prev);      /* nowhere else to go after all */
	}
	/* From here on another CPU may run prev, or its parent may free it. */
	__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
	spin_unlock(&rq->lock);
	if (state == TASK_DEAD)
		task_free(prev);
}

void sched_yield(void)
{
	schedule();
}

/* ---- the tick, preemption, idle ------------------------------------------------------ */

/*
 * Wake this queue's sleepers whose time has come, under the queue's lock (a
 * sleep_link is only touched under the lock of the queue whose list it is
 * on). A sleeper that has moved to another CPU meanwhile is woken there, if
 * that queue's lock is free right now; otherwise at the next tick.
 */
static void wake_expired_sleepers(struct runqueue *rq)
{
	struct list_head *pos, *tmp;
	uint64_t now = clock_ns();

	spin_lock(&rq->lock);
	list_for_each_safe(pos, tmp, &rq->sleepers) {
		struct task *t = list_entry(pos, struct task, sleep_link);
		struct runqueue *home = &runqueues[t->cpu];

		if (t->wake_at_ns > now)
			continue;
		if (home == rq) {
			list_del(&t->sleep_link);
			wake_locked(rq, t);
		} else if (spin_trylock(&home->lock)) {
			if (home == &runqueues[t->cpu]) {
				list_del(&t->sleep_link);
				wake_locked(home, t);
			}
			spin_unlock(&home->lock);
		}
	}
	spin_unlock(&rq->lock);
}

/*
 * The oldest task on this queue has waited a whole second of this CPU's
 * ticks: whatever runs here is not letting go (a long section with
 * preemption off, a lock spun on for ever). Say so once per wait; the
 * fuzzer and the load tests look for this line. Linux's hung-task
 * detector speaks the same way about tasks that sleep too long.
 */
static void report_starved_task(struct runqueue *rq, struct cpu *c)
{
	struct task *t;
	uint64_t ticks;

	spin_lock(&rq->lock);
	if (rq->nr_queued) {
		t = list_first_entry(&rq->queue, struct task, run_link);
		ticks = ticks_waited(t);
		if (ticks >= LATENCY_REPORT_TICKS && !t->latency_reported) {
			t->latency_reported = true;
			printk("INFO: task %d (%s) runnable but not picked for %u ticks on CPU %d; "
			       "running: %d (%s)\n", t->pid, t->name, (uint32_t)ticks, c->id,
			       c->curr->pid, c->curr->name);
		}
	}
	spin_unlock(&rq->lock);
}

void sched_tick(void)
{
	struct cpu *c = this_cpu();
	struct runqueue *rq = &runqueues[c->id];

	if (!c->curr)
		return;         /* this CPU has not entered the scheduler yet */
	wake_expired_sleepers(rq);
	report_starved_task(rq, c);
	/* Time slice over: if anyone is waiting for this CPU, it is their turn. */
	if (READ_ONCE(rq->nr_queued) > 0)
		c->need_resched = true;
}

/*
 * May the current task be switched away right now, for the tick's sake?
 * Interrupts are off (the caller's own irq_save), so this CPU cannot change.
 */
static bool preemptible_now(struct cpu *c, bool irqs_were_on)
{
	if (!c->need_resched || c->irq_nesting || c->preempt_count || !c->curr)
		return false;
	if (!irqs_were_on)
		return false;   /* the code had interrupts off: not preemptible */
	/*
	 * A BKL holder is not preempted, as in Linux 2.6.6, where the BKL was a
	 * spinlock: the lock is let go only when its holder sleeps, so code
	 * under it is never interleaved with other BKL code except at the
	 * points where it may sleep (kernel/bkl.c). The tick's request waits
	 * for the next preemption point without the BKL, at the latest the
	 * return to user mode.
	 */
	if (c->curr->lock_depth >= 0)
		return false;
	/*
	 * Interrupts are on while we switch (see below), so another interrupt
	 * can arrive on our way into or out of __schedule() and end up here
	 * again, on the same stack. Without this flag every such interrupt
	 * nests one level deeper: enough of them overflowed an idle task's
	 * stack on a loaded host. Now the nested one just returns.
	 */
	return !c->curr->in_preempt;
}

/* Switch, as a preemption: the task stays runnable whatever its state says. Interrupts are off. */
static void preempt_now(struct task *t)
{
	t->in_preempt = true;
	sti();
	__schedule(true);
	cli();
	t->in_preempt = false;
}

void sched_preempt_on_trap_exit(struct trapframe *tf)
{
	struct cpu *c = this_cpu();

	if (preemptible_now(c, tf->eflags & EFLAGS_IF))
		preempt_now(c->curr);
}

/* preempt_enable()'s slow path: the count reached 0 with a switch requested. */
void preempt_schedule(void)
{
	uint32_t flags = irq_save();
	struct cpu *c = this_cpu();

	if (preemptible_now(c, flags & EFLAGS_IF))
		preempt_now(c->curr);
	irq_restore(flags);
}

/* An idle CPU takes a waiting task from the busiest other queue that allows it. */
static bool steal_task(struct cpu *c)
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

	double_lock(mine, from);
	list_for_each(pos, &from->queue) {
		struct task *t = list_entry(pos, struct task, run_link);
		if (t->cpus_allowed & (1u << c->id)) {
			move_queued(from, mine, t);
			moved = true;
			break;
		}
	}
	double_unlock(mine, from);
	return moved;
}

static void __noreturn idle_loop(void)
{
	struct cpu *c = this_cpu();

	for (;;) {
		cli();
		if (runqueues[c->id].nr_queued == 0 && !steal_task(c)) {
			/* sti takes effect after hlt starts: no wakeup IPI can slip in between. */
			__asm__ volatile("sti; hlt" ::: "memory");
			continue;
		}
		sti();
		schedule();
	}
}

/* The task structure for the code already running on this CPU: it becomes the idle task. */
static struct task *make_idle_task(struct cpu *c)
{
	struct task *t = kzalloc(sizeof(*t));

	if (!t)
		panic("no memory for CPU %d's idle task", c->id);
	snprintf(t->name, sizeof(t->name), "idle/%d", c->id);
	t->state = TASK_RUNNING;
	fpu_init_state(&t->fpu);
	t->cpu = c->id;
	t->cpus_allowed = 1u << c->id;
	t->on_cpu = true;
	t->lock_depth = -1;
	t->migrate_to = -1;
	list_init(&t->run_link);
	list_init(&t->sleep_link);
	return t;
}

static void runqueue_init(int cpu)
{
	spin_lock_init(&runqueues[cpu].lock, "runqueue");
	list_init(&runqueues[cpu].queue);
	list_init(&runqueues[cpu].sleepers);
}

void sched_init(void)
{
	struct cpu *c = this_cpu();

	for (int i = 0; i < MAX_CPUS; i++)
		runqueue_init(i);
	c->idle = c->curr = make_idle_task(c);
}

void cpu_enter_scheduler(void)
{
	struct cpu *c = this_cpu();

	if (!c->idle)
		c->idle = c->curr = make_idle_task(c);
	c->online = true;
	idle_loop();
}

/* ---- sleeping, exiting, affinity ---------------------------------------------------- */

bool task_should_stop_waiting(void)
{
	return current->killed;
}

int sched_sleep_ns(uint64_t ns)
{
	struct task *t = current;
	uint64_t deadline = clock_ns() + ns;

	might_sleep();
	while (clock_ns() < deadline) {
		struct runqueue *rq;
		uint32_t flags;

		if (task_signal_pending())
			return -EINTR;
		flags = irq_save();
		rq = lock_task_rq(t);
		t->wake_at_ns = deadline;
		list_add_tail(&t->sleep_link, &rq->sleepers);
		t->state = TASK_SLEEPING;
		spin_unlock(&rq->lock);
		irq_restore(flags);
		/* A signal between the test above and TASK_SLEEPING found us running: look again. */
		smp_mb();
		if (task_signal_pending())
			t->state = TASK_RUNNING;

		schedule();

		/*
		 * Woken by the tick (already off the list) or by something else (still
		 * on it). Unlink under the lock of the queue whose list it is on: we
		 * may have been moved to another CPU since.
		 */
		flags = irq_save();
		spin_lock(&rq->lock);
		list_del(&t->sleep_link);
		spin_unlock(&rq->lock);
		irq_restore(flags);
	}
	return 0;
}

void task_exit_final(void)
{
	struct task *t = current;

	if (t->lock_depth >= 0) {
		printk("BUG: task %d (%s) exiting with the BKL held (depth %d); releasing it\n",
		       t->pid, t->name, t->lock_depth);
		while (t->lock_depth >= 0)
			unlock_kernel();
	}
	cli();
	if (t->state != TASK_ZOMBIE)
		t->state = TASK_DEAD;   /* nobody will wait for it: freed after the switch */
	schedule();
	panic("exited task %d (%s) ran again", t->pid, t->name);
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
	rq = lock_task_rq(t);
	t->cpus_allowed = mask;
	if (mask & (1u << t->cpu)) {
		spin_unlock(&rq->lock);
	} else if (t->queued) {
		/* Waiting for a CPU it may no longer use: move it to the other queue now. */
		struct runqueue *to = &runqueues[target];
		int from_cpu = t->cpu;

		spin_unlock(&rq->lock);
		double_lock(rq, to);
		if (t->queued && t->cpu == from_cpu && !(t->cpus_allowed & (1u << from_cpu))) {
			move_queued(rq, to, t);
			kick_cpu(target);
		}
		double_unlock(rq, to);
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
		t->migrate_to = allowed_cpu(t, target);
		irq_restore(flags);
		schedule();
	}
	return 0;
}

/* ---- checks --------------------------------------------------------------------------------- */

void might_sleep_at(const char *file, int line)
{
	struct cpu *c = this_cpu();
	bool irqs_off = !irqs_enabled();

	if (!c->curr || (c->irq_nesting == 0 && c->preempt_count == 0 && !irqs_off))
		return;
	printk("BUG: sleeping function called from invalid context at %s:%d\n", file, line);
	printk("in_interrupt: %d, preempt_count: %d, irqs_disabled: %d, pid: %d, name: %s\n",
	       c->irq_nesting, c->preempt_count, irqs_off, c->curr->pid, c->curr->name);
	for (int i = 0; i < MIN(c->nlocks_held, MAX_HELD_LOCKS); i++)
		printk("  holding spinlock %s, taken at %s:%d\n", c->locks_held[i]->name,
		       c->locks_held[i]->file, c->locks_held[i]->line);
	dump_backtrace(read_ebp());
}
