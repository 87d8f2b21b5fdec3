/* Self-tests of preemption, timed sleep and affinity: they need the timer tick on every CPU. */
#include "kernel/ktest.h"
#include "kernel/sched/task.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"

/* More busy tasks than CPUs, none of which ever yields: the tick must share the CPUs. */
#define SPINNERS_PER_CPU 3
#define MAX_SPINNERS (SPINNERS_PER_CPU * MAX_CPUS)
static struct {
	struct thread_group g;
	volatile bool stop;
	volatile unsigned long progress[MAX_SPINNERS];
} spin;

static int spinner(void *arg)
{
	int me = (int)(uintptr_t)arg;

	while (!READ_ONCE(spin.stop))
		spin.progress[me]++;
	return group_exit(&spin.g);
}

KTEST(sched_more_tasks_than_cpus_all_progress)
{
	int online = 0;

	for (uint32_t m = cpu_online_mask(); m; m &= m - 1)
		online++;
	int n = SPINNERS_PER_CPU * online;

	group_init(&spin.g);
	spin.stop = false;
	for (int i = 0; i < n; i++) {
		spin.progress[i] = 0;
		KT_ASSERT(group_start(&spin.g, spinner, (void *)(uintptr_t)i, "spinner", -1));
	}
	sched_sleep_ns(300 * 1000 * 1000ULL);
	/* Snapshot, then make sure each one still moves: all of them get CPU time. */
	unsigned long seen[MAX_SPINNERS];
	for (int i = 0; i < n; i++)
		seen[i] = spin.progress[i];
	sched_sleep_ns(300 * 1000 * 1000ULL);
	spin.stop = true;
	group_wait(&spin.g);
	for (int i = 0; i < n; i++)
		KT_ASSERT(spin.progress[i] > seen[i] && seen[i] > 0);
}

/* A task pinned to a CPU runs only there, through sleeps, yields and preemption. */
static struct {
	struct thread_group g;
	int wrong[MAX_CPUS];
	int ran[MAX_CPUS];
} pin;

static int pinned_thread(void *arg)
{
	int cpu = (int)(uintptr_t)arg;

	for (int i = 0; i < 200; i++) {
		if (cpu_id() != cpu)
			pin.wrong[cpu]++;
		pin.ran[cpu]++;
		if (i % 10 == 0)
			sched_sleep_ns(1000 * 1000);
		else
			sched_yield();
	}
	return group_exit(&pin.g);
}

KTEST(sched_pinned_task_stays_on_its_cpu)
{
	group_init(&pin.g);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		pin.wrong[cpu] = pin.ran[cpu] = 0;
		if (cpu_online_mask() & (1u << cpu))
			KT_ASSERT(group_start(&pin.g, pinned_thread, (void *)(uintptr_t)cpu, "pinned", cpu));
	}
	/* Extra load so the balancer has reasons to move things. */
	group_wait(&pin.g);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (!(cpu_online_mask() & (1u << cpu)))
			continue;
		KT_ASSERT_EQ(pin.ran[cpu], 200);
		KT_ASSERT_EQ(pin.wrong[cpu], 0);
	}
}

KTEST(sched_sleep_lasts_at_least_the_time_asked)
{
	uint64_t t0 = clock_ns();

	KT_ASSERT_EQ(sched_sleep_ns(30 * 1000 * 1000ULL), 0);
	uint64_t slept = clock_ns() - t0;
	KT_ASSERT(slept >= 30 * 1000 * 1000ULL);
	KT_ASSERT(slept < 2000 * 1000 * 1000ULL);
}

/* Changing a running task's affinity moves it at once. */
static struct {
	struct thread_group g;
	int before, after;
} mig;

static int migrating_thread(void *unused)
{
	int target = last_online_cpu();

	mig.before = cpu_id();
	sched_set_affinity(current, 1u << target);
	mig.after = cpu_id();
	return group_exit(&mig.g);
}

KTEST(sched_affinity_moves_a_running_task)
{
	group_init(&mig.g);
	KT_ASSERT(group_start(&mig.g, migrating_thread, NULL, "migrant", 0));
	group_wait(&mig.g);
	KT_ASSERT_EQ(mig.before, 0);
	KT_ASSERT_EQ(mig.after, last_online_cpu());
	KT_ASSERT_EQ(sched_set_affinity(current, 0), -22);      /* -EINVAL: no CPU */
}
