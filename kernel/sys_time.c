/* clock_gettime(): the monotonic clock from the timer code, in Linux's 32-bit timespec. */
#include "kernel/mm/uaccess.h"
#include "kernel/syscalls.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/unistd.h"

#define NSEC_PER_SEC 1000000000ULL
#define CLOCK_BOOTTIME 7

/* Nanoseconds since boot, from the SMP and timer code (kernel/smp_fallback.c until then). */
uint64_t clock_ns(void);

struct timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

/*
 * smpix has no battery clock yet, so only clocks that count from boot exist;
 * CLOCK_REALTIME is -EINVAL rather than a made-up date.
 */
long sys_clock_gettime(int clock, void *uts)
{
	struct timespec32 ts;
	uint64_t ns;

	if (clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME)
		return -EINVAL;
	ns = clock_ns();
	ts.tv_sec = (int32_t)(ns / NSEC_PER_SEC);       /* __udivdi3 from kernel/lib/div64.c */
	ts.tv_nsec = (int32_t)(ns % NSEC_PER_SEC);
	return copy_to_user(uts, &ts, sizeof(ts));
}
