/*
 * /proc/lock_stat and /proc/sys/kernel/lock_stat: kernel/locking/lock_stat.c's
 * counters in Linux's layout (Documentation/locking/lockstat.rst, version
 * 0.4), so that what one learns to read here reads the same on Linux: a line
 * per lock class, most contended first, then its contention points (where
 * waiters waited) and contending points (where the holder had taken it).
 * Times in microseconds with two decimals. "echo 0 > /proc/lock_stat" resets.
 *
 * One difference: Linux names a point by its code address; smpix names
 * spinlock and BKL points by file:line (and function, for the BKL), which
 * its lock macros know, and mutex points by address, symbolized.
 */
#include "fs/proc/proc_files.h"

#include "fs/proc/procbuf.h"
#include "kernel/ksyms.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/locking/lock_stat.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"

#define WIDTH (40 + 1 + 12 * (14 + 1))  /* Linux's rule lines */
#define SHOWN_MAX 256

static void rule(struct procbuf *pb, char c, int indent, int n)
{
	procbuf_printf(pb, "%*s", indent, "");
	for (int i = 0; i < n; i++)
		procbuf_printf(pb, "%c", c);
	procbuf_printf(pb, "\n");
}

/* TSC cycles as " %14s" microseconds with two decimals, as Linux's seq_time(). */
static void print_time(struct procbuf *pb, uint64_t cycles)
{
	uint64_t ns = cycles_to_ns(cycles);
	char num[24];

	snprintf(num, sizeof(num), "%llu.%02llu", ns / 1000, (ns % 1000) / 10);
	procbuf_printf(pb, " %14s", num);
}

static void print_point(struct procbuf *pb, const char *name, const struct lock_point *p)
{
	char where[64];
	const char *fn = p->function;
	uintptr_t off = 0;

	if (p->file) {
		snprintf(where, sizeof(where), "%s:%d", p->file, p->line);
	} else {
		snprintf(where, sizeof(where), "[<%08x>]", (unsigned)p->ip);
		fn = ksym_lookup(p->ip, &off);
	}
	procbuf_printf(pb, "%40s %14llu %29s", name, p->count, where);
	if (fn && p->file)
		procbuf_printf(pb, " %s", fn);
	else if (fn)
		procbuf_printf(pb, " %s+0x%x", fn, (unsigned)off);
	procbuf_printf(pb, "\n");
}

static void print_class(struct procbuf *pb, const struct lock_class *c, const struct lock_class_stats *s)
{
	char name[39];
	int namelen, points = 0;

	strlcpy(name, c->name ? c->name : "?", sizeof(name));
	namelen = (int)strlen(name);
	procbuf_printf(pb, "%40s:%14llu %14llu", name, s->con_bounces, s->contentions);
	print_time(pb, s->wait_min);
	print_time(pb, s->wait_max);
	print_time(pb, s->wait_total);
	print_time(pb, s->contentions ? s->wait_total / s->contentions : 0);
	procbuf_printf(pb, " %14llu %14llu", s->acq_bounces, s->acquisitions);
	print_time(pb, s->hold_min);
	print_time(pb, s->hold_max);
	print_time(pb, s->hold_total);
	print_time(pb, s->holds ? s->hold_total / s->holds : 0);
	procbuf_printf(pb, "\n");
	for (int k = 0; k < 2; k++) {
		const struct lock_point *pts = k ? c->contending_point : c->contention_point;

		for (int i = 0; i < LOCKSTAT_POINTS && pts[i].count; i++) {
			if (i == 0)
				rule(pb, '-', 40 - namelen, namelen);
			print_point(pb, name, &pts[i]);
			points++;
		}
	}
	if (points) {
		procbuf_printf(pb, "\n");
		rule(pb, '.', 0, WIDTH);
		procbuf_printf(pb, "\n");
	}
}

static bool before(const struct lock_class_stats *a, const struct lock_class_stats *b)
{
	if (a->contentions != b->contentions)
		return a->contentions > b->contentions;
	return a->acquisitions > b->acquisitions;
}

void proc_show_lock_stat(struct procbuf *pb, void *arg)
{
	/* Static, too big for a kernel stack: procfs prints one at a time, under the BKL or procfs_mutex. */
	static const struct lock_class *cls[SHOWN_MAX];
	static struct lock_class_stats st[SHOWN_MAX];
	static int order[SHOWN_MAX];
	int n = 0;

	for (const struct lock_class *c = lock_stat_classes(); c && n < SHOWN_MAX; c = c->next) {
		lock_stat_sum(c, &st[n]);
		cls[n] = c;
		order[n] = n;
		if (st[n].acquisitions || st[n].contentions)
			n++;
	}
	/* Most contended first, as Linux sorts; then most acquired. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && before(&st[order[j]], &st[order[j - 1]]); j--) {
			int x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	procbuf_printf(pb, "lock_stat version 0.4\n");
	if (!lock_stat_on)
		procbuf_printf(pb, "*WARNING* lock_stat is off: echo 1 > /proc/sys/kernel/lock_stat, or boot with "
			       "lock_stat=1\n");
	rule(pb, '-', 0, WIDTH);
	procbuf_printf(pb, "%40s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s\n", "class name",
		       "con-bounces", "contentions", "waittime-min", "waittime-max", "waittime-total",
		       "waittime-avg", "acq-bounces", "acquisitions", "holdtime-min", "holdtime-max",
		       "holdtime-total", "holdtime-avg");
	rule(pb, '-', 0, WIDTH);
	procbuf_printf(pb, "\n");
	for (int i = 0; i < n; i++)
		print_class(pb, cls[order[i]], &st[order[i]]);
}

/* "echo 0 > /proc/lock_stat" zeroes every class's counters and points, as in Linux. */
int proc_write_lock_stat(const char *text)
{
	if (strcmp(text, "0") != 0)
		return -EINVAL;
	lock_stat_reset();
	return 0;
}

void proc_show_lock_stat_on(struct procbuf *pb, void *arg)
{
	procbuf_printf(pb, "%d\n", lock_stat_on ? 1 : 0);
}

int proc_write_lock_stat_on(const char *text)
{
	if (strcmp(text, "0") != 0 && strcmp(text, "1") != 0)
		return -EINVAL;
	lock_stat_set(text[0] == '1');
	return 0;
}
