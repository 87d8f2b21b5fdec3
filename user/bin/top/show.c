/*
 * top's screen: the differences between two samples, as shares of the time between them.
 *
 * The CPU table is mpstat's idea: one line per CPU, each column the share of that CPU's ticks
 * that went there. %sys includes %spin, and %spin includes %bkl (smpix's columns, docs/time.md):
 * a CPU spinning for the BKL is busy in the kernel, doing nothing. %steal is the time the host
 * did not run the virtual CPU at all. The tasks are sorted by %CPU, as top does; %BKL is how
 * much of the interval a task spent waiting for the BKL (its BKLTime, /proc/PID/status, grew
 * by that much), and with several threads both may pass 100.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "top.h"

/* What the CPU table shows, each a sum of /proc/stat columns. */
struct share {
	const char *title;
	enum cpu_column col[2];
	int ncols;
};

static const struct share shares[] = {
	{ "%usr", { COL_USER, COL_NICE }, 2 },
	{ "%sys", { COL_SYSTEM }, 1 },
	{ "%spin", { COL_SPIN }, 1 },
	{ "%bkl", { COL_BKL }, 1 },
	{ "%irq", { COL_IRQ, COL_SOFTIRQ }, 2 },
	{ "%iowait", { COL_IOWAIT }, 1 },
	{ "%steal", { COL_STEAL }, 1 },
	{ "%idle", { COL_IDLE }, 1 },
};
#define NR_SHARES (int)(sizeof(shares) / sizeof(shares[0]))

/* A column is as wide as its title, and wide enough for "100.0". */
static int width(int i)
{
	int w = (int)strlen(shares[i].title);

	return w > 5 ? w : 5;
}

static unsigned long long delta(const struct cpu_ticks *a, const struct cpu_ticks *b, enum cpu_column c)
{
	return b->col[c] >= a->col[c] ? b->col[c] - a->col[c] : 0;
}

/* One CPU's line ("all" for the sum). Its ticks: Linux's first eight columns, which add up to the time. */
static void cpu_line(const char *name, const struct cpu_ticks *a, const struct cpu_ticks *b)
{
	unsigned long long total = 0;

	for (int c = COL_USER; c <= COL_STEAL; c++)
		total += delta(a, b, c);
	printf("%-4s", name);
	for (int i = 0; i < NR_SHARES; i++) {
		unsigned long long part = 0;

		for (int j = 0; j < shares[i].ncols; j++)
			part += delta(a, b, shares[i].col[j]);
		printf(" %*.1f", width(i), total ? 100.0 * part / total : 0.0);
	}
	printf("\n");
}

static void cpu_table(const struct sample *before, const struct sample *after)
{
	char name[8];

	printf("CPU ");
	for (int i = 0; i < NR_SHARES; i++)
		printf(" %*s", width(i), shares[i].title);
	printf("\n");
	cpu_line("all", &before->all, &after->all);
	for (int i = 0; i < after->ncpus && i < before->ncpus; i++) {
		snprintf(name, sizeof(name), "%d", i);
		cpu_line(name, &before->cpu[i], &after->cpu[i]);
	}
}

static void header(const struct sample *s)
{
	long up = (long)s->uptime;

	printf("top - up %ld:%02ld:%02ld, %d CPU%s, load average: %s\n", up / 3600, up / 60 % 60, up % 60,
	       s->ncpus, s->ncpus == 1 ? "" : "s", s->loadavg);
	printf("Mem: %lu kB total, %lu kB used, %lu kB free\n", s->mem_total_kb,
	       s->mem_total_kb - s->mem_free_kb, s->mem_free_kb);
}

/* A task's line, worked out: its share of the interval on a CPU and waiting for the BKL. */
struct task_line {
	const struct task_sample *t;
	double cpu_pct, bkl_pct;
};

/* The same process (or thread) in the earlier sample, or NULL if it is new. */
static const struct task_sample *find(const struct sample *s, const struct task_sample *t)
{
	for (int i = 0; i < s->ntasks; i++)
		if (s->task[i].pid == t->pid && s->task[i].tid == t->tid)
			return &s->task[i];
	return NULL;
}

static int busiest_first(const void *a, const void *b)
{
	const struct task_line *x = a, *y = b;

	if (x->cpu_pct != y->cpu_pct)
		return x->cpu_pct < y->cpu_pct ? 1 : -1;
	if (x->bkl_pct != y->bkl_pct)
		return x->bkl_pct < y->bkl_pct ? 1 : -1;
	return x->t->pid != y->t->pid ? x->t->pid - y->t->pid : x->t->tid - y->t->tid;
}

/* How much a counter grew; a counter that went down is another task with a reused id: all new. */
static unsigned long long growth(unsigned long long now, unsigned long long then)
{
	return then <= now ? now - then : now;
}

/* A share of the interval, in percent, of the seconds a counter grew by. */
static double percent(double seconds_grown, double interval)
{
	return 100.0 * seconds_grown / (interval > 1e-3 ? interval : 1e-3);
}

/*
 * Task t's line: its growth since the earlier sample, over the time between its own two reads.
 * A task that began during the interval (not in the earlier sample) spent all its time in it.
 */
static void measure(const struct sample *before, const struct task_sample *t, struct task_line *l)
{
	const struct task_sample *old = find(before, t);
	unsigned long long ticks = growth(t->cpu_ticks, old ? old->cpu_ticks : 0);
	unsigned long long bkl_us = growth(t->bkl_us, old ? old->bkl_us : 0);

	l->t = t;
	l->cpu_pct = percent((double)ticks / USER_HZ, t->stat_when - (old ? old->stat_when : before->when));
	l->bkl_pct = percent(bkl_us / 1e6, t->status_when - (old ? old->status_when : before->when));
}

static void task_table(const struct sample *before, const struct sample *after, const struct view *v)
{
	static struct task_line line[TOP_MAX_TASKS];
	int n = after->ntasks;

	for (int i = 0; i < n; i++)
		measure(before, &after->task[i], &line[i]);
	qsort(line, n, sizeof(line[0]), busiest_first);
	printf(v->threads ? "  PID   TID" : "  PID");
	printf(" CPU S  %%CPU  %%BKL      TIME COMMAND\n");
	for (int i = 0; i < n && (v->max_tasks <= 0 || i < v->max_tasks); i++) {
		const struct task_sample *t = line[i].t;
		unsigned long long cs = t->cpu_ticks * (100 / USER_HZ);    /* hundredths of a second */

		if (v->threads)
			printf("%5d %5d", t->pid, t->tid);
		else
			printf("%5d", t->pid);
		printf(" %3d %c %5.1f %5.1f %3llu:%02llu.%02llu %s\n", t->cpu, t->state, line[i].cpu_pct,
		       line[i].bkl_pct, cs / 6000, cs / 100 % 60, cs % 100, t->comm);
	}
}

void show(const struct sample *before, const struct sample *after, const struct view *v)
{
	header(after);
	printf("\n");
	cpu_table(before, after);
	printf("\n");
	task_table(before, after, v);
}
