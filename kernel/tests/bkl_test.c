/* Self-tests of the Big Kernel Lock: recursion, release across sleep, contention, statistics, misuse. */
#include "kernel/locking/bkl.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/task.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"
#include "kernel/x86/trap.h"

#ifdef CONFIG_BKL        /* no BKL to test in make ERA=2.6.39 */

static struct bkl_site *find_site(const char *function)
{
	for (struct bkl_site *s = bkl_sites_begin(); s < bkl_sites_end(); s++)
		if (strcmp(s->function, function) == 0)
			return s;
	return NULL;
}

KTEST(bkl_nests_three_deep)
{
	struct bkl_state st;

	KT_ASSERT_EQ(current->lock_depth, -1);
	lock_kernel();
	lock_kernel();
	lock_kernel();
	KT_ASSERT_EQ(current->lock_depth, 2);   /* Linux's convention: holds - 1 */
	bkl_get_state(&st);
	KT_ASSERT(st.owner == current);
	KT_ASSERT_EQ(st.owner_depth, 2);
	unlock_kernel();
	unlock_kernel();
	KT_ASSERT(kernel_locked());             /* only the outermost unlock releases it */
	unlock_kernel();
	KT_ASSERT(!kernel_locked());
	bkl_get_state(&st);
	KT_ASSERT(st.owner == NULL);
}

/*
 * A holds the BKL (twice) and sleeps; B, on another CPU when there is one,
 * takes the BKL while A sleeps, then wakes A. A must find its depth intact and
 * the lock held again.
 */
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile int phase;
	int a_depth_after, a_locked_after, a_owner_after, b_got_lock, b_saw_a_depth;
	struct task *a;
} across;

static int bkl_sleeper_a(void *unused)
{
	struct bkl_state st;

	lock_kernel();
	lock_kernel();
	across.a = current;
	across.phase = 1;
	wake_up(&across.wq);
	wait_event(across.wq, across.phase == 2);       /* sleeps holding the BKL */
	bkl_get_state(&st);
	across.a_depth_after = current->lock_depth;
	across.a_locked_after = kernel_locked();
	across.a_owner_after = st.owner == current;
	unlock_kernel();
	unlock_kernel();
	return group_exit(&across.g);
}

static int bkl_taker_b(void *unused)
{
	struct bkl_state st;

	wait_event(across.wq, across.phase == 1);
	lock_kernel();          /* only possible because A dropped it to sleep */
	bkl_get_state(&st);
	across.b_got_lock = st.owner == current;
	across.b_saw_a_depth = across.a->lock_depth;
	across.phase = 2;
	unlock_kernel();
	wake_up(&across.wq);
	return group_exit(&across.g);
}

KTEST(bkl_released_while_holder_sleeps)
{
	group_init(&across.g);
	wait_queue_init(&across.wq, "bkl-across");
	across.phase = 0;
	KT_ASSERT(group_start(&across.g, bkl_sleeper_a, NULL, "bkl-a", 0));
	KT_ASSERT(group_start(&across.g, bkl_taker_b, NULL, "bkl-b", last_online_cpu()));
	group_wait(&across.g);
	KT_ASSERT(across.b_got_lock);
	KT_ASSERT_EQ(across.b_saw_a_depth, 1);          /* A's depth untouched while it slept */
	KT_ASSERT_EQ(across.a_depth_after, 1);
	KT_ASSERT(across.a_locked_after);
	KT_ASSERT(across.a_owner_after);
}

/* Every CPU hammers one counter that only the BKL protects. */
#define CONTENTION_ROUNDS 500
static struct thread_group contention_group;
static volatile unsigned long bkl_counter;

static int bkl_contention_worker(void *unused)
{
	for (int i = 0; i < CONTENTION_ROUNDS; i++) {
		lock_kernel();
		bkl_counter++;          /* a plain, non-atomic increment */
		unlock_kernel();
	}
	return group_exit(&contention_group);
}

KTEST(bkl_contention_from_all_cpus_is_exact)
{
	struct bkl_site *site = find_site("bkl_contention_worker");
	uint64_t before;
	int workers = 0;

	KT_ASSERT(site != NULL);        /* the site exists from link time, before it ever runs */
	before = site->acquisitions;
	group_init(&contention_group);
	bkl_counter = 0;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (!(cpu_online_mask() & (1u << cpu)))
			continue;
		KT_ASSERT(group_start(&contention_group, bkl_contention_worker, NULL, "bkl-hammer", cpu));
		workers++;
	}
	group_wait(&contention_group);
	KT_ASSERT_EQ(bkl_counter, (unsigned long)workers * CONTENTION_ROUNDS);
	KT_ASSERT_EQ(site->acquisitions - before, (uint64_t)workers * CONTENTION_ROUNDS);
	KT_ASSERT(site->hold_cycles > 0);       /* CONTENTION_ROUNDS holds, contended ones always timed */
	KT_ASSERT(site->contended <= site->acquisitions);
}

/* Two sites: the outer lock_kernel() acquires, the nested one only counts depth. */
static void bkl_stats_probe(void)
{
	lock_kernel();
	lock_kernel();
	unlock_kernel();
	unlock_kernel();
}

