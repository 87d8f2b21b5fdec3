/*
 * The scheduler: one run queue per CPU (kernel/sched/runqueue.c), round
 * robin within it, preemption on the timer tick, sleeping; and idle CPUs
 * that steal work from busy ones and affinity (kernel/sched/affinity.c).
 *
 * Locking rules (read these before changing anything below):
 *  - runqueues[n].lock protects CPU n's queue and timed sleepers, and the
 *    on_rq / queued / cpu fields of the tasks that belong to CPU n.
 *  - schedule() takes its run-queue lock and keeps it across the stack switch;
 *    the task switched TO releases it (sched_finish_switch). So while a CPU is
 *    switching a task out, nobody else can look at that task's run-queue
 *    state: a wakeup from another CPU waits for the switch to finish.
 *  - Two run-queue locks are always taken lowest CPU first (rq_double_lock).
 *  - Every run-queue lock holder has interrupts off (the tick takes them too).
 */
#include "kernel/sched/sched.h"

#include "kernel/sched/runqueue.h"

#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/locking/lockdep.h"
#include "kernel/cmdline.h"
#include "kernel/ipi.h"
#include "kernel/lib/format.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/time/timer.h"
#include "kernel/trace/trace.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/tls.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

struct task *switch_stacks(uint32_t *prev_esp, uint32_t next_esp, struct task *prev);
void sched_finish_switch(struct task *prev);

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
		rq_enqueue(rq, t);
		rq_kick_cpu(t->cpu);
	}
	return true;
}

bool wake_up_process(struct task *t)
{
	struct runqueue *rq;
	uint32_t flags;
	bool woke;

	flags = irq_save();
	rq = rq_lock_task(t);
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
	rq = rq_lock_task(t);
	t->state = TASK_RUNNING;
	rq_enqueue(rq, t);
	rq_kick_cpu(t->cpu);
	spin_unlock(&rq->lock);
	irq_restore(flags);
}


/* ---- the switch ------------------------------------------------------------------ */

/* Every CPU starts (and stays, when there is nothing to do) in its idle task. */
static struct task *pick_next(struct runqueue *rq, struct cpu *c)
{
	struct task *t;

