/*
 * Where the time goes: the books of CPU time per CPU (/proc/stat) and per
 * task (times, getrusage, wait4, /proc/PID/stat), kept as Linux 2.6 kept
 * them, plus what Linux hides: the time spent spinning for a lock.
 *
 * How it is counted (kernel/time/cputime.c, docs/time.md):
 *  - Each timer tick (HZ a second on every CPU) looks at what it
 *    interrupted and charges the whole tick to it: user mode, the kernel,
 *    the idle task, interrupt handlers. That is Linux 2.6's tick sampling:
 *    nothing is added to the system call path, and over many ticks the
 *    shares come out right.
 *  - A tick that finds the CPU in a lock's spin loop is also counted as
 *    spin, and as bkl when the lock is the Big Kernel Lock. Spin is a part
 *    of system time, never more than it: Linux counts it as system time too.
 *  - A task's total is exact (the scheduler adds up the TSC between its
 *    switch-in and switch-out); its ticks only say how to split that total
 *    into user and system, as Linux does since 2.6.23.
 *  - Time the host machine did not run this virtual CPU (a tick that comes
 *    two periods late) is steal, as a hypervisor's guest counts it.
 */
#ifndef KERNEL_TIME_CPUTIME_H
#define KERNEL_TIME_CPUTIME_H

#include "kernel/types.h"

/* clock_t ticks per second, the unit of times() and /proc: HZ, so a tick is one (kernel/sched/sched.h). */
#define USER_HZ 100

struct cpu;
struct task;
struct trapframe;

/* A CPU's ticks, by what each found it doing: /proc/stat's columns, Linux's order, spin and bkl last. */
struct cpu_usage {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
	uint64_t spin, bkl;             /* parts of system: waiting for a spinlock, and for the BKL */
};

/* A task's ticks: where they found it. */
struct tick_samples {
	uint64_t user, system, spin, bkl;
};

/* The CPU time of a task, a thread group, or the children a group has reaped. */
struct task_cputime {
	uint64_t runtime_ns;            /* exact */
	struct tick_samples ticks;      /* how to split it */
};

/* runtime_ns split by the ticks: user + system == runtime_ns; bkl <= spin <= system. */
struct cputime_split {
	uint64_t user_ns, system_ns, spin_ns, bkl_ns;
};

/*
 * The user and system times last shown for one running sum (a group's own,
 * its children's). A sum's split moves with its ticks: a child reaped with
 * little runtime but a few system ticks shifts the whole sum's share toward
 * system, and its user time would go down. Linux's cputime_adjust() keeps
 * both from ever going back, so that times() read twice never subtracts to
 * less than zero; so does cputime_split_monotonic() with this.
 */
struct prev_cputime {
	uint64_t user_ns, system_ns;
};

/* What a CPU is waiting for in a spin loop, for the tick to see (struct cpu's spinning). */
enum spinning {
	SPINNING_NONE,
	SPINNING_LOCK,                  /* a spinlock_t (kernel/locking/spinlock.c) */
	SPINNING_BKL,                   /* the Big Kernel Lock (kernel/locking/bkl.c) */
};

/* ---- the tick and the interrupt path (kernel/time/timer.c, kernel/x86/trap.c) ---- */

/* Charge this tick to what tf interrupted; late_periods: the periods the host skipped before it. */
void cputime_tick(struct cpu *c, const struct trapframe *tf, uint64_t late_periods);

/* ---- sums and splits ---- */

void cputime_add(struct task_cputime *to, const struct task_cputime *from);
/* t's own time, including the slice it is running now if it runs. */
void cputime_of_task(const struct task *t, struct task_cputime *out);
/* The whole group of t: its live threads and the ones that have exited. proc_lock held. */
void cputime_of_group(const struct task *t, struct task_cputime *out);
/* The children t's group has reaped, with their own reaped children. proc_lock held. */
void cputime_of_children(const struct task *t, struct task_cputime *out);
void cputime_split(const struct task_cputime *t, struct cputime_split *out);
/* cputime_split(), with user and system never below what prev last gave (and prev updated). prev's lock held. */
void cputime_split_monotonic(const struct task_cputime *t, struct prev_cputime *prev, struct cputime_split *out);

/* ---- a task's life (kernel/process/) ---- */

/* t (current) leaves its thread group: its time stays in the group's books. proc_lock held. */
void cputime_thread_exit(struct task *t);
/* Parent's group reaps zombie c (the last of its group): c's time and its children's become the parent's children's. */
void cputime_reap(struct task *parent, const struct task *c);

/* ---- waiting for a disk (iowait, procs_blocked, the load average) ---- */

/* current is about to sleep until a disk answers, and has woken. */
void cputime_iowait_begin(void);
void cputime_iowait_end(void);
/* Tasks asleep waiting for a disk, on every CPU. */
int cputime_nr_iowait(void);

#endif
