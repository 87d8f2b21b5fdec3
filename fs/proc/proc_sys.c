/*
 * /proc/sys/kernel: run-time knobs. As in Linux 2.6.6, these files are read
 * and written WITHOUT the BKL ("The Big Kernel Lock lives on", 2004, noticed
 * that /proc/sys escaped it while most of /proc did not): each knob is one
 * variable, stored with WRITE_ONCE, so there is nothing for a lock to protect.
 * (spin_report_cycles is 64 bits, two stores on i386: a CPU spinning at that
 * moment may compare against a half-written threshold once, which at worst
 * moves one lockup report. Its readers spin without locks by design.)
 */
#include "fs/proc/proc_files.h"

#include "fs/ioctl/ioctl_mode.h"
#include "fs/proc/procbuf.h"
#include "kernel/era.h"
#include "kernel/locking/bkl.h"
#include "kernel/locking/atomic.h"
#include "kernel/lib/string.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"

#define SPIN_REPORT_MS_MAX 600000       /* ten minutes: beyond that, a lockup is never reported */

/* Decimal digits only, no sign, no overflow past max: 0 or -EINVAL. */
static int parse_uint(const char *text, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (!*text)
		return -EINVAL;
	for (; *text; text++) {
		if (*text < '0' || *text > '9')
			return -EINVAL;
		v = v * 10 + (uint32_t)(*text - '0');
		if (v > max)
			return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

/*
 * bkl_spin_report_ms: how long a CPU may spin for the BKL (or any spinlock:
 * they share the threshold, spin_report_cycles) before it reports a
 * suspected lockup. Milliseconds here, TSC cycles inside.
 */
void proc_show_spin_report_ms(struct procbuf *pb, void *arg)
{
	procbuf_printf(pb, "%llu\n", READ_ONCE(spin_report_cycles) * 1000 / tsc_hz);
}

int proc_write_spin_report_ms(const char *text)
{
	uint32_t ms;

	if (parse_uint(text, SPIN_REPORT_MS_MAX, &ms) < 0 || ms == 0)
		return -EINVAL;
	WRITE_ONCE(spin_report_cycles, tsc_hz * ms / 1000);
	return 0;
}

/* bkl_timing: which BKL holds /proc/bkl times: 0 none, 1 all, N one in N at random (kernel/locking/bkl_hold.h). */
void proc_show_bkl_timing(struct procbuf *pb, void *arg)
{
	procbuf_printf(pb, "%u\n", bkl_timing_get());
}

int proc_write_bkl_timing(const char *text)
{
	uint32_t period;

	if (parse_uint(text, BKL_TIMING_MAX, &period) < 0)
		return -EINVAL;
	return bkl_timing_set(period);
}

/* ioctl_mode: auto, serialized or unlocked (fs/ioctl/ioctl_mode.h). */
void proc_show_ioctl_mode(struct procbuf *pb, void *arg)
{
	procbuf_printf(pb, "%s\n", ioctl_mode_name(ioctl_mode_get()));
}

int proc_write_ioctl_mode(const char *text)
{
	return ioctl_mode_set(text);
}

/* era: the era this kernel booted as (kernel/era.c). Read-only: it is fixed before the BKL is first taken. */
void proc_show_era(struct procbuf *pb, void *arg)
{
	procbuf_printf(pb, "%s\n", era_name(era_now()));
}
