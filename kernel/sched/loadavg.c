/*
 * The load average, as Linux computes it: every 5 seconds, count the tasks
 * that are running, waiting for a CPU, or asleep waiting for a disk (the
 * "uninterruptible" ones), and fold that count into three exponentially
 * decaying averages whose time constants are 1, 5 and 15 minutes. The
 * arithmetic is Linux's fixed point: 11 bits of fraction, and the decay
 * factors e^(-5s/1min), e^(-5s/5min), e^(-5s/15min) scaled by 2^11.
 *
 * The boot word load_freq=N takes a sample every N ticks instead of every
 * 5 s + 1 tick (Linux's LOAD_FREQ: the extra tick keeps the sample from
 * beating with anything that runs every 5 s exactly). A test uses a small N
 * to see in seconds what would take minutes: the averages then move as if
 * time ran 5 * HZ / N times faster.
 */
#include "kernel/sched/loadavg.h"

#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/sched/runqueue.h"
#include "kernel/sched/sched.h"
#include "kernel/time/cputime.h"

#define LOAD_FREQ (5 * HZ + 1)
static const uint32_t decay[3] = { 1884, 2014, 2037 };   /* FIXED_1 / e^(5/60), e^(5/300), e^(5/900) */

static uint32_t avenrun[3];
static uint32_t load_freq;

int sched_nr_running(void)
{
	int n = 0;

	for (int i = 0; i < ncpus; i++) {
		if (!cpus[i].online)
			continue;
		n += (int)READ_ONCE(runqueues[i].nr_queued);
		if (READ_ONCE(cpus[i].curr) != cpus[i].idle)
			n++;
	}
	return n;
}

/* One step of the average: load * e + active * (1 - e), rounded up while rising (Linux's calc_load). */
static uint32_t calc_load(uint32_t load, uint32_t exp, uint32_t active)
{
	uint32_t next = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		next += FIXED_1 - 1;
	return next / FIXED_1;
}

static uint32_t sample_period(void)
{
	if (load_freq == 0)
		load_freq = cmdline_get_uint("load_freq", LOAD_FREQ) ?: LOAD_FREQ;
	return load_freq;
}

void loadavg_tick(uint64_t ticks)
{
	uint32_t active;

	if (ticks % sample_period() != 0)
		return;
	active = (uint32_t)(sched_nr_running() + cputime_nr_iowait()) * FIXED_1;
	for (int i = 0; i < 3; i++)
		WRITE_ONCE(avenrun[i], calc_load(avenrun[i], decay[i], active));
}

void loadavg_get(uint32_t avg[3])
{
	for (int i = 0; i < 3; i++)
		avg[i] = READ_ONCE(avenrun[i]);
}
