/* What the two bench devices share: checking an update's arguments, and the busy work itself. */
#include "drivers/bench.h"

#include "kernel/locking/atomic.h"
#include "kernel/mm/uaccess.h"
#include "kernel/uapi/bench.h"
#include "kernel/uapi/errno.h"

long bench_get_work(struct bench_work *w, unsigned long uarg)
{
	if (copy_from_user(w, (const void *)uarg, sizeof(*w)) < 0)
		return -EFAULT;
	if (w->spins > BENCH_MAX_SPINS || w->sleep_us > BENCH_MAX_SLEEP_US)
		return -EINVAL;
	return 0;
}

/*
 * A plain counting loop, and deliberately no cpu_relax() (pause) in it: under
 * QEMU's TCG every pause leaves the translated code for the emulator's main
 * loop, and two vCPUs doing that at once slow each other down, which made the
 * unlocked device look as if it did not scale (1.1x at 2 CPUs, 1.8x without).
 * Work inside a driver is not a spin-wait; a spinlock's wait loop keeps pause.
 */
void bench_spin(uint32_t n)
{
	for (volatile uint32_t i = 0; i < n; i++)
		barrier();
}
