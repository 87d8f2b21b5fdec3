/*
 * Timekeeping. The PIT's 1.193182 MHz crystal is the one clock whose rate we
 * know; at boot we count how far the TSC and the LAPIC timer move while PIT
 * channel 2 counts down 50 ms (polled through port 0x61, no interrupt
 * needed). From then on the TSC gives clock_ns() and udelay(), and every CPU
 * programs its LAPIC timer to interrupt HZ times a second.
 * In kernel/, not kernel/x86/: the tick and clock_ns() are what the scheduler
 * and sleepers stand on; the PIT and LAPIC programming is the small part.
 */
#include "kernel/time/timer.h"


#include "kernel/cpu.h"
#include "kernel/time/cputime.h"
#include "kernel/time/itimer.h"
#include "kernel/printk.h"
#include "kernel/sched/loadavg.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "kernel/x86/lapic.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define PIT_HZ        1193182u
#define PIT_CH2       0x42
#define PIT_CMD       0x43
#define PIT_GATE_PORT 0x61
#define PIT_GATE2     0x01      /* port 0x61 bit 0: channel 2 counts */
#define PIT_SPEAKER   0x02      /* bit 1: speaker on; keep it off */
#define PIT_OUT2      0x20      /* bit 5: channel 2's output */
#define PIT_CH2_MODE0 0xB0      /* channel 2, lobyte/hibyte, mode 0 (interrupt on terminal count) */
#define CALIBRATE_MS  50
#define CLOCK_SHIFT   24        /* clock_ns = cycles * mult >> 24: mult fits 32 bits for TSCs above 4 MHz */

uint64_t tsc_hz;
uint32_t lapic_timer_hz;
static uint64_t tsc_base;       /* TSC at calibration: clock_ns() counts from here */
static uint32_t tsc_mult;       /* ns per cycle, as a fixed-point number with CLOCK_SHIFT fraction bits */
static uint32_t tsc_per_us;
/* Wall-clock time at clock_ns() == 0. Written once at boot, before any process can read it. */
static int64_t realtime_base_ns;

/* a * b >> CLOCK_SHIFT without a 64x64 multiply (which would need libgcc). */
static uint64_t mul_shift(uint64_t a, uint32_t b)
{
	uint64_t lo = (uint64_t)(uint32_t)a * b;
	uint64_t hi = (a >> 32) * b;

	return (lo >> CLOCK_SHIFT) + (hi << (32 - CLOCK_SHIFT));
}

uint64_t clock_ns(void)
{
	return mul_shift(rdtsc() - tsc_base, tsc_mult);
}

uint64_t tsc_to_ns(uint64_t tsc)
{
	return tsc > tsc_base ? mul_shift(tsc - tsc_base, tsc_mult) : 0;
}

uint64_t cycles_to_ns(uint64_t cycles)
{
	return mul_shift(cycles, tsc_mult);
}

void udelay(uint32_t us)
{
	uint64_t start = rdtsc();
	uint64_t cycles = (uint64_t)us * (tsc_per_us ? tsc_per_us : 4000);

	while (rdtsc() - start < cycles)
		cpu_relax();
}

void mdelay(uint32_t ms)
{
	while (ms--)
		udelay(1000);
}

/* Run PIT channel 2 for CALIBRATE_MS; return the TSC and LAPIC timer distance covered. */
static void pit_measure(uint64_t *tsc_delta, uint32_t *lapic_delta)
{
	uint32_t latch = PIT_HZ * CALIBRATE_MS / 1000;
	uint64_t t0;
	uint32_t l0;

	outb(PIT_GATE_PORT, (inb(PIT_GATE_PORT) & ~PIT_SPEAKER) | PIT_GATE2);
	outb(PIT_CMD, PIT_CH2_MODE0);
	outb(PIT_CH2, latch & 0xFF);
	lapic_timer_oneshot(0xFFFFFFFF);
	t0 = rdtsc();
	l0 = lapic_timer_current();
	outb(PIT_CH2, latch >> 8);      /* the count starts with its high byte */
	while (!(inb(PIT_GATE_PORT) & PIT_OUT2))
		cpu_relax();
	*tsc_delta = rdtsc() - t0;
	*lapic_delta = l0 - lapic_timer_current();
	lapic_timer_stop();
}

void timer_calibrate(void)
{
	uint64_t tsc_delta;
	uint32_t lapic_delta;

	pit_measure(&tsc_delta, &lapic_delta);
	tsc_hz = tsc_delta * (1000 / CALIBRATE_MS);
	if (tsc_hz < 1000000)             /* a broken PIT or TSC: assume 1 GHz rather than divide by 0 */
		tsc_hz = 1000000000ULL;
	lapic_timer_hz = lapic_delta * (1000 / CALIBRATE_MS);
	tsc_per_us = (uint32_t)(tsc_hz / 1000000);
	if (tsc_per_us == 0)
		tsc_per_us = 1;
	tsc_mult = (uint32_t)((1000000000ULL << CLOCK_SHIFT) / tsc_hz);
	tsc_base = rdtsc();
	/* The lock checker's patience: about two seconds of spinning. */
	spin_report_cycles = 2 * tsc_hz;
	printk("timer: TSC %u.%03u MHz, LAPIC timer %u.%03u MHz (bus / 16), HZ=%d\n",
	       (uint32_t)(tsc_hz / 1000000), (uint32_t)(tsc_hz / 1000 % 1000),
	       lapic_timer_hz / 1000000, lapic_timer_hz / 1000 % 1000, HZ);
}

uint64_t timer_cycles_per_tick(void)
{
	return tsc_hz / HZ;
}

/* The tick: count it, acknowledge it, fire due alarms (CPU 0 alone), then let the scheduler look. */
static void timer_interrupt(struct trapframe *tf)
{
	struct cpu *c = this_cpu();
	uint64_t now = rdtsc();

	uint64_t period = timer_cycles_per_tick(), late = 0;

	c->ticks++;
	if (now - c->last_tick_tsc < 2 * period) {
		c->ran_ticks++;
		if (c->spinning == SPINNING_NONE)
			c->sched_ticks++;
	} else if (c->last_tick_tsc)
		late = (now - c->last_tick_tsc) / period - 1;
	c->last_tick_tsc = now;
	cputime_tick(c, tf, late);
	lapic_eoi();
	if (c->id == 0) {
		itimer_tick();
		loadavg_tick(c->ticks);
		console_tick(c->ticks);
	}
	sched_tick(tf);
}

void timer_start_this_cpu(void)
{
	trap_set_handler(T_LAPIC_TIMER, timer_interrupt);
	lapic_timer_periodic(lapic_timer_hz / HZ, T_LAPIC_TIMER);
}

void clock_set_realtime(int64_t unix_seconds)
{
	realtime_base_ns = unix_seconds * 1000000000LL - (int64_t)clock_ns();
}

int64_t clock_realtime_ns(void)
{
	return realtime_base_ns + (int64_t)clock_ns();
}
