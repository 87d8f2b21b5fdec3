/* top: what one look at /proc holds, and the two halves that take it (sample.c) and show it (show.c). */
#ifndef USER_BIN_TOP_H
#define USER_BIN_TOP_H

#include <stdbool.h>

#define TOP_MAX_CPUS  16
#define TOP_MAX_TASKS 512
#define USER_HZ       100               /* the unit of /proc/stat and /proc/PID/stat's times */

/* The columns of a /proc/stat cpu line: Linux's ten, then smpix's two (parts of system; docs/time.md). */
enum cpu_column {
	COL_USER, COL_NICE, COL_SYSTEM, COL_IDLE, COL_IOWAIT, COL_IRQ, COL_SOFTIRQ, COL_STEAL,
	COL_GUEST, COL_GUEST_NICE, COL_SPIN, COL_BKL, NR_COLUMNS
};

struct cpu_ticks {
	unsigned long long col[NR_COLUMNS];     /* clock ticks since boot */
};

/* One process (tid 0) or, with -H, one thread. */
struct task_sample {
	int pid, tid;
	char comm[32];
	char state;
	int cpu;                                /* /proc/PID/stat field 39: where it runs or last ran */
	unsigned long long cpu_ticks;           /* utime + stime (fields 14 and 15) */
	unsigned long long bkl_us;              /* BKLTime from status: waiting for the BKL (0 on Linux) */
	/*
	 * When stat and status were read (CLOCK_MONOTONIC, seconds). Each task's own: reading /proc
	 * takes the BKL, so under contention a sweep of /proc can take longer than the delay, and
	 * a task read early in one sweep and late in the next would seem to run faster than time.
	 */
	double stat_when, status_when;
};

struct sample {
	double when;                            /* CLOCK_MONOTONIC, in seconds */
	struct cpu_ticks all;                   /* the "cpu" line */
	struct cpu_ticks cpu[TOP_MAX_CPUS];     /* the "cpuN" lines */
	int ncpus;
	struct task_sample task[TOP_MAX_TASKS];
	int ntasks;
	char loadavg[64];                       /* /proc/loadavg as it is: "0.52 0.14 0.05 2/9 31" */
	unsigned long mem_total_kb, mem_free_kb;
	double uptime;
};

/* CLOCK_MONOTONIC, in seconds. */
double top_now(void);

/* Read /proc into s: processes, or every thread with threads. 0, or -1 if /proc/stat is missing. */
int sample_take(struct sample *s, bool threads);

/* How a screen is laid out. */
struct view {
	bool threads;                           /* a line per thread (-H) */
	int max_tasks;                          /* task lines to print (0: all) */
};

/* Print what happened between two samples: the CPUs, the load, the memory, then the busiest tasks. */
void show(const struct sample *before, const struct sample *after, const struct view *v);

#endif
