/* Inter-processor interrupts: reschedule, run a function elsewhere, stop for a panic. */
#ifndef KERNEL_IPI_H
#define KERNEL_IPI_H

#include "kernel/types.h"

/* Install the IPI handlers and panic_stop_other_cpus (BSP, once). */
void ipi_init(void);
/* Ask CPU cpu to look at its run queue: its handler sets cpus[cpu].need_resched. */
void smp_send_reschedule(int cpu);
/*
 * Run fn(arg) on CPU cpu, in interrupt context with interrupts off (on this
 * CPU: directly). With wait, return after fn returned there. Callers that
 * wait, or that may find the target's call slot busy, must have interrupts
 * enabled: two CPUs calling each other with interrupts off would deadlock.
 * Returns 0, or -EINVAL for a CPU that is not online.
 */
int smp_call_function(int cpu, void (*fn)(void *), void *arg, bool wait);
/* The same on every online CPU except this one. */
void smp_call_function_all_others(void (*fn)(void *), void *arg, bool wait);

#endif
