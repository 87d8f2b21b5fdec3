/* Time: the TSC clock, busy-wait delays and the per-CPU LAPIC tick at HZ (kernel/sched/sched.h). */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include "kernel/types.h"

/* Measure the TSC and LAPIC timer rates against the PIT (BSP, once, LAPIC mapped). */
void timer_calibrate(void);
/* Start this CPU's LAPIC timer: periodic, HZ interrupts per second on T_LAPIC_TIMER. */
void timer_start_this_cpu(void);

/* Nanoseconds since calibration, from the TSC. Monotonic on each CPU. */
uint64_t clock_ns(void);
/* A TSC reading on clock_ns()'s scale (0 before calibration), and a count of TSC cycles in ns. */
uint64_t tsc_to_ns(uint64_t tsc);
uint64_t cycles_to_ns(uint64_t cycles);
/*
 * The wall clock, for CLOCK_REALTIME: set once at boot from the battery
 * clock (drivers/char/rtc.c), then advanced by clock_ns(). Before that, or with
 * no RTC, it counts from 1970 as Linux's does.
 */
void clock_set_realtime(int64_t unix_seconds);
/* Nanoseconds since 1970-01-01 UTC. */
int64_t clock_realtime_ns(void);
/* Busy-wait (interrupts may stay off): for hardware delays such as INIT-SIPI-SIPI. */
void udelay(uint32_t us);
void mdelay(uint32_t ms);

/* TSC cycles in one tick (1/HZ s). */
uint64_t timer_cycles_per_tick(void);

extern uint64_t tsc_hz;                 /* TSC ticks per second */
extern uint32_t lapic_timer_hz;         /* LAPIC timer counts per second (bus clock / 16) */

#endif
