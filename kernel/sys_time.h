/* The wall clock (CLOCK_REALTIME): the boot clock plus an offset a real-time-clock driver may set. */
#ifndef KERNEL_SYS_TIME_H
#define KERNEL_SYS_TIME_H

#include "kernel/types.h"

/* Nanoseconds since 1970-01-01 UTC, as well as smpix knows (see sys_time.c). */
uint64_t clock_realtime_ns(void);
/* Tell the clock what time it is now, in nanoseconds since 1970 (e.g. from the CMOS clock at boot). */
void clock_set_realtime_ns(uint64_t unix_ns);

#endif
