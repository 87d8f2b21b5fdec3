/* clock_gettime(): the wall clock and the clocks that count from boot, in Linux's 32-bit timespec. */
#include "kernel/mm/uaccess.h"
#include "kernel/syscalls.h"
#include "kernel/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/unistd.h"

#define NSEC_PER_SEC 1000000000ULL

struct timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

/*
 * The wall clock started from the RTC at boot; the others count from boot
 * (smpix never suspends, so BOOTTIME equals MONOTONIC, and the TSC is
 * never adjusted, so RAW does too). The COARSE ones are the same clocks.
 */
long sys_clock_gettime(int clock, void *uts)
{
	struct timespec32 ts;
	uint64_t ns;

	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
		ns = (uint64_t)clock_realtime_ns();
		break;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		ns = clock_ns();
		break;
	default:
		return -EINVAL;
	}
	ts.tv_sec = (int32_t)(ns / NSEC_PER_SEC);       /* __udivdi3 from kernel/lib/div64.c */
	ts.tv_nsec = (int32_t)(ns % NSEC_PER_SEC);
	return copy_to_user(uts, &ts, sizeof(ts));
}
