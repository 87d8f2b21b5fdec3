/*
 * Lock statistics for every lock: Linux's /proc/lock_stat (Documentation/
 * locking/lockstat.rst), for smpix's spinlocks, mutexes and the BKL.
 *
 * Locks are counted by class, the place they were initialised (struct
 * lock_class, lock_stat.h): acquisitions, contentions (an acquisition that
 * had to wait), the time waited and the time held (min, max, total), and the
 * "bounces", acquisitions on another CPU than the lock's last holder, which
 * move its cache line. For contentions, also where the waiter was
 * (contention points) and where the holder had taken the lock (contending
 * points), four of each per class.
 *
 * The counters are per CPU (rows[cpu][class]), updated with interrupts off
 * for the few additions, so no lock guards them and no line is shared; the
 * reader adds the rows up. The class list and the points, touched only when
 * a class is first used and on contention, share one small lock of their
 * own (meta_lock), a bare test-and-set: a spinlock_t here would count itself.
 *
 * Off by default, as CONFIG_LOCK_STAT is in Linux, because it reads the
 * clock on every acquisition and release: the lock paths test lock_stat_on
 * and skip everything else while it is off.
 */
#include "kernel/locking/lock_stat.h"

#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/locking/atomic.h"
#include "kernel/printk.h"
#include "kernel/x86/x86.h"

#define LOCK_CLASSES_MAX 128

bool lock_stat_on __read_mostly;

/* Each CPU's counters for each class (row 0 unused: index 0 means "not registered"). */
static struct lock_class_stats rows[MAX_CPUS][LOCK_CLASSES_MAX] __cacheline_aligned;

static volatile int meta_lock;          /* protects classes, nclasses and every class's points */
static struct lock_class *classes;      /* registered, newest first */
static int nclasses;
/* Locks never initialised (zeroed memory), and classes beyond the table's room. */
static struct lock_class unclassed = { .name = "(lock without a class)", .file = "?", .kind = LOCK_SPIN };
static struct lock_class overflow = { .name = "(more classes than lock_stat keeps)", .file = "?",
				      .kind = LOCK_SPIN };

static uint32_t meta_take(void)
{
	uint32_t flags = irq_save();

	while (__atomic_exchange_n(&meta_lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	return flags;
}

static void meta_give(uint32_t flags)
{
	__atomic_store_n(&meta_lock, 0, __ATOMIC_RELEASE);
	irq_restore(flags);
}

/* c's row index, registering c on its first use. */
static int class_index(struct lock_class **cp)
{
	struct lock_class *c = *cp ? *cp : &unclassed;
	uint32_t flags;

	*cp = c;
	if (__builtin_expect(READ_ONCE(c->index) != 0, 1))
		return c->index;
	flags = meta_take();
	if (!c->index) {
		if (nclasses + 1 >= LOCK_CLASSES_MAX && c != &overflow) {
			meta_give(flags);
			*cp = &overflow;
			return class_index(cp);
		}
		c->next = classes;
		classes = c;
		WRITE_ONCE(c->index, ++nclasses);
	}
	meta_give(flags);
	return c->index;
}

static void note_point(struct lock_point *pts, const struct lock_point *p)
{
	for (int i = 0; i < LOCKSTAT_POINTS; i++) {
		if (pts[i].count == 0) {
			pts[i] = *p;
			pts[i].count = 1;
			return;
		}
		if (pts[i].file == p->file && pts[i].line == p->line && pts[i].ip == p->ip) {
			pts[i].count++;
			return;
		}
	}
	/* Four are kept, as Linux keeps four: later ones are not named. */
}

void lock_stat_contended(struct lock_class *c, int last_cpu, uint64_t waited, const struct lock_point *waiter,
			 const struct lock_point *holder)
{
	int i = class_index(&c);
	uint32_t flags = irq_save();
	struct cpu *cpu = this_cpu();
	struct lock_class_stats *s = &rows[cpu->id][i];

	if (s->contentions == 0 || waited < s->wait_min)
		s->wait_min = waited;
	if (waited > s->wait_max)
		s->wait_max = waited;
	s->wait_total += waited;
	s->contentions++;
	if (last_cpu >= 0 && last_cpu != cpu->id)
		s->con_bounces++;
	irq_restore(flags);
	flags = meta_take();
	note_point(c->contention_point, waiter);
	if (holder && (holder->file || holder->ip))
		note_point(c->contending_point, holder);
	meta_give(flags);
}

void lock_stat_acquired(struct lock_class *c, int last_cpu)
{
	int i = class_index(&c);
	uint32_t flags = irq_save();
	struct cpu *cpu = this_cpu();
	struct lock_class_stats *s = &rows[cpu->id][i];

	s->acquisitions++;
	if (last_cpu >= 0 && last_cpu != cpu->id)
		s->acq_bounces++;
	irq_restore(flags);
}

void lock_stat_held(struct lock_class *c, uint64_t held)
{
	int i = class_index(&c);
	uint32_t flags = irq_save();
	struct lock_class_stats *s = &rows[this_cpu()->id][i];

	if (s->holds == 0 || held < s->hold_min)
		s->hold_min = held;
	if (held > s->hold_max)
		s->hold_max = held;
	s->hold_total += held;
	s->holds++;
	irq_restore(flags);
}

void lock_stat_set(bool on)
{
	WRITE_ONCE(lock_stat_on, on);
}

void lock_stat_init(void)
{
	const char *v = cmdline_get("lock_stat");

	if (v && strcmp(v, "1") == 0) {
		lock_stat_set(true);
		printk("lock_stat: on\n");
	}
}

/* "echo 0 > /proc/lock_stat". Counts taken meanwhile on other CPUs may survive it, as in Linux. */
void lock_stat_reset(void)
{
	uint32_t flags;

	memset(rows, 0, sizeof(rows));
	flags = meta_take();
	for (struct lock_class *c = classes; c; c = c->next) {
		memset(c->contention_point, 0, sizeof(c->contention_point));
		memset(c->contending_point, 0, sizeof(c->contending_point));
	}
	meta_give(flags);
}

struct lock_class *lock_stat_classes(void)
{
	return READ_ONCE(classes);      /* a class, once listed, stays listed: walking needs no lock */
}

void lock_stat_sum(const struct lock_class *c, struct lock_class_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		const struct lock_class_stats *s = &rows[cpu][c->index];

		if (s->contentions && (!out->contentions || s->wait_min < out->wait_min))
			out->wait_min = s->wait_min;
		if (s->holds && (!out->holds || s->hold_min < out->hold_min))
			out->hold_min = s->hold_min;
		out->wait_max = MAX(out->wait_max, s->wait_max);
		out->hold_max = MAX(out->hold_max, s->hold_max);
		out->con_bounces += s->con_bounces;
		out->contentions += s->contentions;
		out->wait_total += s->wait_total;
		out->acq_bounces += s->acq_bounces;
		out->acquisitions += s->acquisitions;
		out->holds += s->holds;
		out->hold_total += s->hold_total;
	}
}
