/*
 * When is a long wait for a lock a lockup?
 *
 * Not simply when the clock says so. On a virtual machine (and smpix is
 * developed on one, with more vCPUs than host cores) the host stops running
 * a vCPU whenever it likes: the waiter may have been off its CPU for most of
 * the "wait", or the holder may have been, or the CPU whose ticket is next.
 * None of that is a kernel bug, and a report of it fails a test.
 *
 * So a waiter counts as waiting only:
 *  - the time it actually spent spinning: the TSC keeps running while the
 *    host does not run this vCPU, so a jump between two turns of the loop
 *    (LOCKUP_OFF_CPU_CYCLES, far more than one turn takes) is time it was
 *    not on its CPU, and is not counted;
 *  - since the lock last moved on: a ticket served is progress, contention
 *    rather than a lockup, and starts the count again.
 * And it reports when that count passes spin_report_cycles while the
 * holder's CPU is seen running (its timer ticks go on: it runs, and still
 * does not let go), or, whatever the holder does, when it passes
 * LOCKUP_BLIND_FACTOR times that: a holder with interrupts off (no ticks to
 * see), or a ticket handed to a CPU that never comes.
 *
 * Linux's spinlock debugging (2.6's lib/spinlock_debug.c) had the first
 * problem and printed "lockup suspected" under a busy hypervisor too.
 */
#ifndef KERNEL_LOCKING_LOCKUP_WATCH_H
#define KERNEL_LOCKING_LOCKUP_WATCH_H

#include "kernel/cpu.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/timer.h"
#include "kernel/types.h"

#define LOCKUP_OFF_CPU_CYCLES (tsc_hz / 1000)   /* 1 ms between two turns: the vCPU was not running */
#define LOCKUP_HOLDER_TICKS 2                   /* the holder's CPU ran for a tick or two meanwhile */
#define LOCKUP_BLIND_FACTOR 8                   /* a holder we cannot see running: 8 times as long */

struct lockup_watch {
	uint64_t last;          /* TSC at the last turn */
	uint64_t spun;          /* cycles spent spinning since the lock last moved on */
	uint16_t serving;       /* the ticket served then */
	int holder_cpu;         /* the holder's CPU as last seen, -1 for none */
	uint64_t holder_ticks;  /* that CPU's ticks when first seen holding */
	bool reported;
};

static inline void lockup_watch_holder(struct lockup_watch *w, int holder_cpu)
{
	w->holder_cpu = holder_cpu;
	w->holder_ticks = holder_cpu >= 0 ? READ_ONCE(cpus[holder_cpu].ticks) : 0;
}

static inline void lockup_watch_begin(struct lockup_watch *w, uint16_t serving, int holder_cpu)
{
	w->last = rdtsc();
	w->spun = 0;
	w->serving = serving;
	w->reported = false;
	lockup_watch_holder(w, holder_cpu);
}

/* One turn of a waiter's loop: true once per wait, when the wait looks like a lockup. */
static inline __attribute__((always_inline)) bool lockup_watch_turn(struct lockup_watch *w, uint16_t serving,
								   int holder_cpu)
{
	uint64_t now = rdtsc(), gap = now - w->last;
	bool holder_ran;

	w->last = now;
	if (serving != w->serving) {            /* the lock moved on */
		w->serving = serving;
		w->spun = 0;
		lockup_watch_holder(w, holder_cpu);
		return false;
	}
	if (gap < LOCKUP_OFF_CPU_CYCLES)
		w->spun += gap;
	if (holder_cpu != w->holder_cpu)
		lockup_watch_holder(w, holder_cpu);
	if (w->reported || w->spun <= spin_report_cycles)
		return false;
	holder_ran = holder_cpu >= 0 && READ_ONCE(cpus[holder_cpu].ticks) - w->holder_ticks >= LOCKUP_HOLDER_TICKS;
	if (!holder_ran && w->spun <= LOCKUP_BLIND_FACTOR * spin_report_cycles)
		return false;
	w->reported = true;
	return true;
}

#endif
