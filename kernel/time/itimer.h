/*
 * The interval timers of a process (setitimer, getitimer, alarm): ITIMER_REAL
 * (wall-clock time, SIGALRM), ITIMER_VIRTUAL (the process's user time,
 * SIGVTALRM) and ITIMER_PROF (its user and system time, SIGPROF). They
 * belong to the process, i.e. its thread group, as in Linux since 2.6.12.
 */
#ifndef KERNEL_ITIMER_H
#define KERNEL_ITIMER_H

#include "kernel/list.h"
#include "kernel/types.h"

struct task;
struct thread_group;

/* A CPU-time timer: the CPU time still to run until it fires (0: off), then the reload. */
struct itimer_cpu {
	uint64_t left_ns;
	uint64_t interval_ns;
};

/* A process's timers, inside struct thread_group; under itimer.c's lock (interrupts off). */
struct itimers {
	uint64_t real_at_ns;            /* ITIMER_REAL: when SIGALRM is due (clock_ns()), 0 if off */
	uint64_t real_interval_ns;      /* and then every this often, 0 for once */
	struct list_head real_link;     /* on the list of armed real timers, while real_at_ns != 0 */
	struct itimer_cpu cpu[2];       /* [0] ITIMER_VIRTUAL, [1] ITIMER_PROF */
	bool cpu_armed;                 /* either of them is on: the ticks must look */
	unsigned gen;                   /* bumped when one is set: each thread's count starts again */
};

/* From the timer interrupt (CPU 0's tick): send SIGALRM to every process whose timer is due. */
void itimer_tick(void);
/*
 * From every CPU's tick that finds t running (user: in user mode, else in
 * the kernel): charge the tick to its process's CPU-time timers, and send
 * SIGVTALRM or SIGPROF to the process when one runs out.
 */
void itimer_cpu_tick(struct task *t, bool user);
/* The last thread of g's process has exited: disarm its timers. proc_lock held. */
void itimer_group_exit(struct thread_group *g);
/* execve() in a thread that is not the leader: t is now g's leader (the real timer signals it). proc_lock held. */
void itimer_set_leader(struct thread_group *g, struct task *t);

#endif
