/*
 * The Big Kernel Lock.
 *
 * When Linux 2.0 first ran on several CPUs, it made the whole kernel safe the
 * simplest way possible: one lock, taken on every entry into the kernel, so
 * that only one CPU at a time ran kernel code. Over the following years that
 * lock was pushed out of one subsystem after another, but in 2004 the 2.6.6
 * kernel still had about 500 calls to lock_kernel() ("The Big Kernel Lock
 * lives on", 2004). Every ioctl() still ran under it, which is what the mail
 * "Unserializing ioctl() system calls" (May 2004) proposed to change.
 *
 * Underneath, the BKL is a spinlock. Two rules make it different:
 *
 *  1. It is recursive. A task may call lock_kernel() while it already holds
 *     it; only the outermost call takes the lock, only the matching outermost
 *     unlock_kernel() releases it. The count lives in the task, not in the
 *     lock: task->lock_depth is -1 when the task does not hold the BKL, 0 after
 *     one lock_kernel(), 1 after two, and so on (Linux 2.6's convention).
 *
 *  2. It is released while its holder sleeps or yields. schedule() notices
 *     a task with lock_depth >= 0 and drops the lock before switching away,
 *     and takes it back before the task runs again. The holder is never
 *     preempted (sched.c's preemptible_now() leaves it running, as 2.6.6's
 *     spinlock BKL did), so only a sleep or a yield of its own lets other
 *     BKL users in. lock_depth is not touched, so the task never notices...
 *     except that the world may have changed while it slept. Another CPU may
 *     have taken the BKL and changed the very data the sleeper was looking at.
 *
 *     So code under the BKL must re-check its conditions after anything that
 *     can sleep (kmalloc that may wait, a wait queue, copying from user space
 *     that may fault). The BKL only guarantees mutual exclusion between the
 *     points where its holder might sleep. That weak guarantee is why it was
 *     so easy to live with, and why it was so hard to remove.
 *
 * Other rules, checked here:
 *  - never in interrupt context (an interrupt cannot sleep, and could
 *    deadlock against the task it interrupted): reported, not taken;
 *  - unlock_kernel() without a matching lock_kernel(): reported.
 *
 * Statistics: every call site has a struct bkl_site (planted by the
 * lock_kernel() macro in kernel/locking/bkl.h). They count acquisitions, contended
 * acquisitions, time spent waiting and time spent holding, in TSC cycles.
 * Only the BKL's holder updates them, so the BKL itself protects them. And
 * for each contended acquisition, the sites that held the lock meanwhile
 * ("blame", below): the site to push the BKL out of is the one others wait for.
 */
#include "kernel/locking/bkl.h"

#include "kernel/locking/atomic.h"
#include "kernel/locking/lock_stat.h"
#include "kernel/locking/bkl_hold.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/bkl_sem.h"
#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/task.h"
#include "kernel/trace/trace.h"
#include "kernel/x86/x86.h"

#ifdef CONFIG_BKL        /* the whole file: make ERA=2.6.39 builds a kernel without the BKL */

/*
 * The lock itself: a ticket lock of its own rather than a spinlock_t,
 * because a spinlock_t disables preemption for as long as it is held, and
 * a BKL holder may sleep (rule 2): schedule() panics if called with a
 * spinlock held. The holder is kept from preemption by its lock_depth
 * instead (kernel/sched/sched.c), and the lock is handed back and forth across
 * its sleeps by bkl_release_for_switch() and bkl_reacquire_after_switch().
 */
static struct {
	volatile uint16_t owner;        /* ticket now being served */
	volatile uint16_t next;         /* next ticket to hand out */
	struct task *holder;            /* the task holding it, or NULL */
	int holder_cpu;
	struct bkl_hold hold;           /* the hold's timing (kernel/locking/bkl_hold.h) */
	struct bkl_site *site;          /* the site charged for this hold */
	int last_cpu;                   /* the CPU that took it last with lock_stat on, for its bounces */
} kernel_flag = { .holder_cpu = -1, .last_cpu = -1 };  /* "kernel_flag": its name in Linux 2.0-2.6 */

/*
 * The BKL's line in /proc/lock_stat; its contention points are lock_kernel()
 * sites. Its hold times are those of the holds bkl_timing times for /proc/bkl
 * (kernel/locking/bkl_hold.h): its holds column counts the timed ones only.
 * Also its class for the lock-order checker (kernel/locking/lockdep.c), the
 * same whether the BKL is a spinlock or a semaphore (era=2.6.8).
 */
