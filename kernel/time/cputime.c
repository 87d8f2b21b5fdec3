/*
 * CPU time accounting: the tick's sampling, the books per CPU and per task,
 * and the split of a task's exact runtime into user and system time
 * (kernel/time/cputime.h says why it is done this way).
 */
#include "kernel/time/cputime.h"

#include "kernel/cpu.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/process/proc.h"
#include "kernel/process/thread.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/time/itimer.h"
#include "kernel/time/timer.h"
#include "kernel/x86/trap.h"

_Static_assert(HZ == USER_HZ, "a tick is one clock_t of /proc/stat and times()");

/* ---- the tick ------------------------------------------------------------------------ */

/* The tick found the kernel running for t: system time, and maybe spinning for a lock. */
static void charge_system(struct cpu *c, struct task *t)
{
	c->usage.system++;
	t->ticks.system++;
	if (c->spinning == SPINNING_NONE)
		return;
	c->usage.spin++;
	t->ticks.spin++;
	if (c->spinning == SPINNING_BKL) {
		c->usage.bkl++;
		t->ticks.bkl++;
	}
}

/*
 * Interrupt handlers are timed exactly (kernel/x86/trap.c adds their cycles
 * to irq_cycles), since a tick can never find one running: they run with
 * interrupts off. Once a whole tick's worth has built up, the tick is the
 * handlers', as Linux's IRQ time accounting charges it.
 */
static bool irq_time_due(struct cpu *c)
{
	uint64_t tick_cycles = timer_cycles_per_tick();

	if (c->irq_cycles - c->irq_cycles_charged < tick_cycles)
		return false;
	c->irq_cycles_charged += tick_cycles;
	return true;
}

void cputime_tick(struct cpu *c, const struct trapframe *tf, uint64_t late_periods)
{
	struct task *t = c->curr;

	c->usage.steal += late_periods;
	if (!t)
		return;
	if (irq_time_due(c)) {
		c->usage.irq++;
	} else if (trap_from_user(tf)) {
		c->usage.user++;
		t->ticks.user++;
		itimer_cpu_tick(t, true);
	} else if (t == c->idle) {
		/* Idle with a task asleep on a disk it started from here: Linux's iowait. */
		if (atomic_read(&c->nr_iowait) > 0)
			c->usage.iowait++;
		else
			c->usage.idle++;
	} else {
		charge_system(c, t);
		itimer_cpu_tick(t, false);
	}
}

/* ---- sums and splits ------------------------------------------------------------------ */

void cputime_add(struct task_cputime *to, const struct task_cputime *from)
{
	to->runtime_ns += from->runtime_ns;
	to->ticks.user += from->ticks.user;
	to->ticks.system += from->ticks.system;
	to->ticks.spin += from->ticks.spin;
	to->ticks.bkl += from->ticks.bkl;
}

void cputime_of_task(const struct task *t, struct task_cputime *out)
{
	uint64_t run;

	/*
	 * Our own time is read with preemption off: a switch between the two
	 * reads would move the slice into runtime_ns after we read it, and the
	 * CPU-time clocks would run backwards. Another CPU's task is read as
	 * any look at it is, racily: a display may be a slice off.
	 */
	preempt_disable();
	run = READ_ONCE(t->runtime_ns);
	if (t->on_cpu && cpus[t->cpu].curr == t)
		run += clock_ns() - READ_ONCE(t->last_switch_in_ns);
	out->ticks = t->ticks;
	preempt_enable();
	out->runtime_ns = run;
}

void cputime_of_group(const struct task *t, struct task_cputime *out)
{
	struct thread_group *g = t->group;
	struct list_head *pos;

	assert_spin_held(&proc_lock);
	*out = g->exited_time;
	list_for_each(pos, &g->threads) {
		struct task_cputime one;

		cputime_of_task(list_entry(pos, struct task, thread_link), &one);
		cputime_add(out, &one);
	}
}

void cputime_of_children(const struct task *t, struct task_cputime *out)
{
	assert_spin_held(&proc_lock);
	*out = t->group->children_time;
}

/* total * part / whole without overflowing 64 bits: runtime_ns times a tick count could. */
static uint64_t scale(uint64_t total, uint64_t part, uint64_t whole)
{
	return total / whole * part + total % whole * part / whole;
}

void cputime_split(const struct task_cputime *t, struct cputime_split *out)
{
	uint64_t ticks = t->ticks.user + t->ticks.system;

	if (ticks == 0) {
		/* Too short for any tick to see it: Linux gives it all to user time. */
		*out = (struct cputime_split){ .user_ns = t->runtime_ns };
		return;
	}
	out->system_ns = scale(t->runtime_ns, t->ticks.system, ticks);
	out->user_ns = t->runtime_ns - out->system_ns;
	out->spin_ns = scale(t->runtime_ns, t->ticks.spin, ticks);
	out->bkl_ns = scale(t->runtime_ns, t->ticks.bkl, ticks);
}

void cputime_split_monotonic(const struct task_cputime *t, struct prev_cputime *prev, struct cputime_split *out)
{
	uint64_t rt = t->runtime_ns;

	cputime_split(t, out);
	/* runtime_ns only grows, so rt >= prev's user + system: both can be kept from going back. */
	if (rt < prev->user_ns + prev->system_ns) {
		out->user_ns = prev->user_ns;
		out->system_ns = prev->system_ns;
		return;
	}
	if (out->system_ns < prev->system_ns)
		out->system_ns = prev->system_ns;
	out->user_ns = rt - out->system_ns;
	if (out->user_ns < prev->user_ns) {
		out->user_ns = prev->user_ns;
		out->system_ns = rt - out->user_ns;
	}
	prev->user_ns = out->user_ns;
	prev->system_ns = out->system_ns;
}

/* ---- a task's life ------------------------------------------------------------------------ */

void cputime_thread_exit(struct task *t)
{
	struct task_cputime mine;

	assert_spin_held(&proc_lock);
	cputime_of_task(t, &mine);
	cputime_add(&t->group->exited_time, &mine);
}

void cputime_reap(struct task *parent, const struct task *c)
{
	struct thread_group *to = parent->group;

	spin_lock(&proc_lock);
	/* c's group is empty now: every thread, c too, has left its time in exited_time. */
	cputime_add(&to->children_time, &c->group->exited_time);
	cputime_add(&to->children_time, &c->group->children_time);
	spin_unlock(&proc_lock);
}

/* ---- waiting for a disk -------------------------------------------------------------------- */

/*
 * Counted on the CPU the task went to sleep on, and taken back from the
 * same one wherever it wakes, as Linux's rq->nr_iowait.
 */
void cputime_iowait_begin(void)
{
	struct task *t = current;

	preempt_disable();
	t->iowait_cpu = cpu_id();
	atomic_inc(&cpus[t->iowait_cpu].nr_iowait);
	preempt_enable();
}

void cputime_iowait_end(void)
{
	atomic_dec(&cpus[current->iowait_cpu].nr_iowait);
}

int cputime_nr_iowait(void)
{
	int n = 0;

	for (int i = 0; i < ncpus; i++)
		n += atomic_read(&cpus[i].nr_iowait);
	return n;
}
