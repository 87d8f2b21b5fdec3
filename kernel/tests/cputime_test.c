/*
 * Self-tests of the CPU time books (kernel/time/cputime.c): the ticks that
 * found a CPU spinning for the BKL add up to the time the BKL's own
 * statistics measured its waiters spinning, exactly, with the TSC.
 */
#include "kernel/cpu.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/locking/bkl.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/cputime.h"
#include "kernel/time/timer.h"

#ifdef CONFIG_BKL        /* no BKL in make ERA=2.6.39 */

#define RUN_NS   1500000000ULL          /* long enough for a hundred ticks of waiting on each CPU */
#define HOLD_US  300

static struct thread_group fighters;
static volatile uint64_t stop_at;

/* Take the BKL, keep it busy a while, let go; again until told. Every other CPU meanwhile spins. */
static int bkl_fighter(void *unused)
{
	(void)unused;
	while (clock_ns() < stop_at) {
		lock_kernel();
		udelay(HOLD_US);
		unlock_kernel();
		udelay(HOLD_US / 10);           /* give the lock a chance to move */
	}
	return group_exit(&fighters);
}

static struct bkl_site *fighter_site(void)
{
	for (struct bkl_site *s = bkl_sites_begin(); s < bkl_sites_end(); s++)
		if (strcmp(s->function, "bkl_fighter") == 0)
			return s;
	return NULL;
}

static uint64_t bkl_ticks_everywhere(void)
{
	uint64_t n = 0;

	for (int i = 0; i < ncpus; i++)
		n += READ_ONCE(cpus[i].usage.bkl);
	return n;
}

static uint64_t steal_everywhere(void)
{
	uint64_t n = 0;

	for (int i = 0; i < ncpus; i++)
		n += READ_ONCE(cpus[i].usage.steal);
	return n;
}

/*
 * The two ways of counting must agree: sampled ticks against the waiters'
 * exact cycles, within a third: a tick is 10 ms, and a few hundred of them
 * make the sample. Time the host machine took from a spinning vCPU is in
 * the cycles but in no tick: it is steal. The waiters spin nearly all the
 * time, so the steal is nearly all theirs: the lower bound counts it in.
 */
KTEST(cputime_bkl_spin_matches_bkl_wait)
{
	struct bkl_site *site;
	uint64_t ticks0, steal0, wait0, ticks, steal, wait_ns, sampled_ns;
	int n = 0;

	if (bkl_is_semaphore() || last_online_cpu() == 0)
		return;                 /* era=2.6.8 sleeps instead of spinning; one CPU never waits */
	group_init(&fighters);
	stop_at = clock_ns() + RUN_NS;
	site = fighter_site();
	KT_ASSERT(site != NULL);
	ticks0 = bkl_ticks_everywhere();
	steal0 = steal_everywhere();
	wait0 = site->wait_cycles;
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (cpus[cpu].online && group_start(&fighters, bkl_fighter, NULL, "ktest-bklspin", cpu))
			n++;
	KT_ASSERT(n >= 2);
	group_wait(&fighters);
	ticks = bkl_ticks_everywhere() - ticks0;
	steal = steal_everywhere() - steal0;
	lock_kernel();                  /* the site's counters are the BKL's to protect */
	wait_ns = cycles_to_ns(site->wait_cycles - wait0);
	unlock_kernel();
	sampled_ns = ticks * (1000000000ULL / HZ);
	printk("ktest: cputime: BKL waits %llu ms measured, %llu ms sampled (%llu ticks), %llu ticks stolen\n",
	       wait_ns / 1000000, sampled_ns / 1000000, ticks, steal);
	KT_ASSERT(wait_ns > 200000000ULL);      /* the fight happened: a waiter spun most of the time */
	KT_ASSERT(sampled_ns > 0);
	KT_ASSERT((sampled_ns + steal * (1000000000ULL / HZ)) * 3 >= wait_ns * 2);
	KT_ASSERT(sampled_ns * 3 <= wait_ns * 4);
}

#endif /* CONFIG_BKL */

/*
 * A sum's user time never goes back. Before: 1 s, all user (100 user ticks).
 * A child reaped then adds 10 ms and 5 system ticks: split alone, the sum
 * says user 0.962 s, less than before, and a shell's `time` subtracting two
 * times() would print a negative user time. Split monotonic, user stays at
 * 1 s and system takes the new 10 ms; user + system is still the runtime.
 */
KTEST(cputime_split_never_goes_back)
{
	struct task_cputime before = { .runtime_ns = 1000000000ULL, .ticks = { .user = 100 } };
	struct task_cputime after = { .runtime_ns = 1010000000ULL, .ticks = { .user = 100, .system = 5 } };
	struct prev_cputime shown = { 0 };
	struct cputime_split plain, s;

	cputime_split_monotonic(&before, &shown, &s);
	KT_ASSERT(s.user_ns == 1000000000ULL && s.system_ns == 0);
	cputime_split(&after, &plain);
	KT_ASSERT(plain.user_ns < 1000000000ULL);       /* the plain split does go back */
	cputime_split_monotonic(&after, &shown, &s);
	KT_ASSERT(s.user_ns == 1000000000ULL);
	KT_ASSERT(s.system_ns == 10000000ULL);
	/* And the other way: more user ticks later must not take system back either. */
	after.runtime_ns += 1000000000ULL;
	after.ticks.user += 1000;
	cputime_split_monotonic(&after, &shown, &s);
	KT_ASSERT(s.system_ns >= 10000000ULL && s.user_ns + s.system_ns == after.runtime_ns);
}
