/*
 * The BKL's statistics and reports, beside the lock (kernel/locking/bkl.c),
 * which calls them through the hooks of kernel/locking/bkl_stat.h.
 *
 * Every call site has a struct bkl_site (planted by the lock_kernel() macro in
 * kernel/locking/bkl.h). They count acquisitions, contended acquisitions,
 * time spent waiting and time spent holding, in TSC cycles (/proc/bkl). Only
 * the BKL's holder updates them, so the BKL itself protects them. And for
 * each contended acquisition, the sites that held the lock meanwhile
 * ("blame", below): the site to push the BKL out of is the one others wait
 * for. The lock also has a line in /proc/lock_stat and events in /proc/trace,
 * and a waiter that spins too long says so.
 */
#include "kernel/locking/bkl_stat.h"

#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/locking/atomic.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/task.h"

#ifdef CONFIG_BKL        /* the whole file, as bkl.c */

extern struct bkl_site bkl_sites_start[], bkl_sites_stop[];

/*
 * Which holds are timed for the hold columns of /proc/bkl: two TSC reads per
 * timed hold, the only part of the statistics that costs more than a few
 * additions (kernel/locking/bkl_hold.h). One in BKL_TIMING_DEFAULT by
 * default; "bkl_timing=" at boot or /proc/sys/kernel/bkl_timing changes it.
 * A plain word: a hold begun untimed is not charged, so changing it while
 * the lock is held is harmless. The sampler's state is only touched by the
 * BKL's holder, whichever BKL runs.
 */
uint32_t bkl_timing_period __read_mostly = BKL_TIMING_DEFAULT;
uint32_t bkl_sample_countdown = BKL_TIMING_DEFAULT;
uint32_t bkl_sample_state = 2463534242u;        /* any non-zero seed */

/* lock_kernel() or unlock_kernel() misused at file:line: say so, by whom, and how we got here. */
void bkl_report(const char *what, const char *file, int line)
{
	printk("BUG: %s at %s:%d (CPU %d, pid %d %s, lock_depth %d)\n", what, file, line, cpu_id(),
	       current ? current->pid : -1, current ? current->name : "-",
	       current ? current->lock_depth : 0);
	dump_backtrace(read_ebp());
}

/*
 * A waiter has spun for spin_report_cycles. Nobody named as the holder means
 * the lock is between two holders: the ticket being served belongs to a CPU
 * that has not yet noticed, which on a virtual machine is often a vCPU its
 * host is not running (a "lock waiter preemption", which paravirtual
 * spinlocks exist to avoid), so the tickets are printed too.
 */
void bkl_lockup_report(const struct bkl_site *site, uint16_t ticket, uint16_t serving, const struct task *holder,
		       int holder_cpu, const struct bkl_site *held_at)
{
	if (holder)
		printk("BUG: BKL lockup suspected on CPU %d at %s:%d: held by pid %d (%s) on CPU %d since %s:%d\n",
		       cpu_id(), site->file, site->line, holder->pid, holder->name, holder_cpu,
		       held_at ? held_at->file : "?", held_at ? held_at->line : 0);
	else
		printk("BUG: BKL lockup suspected on CPU %d at %s:%d: held by nobody, being handed to the CPU "
		       "with ticket %u (ours is %u)\n", cpu_id(), site->file, site->line, serving, ticket);
	dump_backtrace(read_ebp());
}

/* ---- blame: who made whom wait ------------------------------------------------------------ */

/*
 * For every contended acquisition, which sites held the lock while it waited
 * and for how long: /proc/bkl_blame, "bklstat -b". A waiter watches
 * kernel_flag.site as it spins (it reads the lock's line anyway) and notes
 * each holder in its struct bkl_wait, on its own stack; once it holds the
 * BKL, it adds them to the table, which the BKL therefore protects, like the
 * site counters. Between two holders the site is NULL: the lock is free but
 * promised to the next ticket, whose CPU has not yet noticed (on a virtual
 * machine whose host is busy, often for milliseconds): charged as a hand-over.
 */
static struct bkl_blame blame[BKL_BLAME_MAX];
static int nblame;
static uint64_t blame_lost;            /* charges with no room left in the table */

/* Add the time since w->since to w->holder, the site seen holding the lock until now. */
static void watch_note(struct bkl_wait *w, uint64_t now)
{
	int i;

	for (i = 0; i < w->n && w->seen[i].holder != w->holder; i++)
		;
	if (i == BKL_WAIT_SEEN) {
		i = BKL_WAIT_SEEN - 1;  /* more holders than one wait sees in practice: lump the rest */
	} else if (i == w->n) {
		w->seen[i].holder = w->holder;
		w->seen[i].cycles = 0;
		w->n++;
	}
	w->seen[i].cycles += now - w->since;
}

void bkl_wait_begin(struct bkl_wait *w, struct bkl_site *site, uint16_t serving, struct bkl_site *holder,
		    int holder_cpu)
{
	w->start = rdtsc();
	lockup_watch_begin(&w->watch, serving, holder_cpu);
	w->holder = holder;
	w->since = w->start;
	w->n = 0;
	trace_bkl_contended(site, holder, holder_cpu);
}