KTEST(bkl_statistics_count_each_site)
{
	struct bkl_site *sites[2];
	uint64_t before[2];
	uint32_t period;
	int n = 0;

	for (struct bkl_site *s = bkl_sites_begin(); s < bkl_sites_end(); s++)
		if (strcmp(s->function, "bkl_stats_probe") == 0 && n < 2)
			sites[n++] = s;
	KT_ASSERT_EQ(n, 2);
	if (sites[0]->line > sites[1]->line) {
		struct bkl_site *tmp = sites[0];
		sites[0] = sites[1];
		sites[1] = tmp;
	}
	before[0] = sites[0]->acquisitions;
	before[1] = sites[1]->acquisitions;
	period = bkl_timing_get();
	KT_ASSERT_EQ(bkl_timing_set(1), 0);     /* time every hold: five are too few to sample */
	for (int i = 0; i < 5; i++)
		bkl_stats_probe();
	bkl_timing_set(period);
	KT_ASSERT_EQ(sites[0]->acquisitions - before[0], 5);    /* the outer call */
	KT_ASSERT_EQ(sites[1]->acquisitions - before[1], 0);    /* nested: not an acquisition */
	KT_ASSERT(sites[0]->hold_cycles > 0);
	KT_ASSERT(sites[0]->line < sites[1]->line);
}

/* A site of its own for the sampling test: one uncontended pair. */
static void bkl_sampled_probe(void)
{
	lock_kernel();
	unlock_kernel();
}

/* Its timed holds after n pairs with bkl_timing set to period; the site's statistics zeroed first. */
static uint64_t timed_holds_after(struct bkl_site *site, uint32_t period, int n)
{
	uint32_t was = bkl_timing_get();

	lock_kernel();          /* the BKL protects the site's counters */
	site->timed_holds = site->hold_cycles = site->hold_max = 0;
	unlock_kernel();
	if (bkl_timing_set(period) < 0)
		return ~0ull;
	for (int i = 0; i < n; i++)
		bkl_sampled_probe();
	bkl_timing_set(was);
	return site->timed_holds;
}

/*
 * bkl_timing=N times one hold in N, at gaps drawn at random, and counts it
 * N times over (kernel/locking/bkl_hold.h): 3200 holds at N = 16 time about
 * 200 (the bounds are more than ten standard deviations of the count), each
 * counted 16 times. 1 times all, exactly; 0 none; anything but 0 or a power
 * of two is refused.
 */
KTEST(bkl_timing_samples_one_hold_in_n)
{
	struct bkl_site *site = find_site("bkl_sampled_probe");
	uint32_t booted = bkl_timing_get();
	uint64_t timed;

	KT_ASSERT(site != NULL);
	timed = timed_holds_after(site, 16, 3200);
	KT_ASSERT(timed >= 100 && timed <= 300);
	KT_ASSERT(site->hold_max > 0 && site->hold_cycles >= 16 * site->hold_max);
	KT_ASSERT_EQ(timed_holds_after(site, 1, 500), 500);
	KT_ASSERT(site->hold_cycles >= site->hold_max && site->hold_max > 0);
	KT_ASSERT_EQ(timed_holds_after(site, 0, 500), 0);
	KT_ASSERT_EQ(site->hold_cycles, 0);
	KT_ASSERT_EQ(bkl_timing_set(3), -EINVAL);
	KT_ASSERT_EQ(bkl_timing_set(BKL_TIMING_MAX * 2), -EINVAL);
	KT_ASSERT_EQ(bkl_timing_get(), booted);        /* nothing above kept a change */
}

/* Misuse must be reported (the harness checks the BUG lines), never silently tolerated. */
static void bkl_from_irq_handler(struct trapframe *tf)
{
	lock_kernel();
	unlock_kernel();
}

#define T_KTEST_SOFTIRQ 0x81    /* an unused vector: `int $0x81` runs the handler as an interrupt */

KTEST_CRASH(bkl_in_interrupt_is_reported)
{
	trap_set_handler(T_KTEST_SOFTIRQ, bkl_from_irq_handler);
	__asm__ volatile("int $0x81");
	trap_set_handler(T_KTEST_SOFTIRQ, NULL);
	KT_ASSERT(!kernel_locked());
	KT_ASSERT_EQ(current->lock_depth, -1);
}

KTEST_CRASH(bkl_unlock_without_lock_is_reported)
{
	unlock_kernel();
	KT_ASSERT_EQ(current->lock_depth, -1);
}

static spinlock_t sleepy_lock = SPINLOCK_INIT("ktest-sleepy");
static struct wait_queue sleepy_wq;

KTEST_CRASH(might_sleep_with_spinlock_is_reported)
{
	wait_queue_init(&sleepy_wq, "ktest-sleepy");
	spin_lock(&sleepy_lock);
	wait_event(sleepy_wq, 1);       /* may sleep: the check must fire, the condition is already true */
	spin_unlock(&sleepy_lock);
}