	if (rq->nr_queued == 0)
		return c->idle;
	t = list_first_entry(&rq->queue, struct task, run_link);
	rq_dequeue(rq, t);
	rq_account_wait(t);
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

/* Why prev leaves the CPU, for the trace. */
static unsigned switch_reason(const struct task *prev, bool preempted)
{
	if (preempted)
		return TRS_PREEMPT;
	switch (prev->state) {
	case TASK_RUNNING:
		return TRS_YIELD;
	case TASK_SLEEPING:
		return TRS_SLEEP;
	default:
		return TRS_EXIT;
	}
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
	/*
	 * The BKL's rule 2 (kernel/locking/bkl.c): a holder lets the lock go for
	 * as long as it is off the CPU, and takes it back once it runs again
	 * (bkl_reacquire_after_switch() below). Let go before the run-queue lock
	 * is taken: in the era=2.6.8 kernel the BKL is a semaphore, whose release
	 * wakes the next holder, which takes a run-queue lock, maybe this one.
	 */
	bkl_release_for_switch(prev);
	spin_lock(&rq->lock);
	c->need_resched = false;

	if (prev != c->idle) {
		bool runnable = preempted || prev->state == TASK_RUNNING;

		prev->preempted = preempted;
		if (!runnable)
			prev->on_rq = false;    /* sleeping or exiting */
		else if (prev->migrate_to < 0)
			rq_enqueue(rq, prev);      /* preempted or yielding: back of the line */
		/* else: leaving this CPU; still on_rq, so no waker queues it meanwhile */
	}
	next = pick_next(rq, c);
	if (next == prev) {
		if (prev != c->idle)
			prev->on_rq = true;
		spin_unlock(&rq->lock);
		bkl_retake_running_on(flags);
		return;
	}

	trace_switch(prev, next, switch_reason(prev, preempted));
	/* next lets the run-queue lock go (sched_finish_switch): the checker moves it to next's held locks. */
	if (__builtin_expect(lockdep_on, 0))
		lockdep_handoff(&rq->lock, prev, next);
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
	c->nr_switches++;
	c->curr->last_switch_in_ns = now;
	prev->runtime_ns += now - prev->last_switch_in_ns;
	prev->migrate_to = -1;
	if (target >= 0 && prev != c->idle && state != TASK_ZOMBIE && state != TASK_DEAD) {
		target = sched_allowed_cpu(prev, target);
		if (target >= 0 && target != c->id) {
			sched_migrate_switched_out(rq, prev, target, requeue);
			return;
		}
		if (requeue)
			rq_enqueue(rq, prev);      /* nowhere else to go after all */
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


void sched_tick(const struct trapframe *tf)
{
	struct cpu *c = this_cpu();
	struct runqueue *rq = &runqueues[c->id];

	if (!c->curr)
		return;         /* this CPU has not entered the scheduler yet */
	wake_expired_sleepers(rq);
	rq_report_starved_task(rq, c, tf);
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
	 * points where it may sleep (kernel/locking/bkl.c). The tick's request waits
	 * for the next preemption point without the BKL, at the latest the
	 * return to user mode. As a semaphore (era=2.6.8, Linux's
	 * CONFIG_PREEMPT_BKL) the BKL lets its holder be preempted: the holder
	 * keeps it meanwhile (preempt_now()), so other BKL users still wait.
	 */
	if (c->curr->lock_depth >= 0 && !bkl_is_semaphore())
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

/*
 * Switch, as a preemption: the task stays runnable whatever its state says.
 * Interrupts are off. A preempted BKL holder (only a semaphore BKL's can be)
 * keeps the BKL: schedule() releases it for a task with lock_depth >= 0, so
 * the depth is hidden for the switch, as Linux's preempt_schedule() did
 * (saved_lock_depth) under CONFIG_PREEMPT_BKL.
 */
static void preempt_now(struct task *t)
{
	int depth = t->lock_depth;

	t->in_preempt = true;
	t->lock_depth = -1;
	sti();
	__schedule(true);
	cli();
	t->lock_depth = depth;
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


/*
 * How long an idle CPU polls its run queue before it halts (boot word
 * idle_poll_us=N; 0: halt at once, as before).
 *
 * Why poll at all: a task that sleeps on one CPU and is woken from another
 * (a pipe's reader, a futex waiter) finds its CPU halted. Waking a halted
 * CPU takes an IPI: the waker's writes to the local APIC, the interrupt
 * and its EOI on the other side. On a PC that is a microsecond or two; under
 * QEMU's TCG, where each vCPU is a host thread, every APIC access leaves the
 * translated code and takes the emulator's global lock, and a halted vCPU's
 * thread sleeps on a condition variable that the host must wake: tens of
 * microseconds, more on a busy host. A CPU that polls for a little while
 * before halting is still running when the wakeup comes, sees the task
 * queued and switches to it; the waker sends nothing (rq_kick_cpu()).
 * docs/performance.md, "Cross-CPU wake-ups", has the measurements.
 *
 * The price: a polling CPU burns its (host) CPU for nothing when no wakeup
 * comes, and on a PC it keeps the core out of its low-power state. So the
 * poll is short and bounded: a task that ping-pongs with another CPU is
 * woken within a few tens of microseconds, and anything longer ends in hlt
 * as before. An idle smpix wakes HZ times a second per CPU for the tick and
 * polls after each: idle_poll_us / (1e6 / HZ) of a host CPU per vCPU, 0.5%
 * at 50 us (measured: 1.1-1.6% of a host core for an idle -smp 2 before,
 * 1.9-2.6% after). A poll that overlaps the host running other work costs
 * more: it holds a host core the partner vCPU may be waiting for, for at
 * most the bound, after which the halt gives the core back.
 * Linux does the same in its guests (cpuidle-haltpoll, guest_halt_poll_ns,
 * 200 us by default and adaptive), and idle=poll polls for ever.
 */
#define IDLE_POLL_US_DEFAULT 50
uint32_t idle_poll_us = IDLE_POLL_US_DEFAULT;

/*
 * Poll this CPU's run queue with interrupts on, for at most the bound above.
 * Returns with interrupts off and polling cleared; the caller then looks at
 * the queue once more (nothing queued after the barrier below goes unseen:
 * its waker sees polling clear and sends the IPI, rq_kick_cpu()).
 * No pause in the loop: under TCG each pause leaves the translated code for
 * the emulator's main loop, which takes its global lock (kernel/x86/emulator.h).
 * (On a PC, pause would be kinder to a hyperthread sibling; Linux's
 * poll_idle() has it.)
 */
static void idle_poll(struct cpu *c)
{
	struct runqueue *rq = &runqueues[c->id];
	uint64_t per_us = tsc_hz / 1000000, start = rdtsc();

	if (!READ_ONCE(idle_poll_us) || ncpus == 1)
		return;         /* one CPU: every wakeup comes with an interrupt, which ends a halt anyway */
	WRITE_ONCE(c->polling, true);
	smp_mb();
	sti();
	/* The bound read each time round: a change (the ktest's) takes effect at once. */
	while (!READ_ONCE(rq->nr_queued) && !c->need_resched && rdtsc() - start < per_us * READ_ONCE(idle_poll_us))
		barrier();
	cli();
	WRITE_ONCE(c->polling, false);
	smp_mb();
}

static void __noreturn idle_loop(void)
{
	struct cpu *c = this_cpu();

	for (;;) {
		cli();
		if (runqueues[c->id].nr_queued == 0)
			idle_poll(c);
		if (runqueues[c->id].nr_queued == 0 && !sched_steal_task(c)) {
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
	idle_poll_us = cmdline_get_uint("idle_poll_us", IDLE_POLL_US_DEFAULT);
}

void cpu_enter_scheduler(void)
{
	struct cpu *c = this_cpu();

	if (!c->idle)
		c->idle = c->curr = make_idle_task(c);
	c->online = true;
	idle_loop();
}

/* ---- sleeping, exiting ---------------------------------------------------- */

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
		rq = rq_lock_task(t);
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

/*
 * The sleep of a waiter that has queued itself where its waker will find it
 * and set TASK_SLEEPING (futexes, kernel/futex/futex.c): schedule(), but if
 * deadline (clock_ns(), 0: none) passes first, the tick wakes it, as it does
 * sched_sleep_ns()'s sleepers. A wakeup that came before we are on the
 * sleepers' list has made us TASK_RUNNING already: schedule() then returns
 * at once. Either way the caller looks at why it woke.
 */
void schedule_until(uint64_t deadline)
{
	struct task *t = current;
	struct runqueue *rq;
	uint32_t flags;

	if (!deadline) {
		schedule();
		return;
	}
	flags = irq_save();
	rq = rq_lock_task(t);
	t->wake_at_ns = deadline;
	list_add_tail(&t->sleep_link, &rq->sleepers);
	spin_unlock(&rq->lock);
	irq_restore(flags);

	schedule();

	/* Off the list of the queue we joined (the tick may have taken us off already). */
	flags = irq_save();
	spin_lock(&rq->lock);
	list_del(&t->sleep_link);
	spin_unlock(&rq->lock);
	irq_restore(flags);
}

void task_exit_final(void)
{
	struct task *t = current;

#ifdef CONFIG_BKL
	if (t->lock_depth >= 0) {
		printk("BUG: task %d (%s) exiting with the BKL held (depth %d); releasing it\n",
		       t->pid, t->name, t->lock_depth);
		while (t->lock_depth >= 0)
			unlock_kernel();
	}
#endif
	cli();
	if (t->state != TASK_ZOMBIE)
		t->state = TASK_DEAD;   /* nobody will wait for it: freed after the switch */
	schedule();
	panic("exited task %d (%s) ran again", t->pid, t->name);
}

/*
 * Free a zombie that nobody will reap (its parent died, and no init adopted
 * it), for a caller that may not wait for it as reap() does: it may still be
 * on its CPU, in its last switch. That switch holds t's run-queue lock until
 * sched_finish_switch() has read t's state and cleared on_cpu, so under the
 * same lock exactly one of two things is true. Either on_cpu is still set:
 * the switch will see TASK_DEAD and free t, as it frees any task that exits
 * with no parent. Or the switch is over and nothing will touch t again: we
 * free it. (Linux shares the work between release_task() and
 * finish_task_switch() with a reference count; smpix has none, so the lock
 * decides.) The caller holds proc_lock, under which kill() finds tasks (and
 * never a TASK_DEAD one): nobody is looking at t while it goes. task_free()
 * waits until the run-queue lock is let go, as in sched_finish_switch().
 */
void sched_free_zombie(struct task *t)
{
	struct runqueue *rq;
	uint32_t flags;
	bool switched_out;

	if (t->state != TASK_ZOMBIE)
		panic("sched_free_zombie: task %d (%s) is not a zombie", t->pid, t->name);
	flags = irq_save();
	rq = rq_lock_task(t);
	switched_out = !t->on_cpu;
	t->state = TASK_DEAD;
	spin_unlock(&rq->lock);
	irq_restore(flags);
	if (switched_out)
		task_free(t);
}


/* ---- checks --------------------------------------------------------------------------------- */

/*
 * Interrupts off while we look: this CPU's preempt_count and held locks
 * are only ours while we cannot be switched away. A task preempted between
 * this_cpu() and the read (and resumed on another CPU) would read the
 * count of the CPU it left, where another task may hold a spinlock now:
 * a false report, seen once in a 10-minute fuzz at -smp 4. Linux keeps the
 * count per thread (thread_info) and has no such window.
 */
void might_sleep_at(const char *file, int line)
{
	bool irqs_off = !irqs_enabled();
	uint32_t flags = irq_save();
	struct cpu *c = this_cpu();

	if (!c->curr || (c->irq_nesting == 0 && c->preempt_count == 0 && !irqs_off)) {
		irq_restore(flags);
		return;
	}
	printk("BUG: sleeping function called from invalid context at %s:%d\n", file, line);
	printk("in_interrupt: %d, preempt_count: %d, irqs_disabled: %d, pid: %d, name: %s\n",
	       c->irq_nesting, c->preempt_count, irqs_off, c->curr->pid, c->curr->name);
	for (int i = 0; i < MIN(c->nlocks_held, MAX_HELD_LOCKS); i++)
		printk("  holding spinlock %s, taken at %s:%d\n", c->locks_held[i]->name,
		       c->locks_held[i]->file, c->locks_held[i]->line);
	dump_backtrace(read_ebp());
	irq_restore(flags);
}
