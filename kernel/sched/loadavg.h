/* The load average: /proc/loadavg's three numbers, computed as Linux computes them. */
#ifndef KERNEL_SCHED_LOADAVG_H
#define KERNEL_SCHED_LOADAVG_H

#include "kernel/types.h"

#define FSHIFT  11                      /* bits of fraction in a load */
#define FIXED_1 (1 << FSHIFT)           /* 1.0 */

/* From CPU 0's tick: every load_freq ticks, take a sample. */
void loadavg_tick(uint64_t ticks);
/* The 1, 5 and 15 minute averages, FSHIFT bits of fraction each. */
void loadavg_get(uint32_t avg[3]);
/* Tasks running or waiting for a CPU (idle tasks not counted), on every CPU. */
int sched_nr_running(void);

#endif