static struct lock_class bkl_class = { .name = "kernel_flag", .file = __FILE__, .line = __LINE__,
				       .kind = LOCK_BKL };

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

static void bkl_report(const char *what, const char *file, int line)
{
	printk("BUG: %s at %s:%d (CPU %d, pid %d %s, lock_depth %d)\n", what, file, line, cpu_id(),
	       current ? current->pid : -1, current ? current->name : "-",
	       current ? current->lock_depth : 0);
	dump_backtrace(read_ebp());
}

/*
 * A waiter has spun for spin_report_cycles. Nobody named as the holder means
 * the lock is between two holders: the ticket being served belongs to a CPU
 * that has not yet noticed, which under an emulator is a vCPU the host is not
 * running (a "lock waiter preemption", which paravirtual spinlocks exist to
 * avoid), so the tickets are printed too.
 */
static __attribute__((noinline)) void report_bkl_lockup(struct bkl_site *site, uint16_t ticket)
{
	struct task *h = READ_ONCE(kernel_flag.holder);
	struct bkl_site *hs = READ_ONCE(kernel_flag.site);

	if (h)
		printk("BUG: BKL lockup suspected on CPU %d at %s:%d: held by pid %d (%s) on CPU %d since %s:%d\n",
		       cpu_id(), site->file, site->line, h->pid, h->name, kernel_flag.holder_cpu,
		       hs ? hs->file : "?", hs ? hs->line : 0);
	else
		printk("BUG: BKL lockup suspected on CPU %d at %s:%d: held by nobody, being handed to the CPU "
		       "with ticket %u (ours is %u)\n", cpu_id(), site->file, site->line,
		       READ_ONCE(kernel_flag.owner), ticket);
	dump_backtrace(read_ebp());
}

/* ---- blame: who made whom wait ------------------------------------------------------------ */

/*
 * For every contended acquisition, which sites held the lock while it waited
 * and for how long: /proc/bkl_blame, "bklstat -b". A waiter watches
 * kernel_flag.site as it spins (it reads the lock's line anyway) and notes
 * each holder in a struct blame_watch on its own stack; once it holds the
 * BKL, it adds them to the table, which the BKL therefore protects, like the
 * site counters. Between two holders the site is NULL: the lock is free but
 * promised to the next ticket, whose CPU has not yet noticed (under an
 * emulator on a busy host, often for milliseconds): charged as a hand-over.
 */
#define BLAME_WATCH 8

struct blame_watch {
	struct bkl_site *holder;        /* the site holding it now, as last seen */
	uint64_t since;                 /* when that was first seen */
	int n;
	struct {
		struct bkl_site *holder;
		uint64_t cycles;
	} seen[BLAME_WATCH];
};

static struct bkl_blame blame[BKL_BLAME_MAX];
static int nblame;
static uint64_t blame_lost;            /* charges with no room left in the table */

static void watch_note(struct blame_watch *w, uint64_t now)
{
	int i;

	for (i = 0; i < w->n && w->seen[i].holder != w->holder; i++)
		;
	if (i == BLAME_WATCH) {
		i = BLAME_WATCH - 1;    /* more holders than one wait sees in practice: lump the rest */
	} else if (i == w->n) {
		w->seen[i].holder = w->holder;
		w->seen[i].cycles = 0;
		w->n++;
	}
	w->seen[i].cycles += now - w->since;
}

/* Spin until ticket is served; returns when the wait began. The slow path, out of line. */
static __attribute__((noinline)) uint64_t bkl_spin(struct bkl_site *site, uint16_t ticket, struct blame_watch *w)
{
	uint64_t start = rdtsc(), now;
	bool reported = false;

	w->holder = READ_ONCE(kernel_flag.site);
	w->since = start;
	w->n = 0;
	trace_bkl_contended(site, w->holder, READ_ONCE(kernel_flag.holder_cpu));
	while (READ_ONCE(kernel_flag.owner) != ticket) {
		struct bkl_site *h;

		cpu_relax();
		now = rdtsc();
		h = READ_ONCE(kernel_flag.site);
		if (h != w->holder) {
			watch_note(w, now);
			w->holder = h;
			w->since = now;
		}
		if (!reported && now - start > spin_report_cycles) {
			report_bkl_lockup(site, ticket);
			reported = true;
		}
	}
	return start;
}

/* The waiter, now holding the BKL, adds what it saw to the table. */
static void blame_charge(struct bkl_site *waiter, struct blame_watch *w, uint64_t now)
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

/* ---- the raw lock ------------------------------------------------------------------------ */