void bkl_wait_holder_changed(struct bkl_wait *w, struct bkl_site *holder, uint64_t now)
{
	watch_note(w, now);
	w->holder = holder;
	w->since = now;
}

/* The waiter, now holding the BKL, adds what it saw to the table. */
static void blame_charge(struct bkl_site *waiter, struct bkl_wait *w, uint64_t now)
{
	watch_note(w, now);
	for (int k = 0; k < w->n; k++) {
		int i;

		for (i = 0; i < nblame && (blame[i].waiter != waiter || blame[i].holder != w->seen[k].holder); i++)
			;
		if (i == nblame) {
			if (nblame == BKL_BLAME_MAX) {
				blame_lost++;
				continue;
			}
			blame[nblame++] = (struct bkl_blame){ waiter, w->seen[k].holder, 0, 0 };
		}
		blame[i].count++;
		blame[i].cycles += w->seen[k].cycles;
	}
}

int bkl_blame_table(const struct bkl_blame **out, uint64_t *lost)
{
	*out = blame;
	*lost = blame_lost;
	return nblame;
}

/* ---- the hooks of an acquisition ------------------------------------------------------------ */

/* We hold the lock, st->last_cpu is not yet ours. */
void bkl_lock_stat_acquired(struct bkl_stat *st, struct bkl_site *site, uint64_t waited, const struct bkl_wait *w)
{
	if (w) {
		struct lock_point waiter = { .file = site->file, .line = site->line, .function = site->function };
		struct lock_point holder = { 0 };
		const struct bkl_site *h = NULL;

		/* The contending point: the first site seen holding it (not a hand-over). */
		for (int i = 0; i < w->n && !h; i++)
			h = w->seen[i].holder;
		if (h)
			holder = (struct lock_point){ .file = h->file, .line = h->line, .function = h->function };
		lock_stat_contended(bkl_lock_class(), st->last_cpu, waited, &waiter, &holder);
	}
	lock_stat_acquired(bkl_lock_class(), st->last_cpu);
	st->last_cpu = cpu_id();
}

void bkl_stat_acquired_after_wait(struct bkl_stat *st, struct bkl_site *site, bool reacquire, struct bkl_wait *w)
{
	uint64_t now = rdtsc(), waited = now - w->start;

	bkl_hold_begin(&st->hold, now);
	bkl_site_charge(site, reacquire, true, waited);
	blame_charge(site, w, now);
	if (__builtin_expect(lock_stat_on, 0))
		bkl_lock_stat_acquired(st, site, waited, w);
	trace_bkl_acquire(site, reacquire, true, waited);
}

/* ---- reading and resetting them -------------------------------------------------------------- */

struct bkl_site *bkl_sites_begin(void)
{
	return bkl_sites_start;
}

struct bkl_site *bkl_sites_end(void)
{
	return bkl_sites_stop;
}

/* Zero every site's counters. Takes the BKL, since the BKL protects them. */
void bkl_stats_reset(void)
{
	lock_kernel();
	for (struct bkl_site *s = bkl_sites_start; s < bkl_sites_stop; s++) {
		s->acquisitions = s->contended = s->reacquisitions = 0;
		s->wait_cycles = s->wait_max = s->hold_cycles = s->hold_max = s->timed_holds = 0;
	}
	nblame = 0;
	blame_lost = 0;
	unlock_kernel();
}

/* ---- which holds are timed ------------------------------------------------------------------- */

uint32_t bkl_timing_get(void)
{
	return READ_ONCE(bkl_timing_period);
}

static bool valid_period(uint32_t period)
{
	return period <= BKL_TIMING_MAX && (period & (period - 1)) == 0;
}

/* Under the BKL, which protects the countdown: restarted, so that the new period counts from the next hold. */
int bkl_timing_set(uint32_t period)
{
	if (!valid_period(period))
		return -EINVAL;
	lock_kernel();
	WRITE_ONCE(bkl_timing_period, period);
	bkl_sample_countdown = 1;
	unlock_kernel();
	return 0;
}

void bkl_timing_init(void)
{
	const char *v = cmdline_get("bkl_timing");
	uint32_t period = 0;
	bool digits;

	if (!v)
		return;
	digits = *v != '\0';
	for (const char *p = v; digits && *p; p++) {
		digits = *p >= '0' && *p <= '9' && period <= BKL_TIMING_MAX;
		period = period * 10 + (uint32_t)(*p - '0');
	}
	/* The boot CPU, alone: no BKL to take yet. */
	if (digits && valid_period(period))
		bkl_timing_period = period;
	else
		printk("bkl: bkl_timing=%s is not 0 or a power of two up to %d; timing one hold in %u\n", v,
		       BKL_TIMING_MAX, bkl_timing_get());
}

#endif /* CONFIG_BKL */