/*
 * A holds the BKL and polls with sched_yield(), alone on its CPU, so every
 * yield picks A again. B, on another CPU, asks for the BKL meanwhile: A's
 * yields must let it in (Linux 2.6's schedule() released and retook the BKL
 * even when it picked the same task), so A sees B's mark while it polls. A
 * gives up after a generous bound, so a kernel that keeps the lock across
 * such a yield fails the test instead of hanging it.
 */
#define YIELD_POLL_NS (5 * 1000 * 1000 * 1000ULL)

static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile int phase;
	volatile bool b_got_lock;
	bool a_saw_b, a_locked_after;
} alone;

static int bkl_yielding_holder(void *unused)
{
	uint64_t give_up;

	lock_kernel();
	alone.phase = 1;
	wake_up(&alone.wq);
	give_up = clock_ns() + YIELD_POLL_NS;
	while (!READ_ONCE(alone.b_got_lock) && clock_ns() < give_up)
		sched_yield();          /* nobody else is queued here: the same task runs on */
	alone.a_saw_b = READ_ONCE(alone.b_got_lock);
	alone.a_locked_after = kernel_locked();
	unlock_kernel();
	return group_exit(&alone.g);
}

static int bkl_waiter_elsewhere(void *unused)
{
	wait_event(alone.wq, alone.phase == 1);
	lock_kernel();          /* only possible if a yield of A let the lock go */
	alone.b_got_lock = true;
	unlock_kernel();
	return group_exit(&alone.g);
}

KTEST(bkl_released_when_holder_yields_alone)
{
	int a_cpu = last_online_cpu(), b_cpu = __builtin_ctz(cpu_online_mask());

	if (a_cpu == b_cpu)
		return;                 /* one CPU: nobody can wait elsewhere */
	group_init(&alone.g);
	wait_queue_init(&alone.wq, "bkl-alone");
	alone.phase = 0;
	alone.b_got_lock = alone.a_saw_b = alone.a_locked_after = false;
	KT_ASSERT(group_start(&alone.g, bkl_yielding_holder, NULL, "bkl-yielder", a_cpu));
	KT_ASSERT(group_start(&alone.g, bkl_waiter_elsewhere, NULL, "bkl-waiter", b_cpu));
	group_wait(&alone.g);
	KT_ASSERT(alone.a_saw_b);       /* B got the BKL while A was still yielding with it */
	KT_ASSERT(alone.a_locked_after);
	KT_ASSERT(!kernel_locked());
}

/*
 * Blame: a holder on one CPU keeps the BKL until it sees a waiter; the waiter,
 * on another, must find itself charged to the holder's site in the blame
 * table, with the cycles it waited.
 */
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile int phase;             /* 1: the holder has it; 2: the waiter is about to ask */
	bool saw_waiter;
} bl;

/*
 * Hold the BKL until the waiter has asked for it: its "about to ask", a
 * ticket waiting, and then a while longer, since another BKL user's ticket
 * would do for the second and the waiter's must be among them.
 */
static int blame_holder(void *unused)
{
	struct bkl_state st;
	uint64_t give_up;

	lock_kernel();
	bl.phase = 1;
	wake_up(&bl.wq);
	give_up = clock_ns() + 3000000000ULL;
	do
		bkl_get_state(&st);
	while ((bl.phase != 2 || st.waiting == 0) && clock_ns() < give_up);
	bl.saw_waiter = st.waiting > 0;
	mdelay(20);
	unlock_kernel();
	return group_exit(&bl.g);
}

static int blame_waiter(void *unused)
{
	wait_event(bl.wq, bl.phase == 1);
	bl.phase = 2;
	lock_kernel();
	unlock_kernel();
	return group_exit(&bl.g);
}

KTEST(bkl_blame_names_the_site_that_held_it)
{
	struct bkl_site *holder = find_site("blame_holder"), *waiter = find_site("blame_waiter");
	int a_cpu = last_online_cpu(), b_cpu = __builtin_ctz(cpu_online_mask());
	const struct bkl_blame *t;
	uint64_t lost, count = 0, cycles = 0;
	int n;

	if (a_cpu == b_cpu)
		return;                 /* one CPU: nobody can wait while another holds it */
	KT_ASSERT(holder && waiter);
	bkl_stats_reset();
	group_init(&bl.g);
	wait_queue_init(&bl.wq, "bkl-blame");
	bl.phase = 0;
	KT_ASSERT(group_start(&bl.g, blame_holder, NULL, "blame-holder", a_cpu));
	KT_ASSERT(group_start(&bl.g, blame_waiter, NULL, "blame-waiter", b_cpu));
	group_wait(&bl.g);
	KT_ASSERT(bl.saw_waiter);
	lock_kernel();          /* the table is the BKL's */
	n = bkl_blame_table(&t, &lost);
	for (int i = 0; i < n; i++)
		if (t[i].waiter == waiter && t[i].holder == holder) {
			count = t[i].count;
			cycles = t[i].cycles;
		}
	unlock_kernel();
	KT_ASSERT_EQ(count, 1);         /* one contended acquisition, while blame_holder held it */
	KT_ASSERT(cycles > 0);
	KT_ASSERT(waiter->contended >= 1);
}
#endif /* CONFIG_BKL */