/* lock_stat's part of an acquisition at site (lock_stat on; we hold the lock, last_cpu not yet ours). */
static void bkl_stat_acquired(struct bkl_site *site, bool contended, uint64_t waited, const struct blame_watch *w)
{
	if (contended) {
		struct lock_point waiter = { .file = site->file, .line = site->line, .function = site->function };
		struct lock_point holder = { 0 };
		const struct bkl_site *h = NULL;

		/* The contending point: the first site seen holding it (not a hand-over). */
		for (int i = 0; i < w->n && !h; i++)
			h = w->seen[i].holder;
		if (h)
			holder = (struct lock_point){ .file = h->file, .line = h->line, .function = h->function };
		lock_stat_contended(&bkl_class, kernel_flag.last_cpu, waited, &waiter, &holder);
	}
	lock_stat_acquired(&bkl_class, kernel_flag.last_cpu);
	kernel_flag.last_cpu = cpu_id();
}

/* The lock is ours (now: the TSC if we waited, else 0): say so, and start the hold. */
static inline __attribute__((always_inline)) void bkl_become_holder(struct bkl_site *site, uint64_t now)
{
	kernel_flag.holder = current;
	kernel_flag.holder_cpu = cpu_id();
	bkl_hold_begin(&kernel_flag.hold, now);
	kernel_flag.site = site;
}

/*
 * The slow path of bkl_raw_acquire(), out of line so that the fast one
 * stays short (under TCG, a lock path that straddles a page costs a lookup
 * per crossing: see LOCK_PATH_ALIGNED in spinlock.c): spin until ticket is
 * served, then charge the wait to site and to the sites that held the lock
 * meanwhile.
 */
static __attribute__((noinline)) void bkl_acquire_contended(struct bkl_site *site, uint16_t ticket, bool reacquire)
{
	struct blame_watch w;
	uint64_t start = bkl_spin(site, ticket, &w), now = rdtsc();

	bkl_become_holder(site, now);
	/* We hold the BKL now: the statistics are ours to update. */
	bkl_site_charge(site, reacquire, true, now - start);
	blame_charge(site, &w, now);
	if (__builtin_expect(lock_stat_on, 0))
		bkl_stat_acquired(site, true, now - start, &w);
	trace_bkl_acquire(site, reacquire, true, now - start);
}

/* Take the raw lock and charge the acquisition to site. Preemption must be off. */
static inline __attribute__((always_inline)) void bkl_raw_acquire(struct bkl_site *site, bool reacquire)
{
	uint16_t ticket = __atomic_fetch_add(&kernel_flag.next, 1, __ATOMIC_ACQUIRE);

	if (__builtin_expect(READ_ONCE(kernel_flag.owner) != ticket, 0)) {
		bkl_acquire_contended(site, ticket, reacquire);
		return;
	}
	/* Uncontended: no clock read unless this hold is one bkl_hold.h times. */
	bkl_become_holder(site, 0);
	bkl_site_charge(site, reacquire, false, 0);
	if (__builtin_expect(lock_stat_on, 0))
		bkl_stat_acquired(site, false, 0, NULL);
	trace_bkl_acquire(site, reacquire, false, 0);
}

/*
 * Release the raw lock, charging the hold time to the site that took it.
 * for_switch: its holder is switching away, and takes it back after. Preemption must be off.
 */
static inline __attribute__((always_inline)) void bkl_raw_release(bool for_switch)
{
	struct bkl_site *site = kernel_flag.site;

	uint64_t held;

	trace_bkl_release(site, for_switch);
	held = bkl_hold_end(&kernel_flag.hold, site);
	if (__builtin_expect(lock_stat_on, 0) && held)
		lock_stat_held(&bkl_class, held);
	kernel_flag.holder = NULL;
	kernel_flag.holder_cpu = -1;
	kernel_flag.site = NULL;
	/* Release: the critical section's stores are visible before the next ticket is served. */
	__atomic_store_n(&kernel_flag.owner, (uint16_t)(kernel_flag.owner + 1), __ATOMIC_RELEASE);
}

/*
 * The uncontended pair starts on a 1024-byte boundary, each function shorter
 * than that, so neither straddles a page: under TCG a jump across a page
 * is not chained and costs a lookup (LOCK_PATH_ALIGNED in spinlock.c).
 */
#define BKL_PATH_ALIGNED __attribute__((aligned(1024)))

