/* A process's CPU time as user space asks for it: times(), getrusage(), wait4's rusage, the CPU-time clocks. */
#ifndef KERNEL_TIME_RUSAGE_H
#define KERNEL_TIME_RUSAGE_H

#include "kernel/types.h"

struct task;

/* struct rusage on Linux i386: two struct timeval, then 14 longs. */
struct rusage32 {
	int32_t utime_sec, utime_usec;
	int32_t stime_sec, stime_usec;
	int32_t maxrss, ixrss, idrss, isrss, minflt, majflt, nswap;
	int32_t inblock, oublock, msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};

/* What wait4 reports of zombie c before it is reaped: its whole group's time and its children's. proc_lock held. */
void rusage_of_zombie(const struct task *c, struct rusage32 *ru);
/* CLOCK_THREAD_CPUTIME_ID (thread) or CLOCK_PROCESS_CPUTIME_ID: current's CPU time in ns, exact. */
uint64_t cputime_clock_ns(bool thread);

#endif