BKL_PATH_ALIGNED void lock_kernel_site(struct bkl_site *site)
{
	struct task *t = current;

	if (in_interrupt()) {
		bkl_report("lock_kernel() called from interrupt context", site->file, site->line);
		return;
	}
	/* Rule 1: a holder just counts one level deeper. */
	/* LAB3: BEGIN recursion */
	if (t->lock_depth >= 0) {
		t->lock_depth++;
		return;
	}
	/* LAB3: END */
	/* The outermost one only: the checker sees the BKL taken once, as the lock is. */
	if (__builtin_expect(lockdep_on, 0))
		lockdep_acquire(&bkl_class, 0, &bkl_class, site->file, site->line, 0, 0);
	/* era=2.6.8: a semaphore, which may sleep (kernel/locking/bkl_sem.c). */
	if (bkl_is_semaphore()) {
		bkl_sem_lock(t, site);
		return;
	}
	/*
	 * No preemption between taking the lock and recording it in lock_depth:
	 * schedule() decides whether to release the lock by looking at lock_depth.
	 */
	preempt_disable();
	bkl_raw_acquire(site, false);
	t->bkl_site = site;
	t->lock_depth = 0;
	preempt_enable();
}

BKL_PATH_ALIGNED void unlock_kernel_site(const char *file, int line)
{
	struct task *t = current;

	if (in_interrupt()) {
		bkl_report("unlock_kernel() called from interrupt context", file, line);
		return;
	}
	if (t->lock_depth < 0) {
		bkl_report("unlock_kernel() without lock_kernel()", file, line);
		return;
	}
	/* LAB3: BEGIN outermost-unlock */
	if (t->lock_depth > 0) {
		t->lock_depth--;        /* still held by an outer lock_kernel() */
		return;
	}
	/* LAB3: END */
	if (__builtin_expect(lockdep_on, 0))
		lockdep_release(&bkl_class);
	if (bkl_is_semaphore()) {
		bkl_sem_unlock(t);
		return;
	}
	preempt_disable();
	t->lock_depth = -1;
	bkl_raw_release(false);
	preempt_enable();
}

struct lock_class *bkl_lock_class(void)
{
	return &bkl_class;
}

bool kernel_locked(void)
{
	return current && current->lock_depth >= 0;
}

/* Rule 2, first half: schedule() calls this, interrupts off, before switching away from prev. */
void bkl_release_for_switch(struct task *prev)
{
	/* The checker's half of rule 2: a holder that sleeps holds nothing meanwhile (docs/locking.md). */
	if (prev->lock_depth >= 0 && __builtin_expect(lockdep_on, 0))
		lockdep_release(&bkl_class);
	if (bkl_is_semaphore()) {
		bkl_sem_release_for_switch(prev);
		return;
	}
	/* LAB3: BEGIN release-on-sleep */
	if (prev->lock_depth < 0)
		return;
	if (kernel_flag.holder != prev)
		panic("BKL: task %d (%s) has lock_depth %d but does not hold the lock",
		      prev->pid, prev->name, prev->lock_depth);
	bkl_raw_release(true);
	/* LAB3: END */
}

/* Rule 2, second half: a holder that slept takes the lock back before it goes on. */
void bkl_reacquire_after_switch(struct task *next)
{
	/*
	 * Held again from here, but no edge from the locks next holds to the BKL:
	 * it can hold only mutexes across the sleep, and no cycle runs through a
	 * mutex and the BKL, since whoever waits for that mutex has let go of the BKL.
	 */
	if (next->lock_depth >= 0 && __builtin_expect(lockdep_on, 0))
		lockdep_acquire(&bkl_class, 0, &bkl_class, next->bkl_site->file, next->bkl_site->line, 0,
				LOCKDEP_NOEDGES);
	if (bkl_is_semaphore()) {
		bkl_sem_reacquire_after_switch(next);
		return;
	}
	/* LAB3: BEGIN reacquire-after-sleep */
	if (next->lock_depth < 0)
		return;
	preempt_disable();
	bkl_raw_acquire(next->bkl_site, true);
	preempt_enable();
	/* LAB3: END */
}

void bkl_get_state(struct bkl_state *st)
{
	struct task *h = READ_ONCE(kernel_flag.holder);

	if (bkl_is_semaphore()) {
		bkl_sem_get_state(st);
		return;
	}
	st->owner = h;
	st->owner_cpu = h ? kernel_flag.holder_cpu : -1;
	st->owner_depth = h ? h->lock_depth : -1;
	st->waiting = (uint16_t)(READ_ONCE(kernel_flag.next) - READ_ONCE(kernel_flag.owner)) - (h ? 1 : 0);
	if (st->waiting < 0)
		st->waiting = 0;
}

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
