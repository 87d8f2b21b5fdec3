/* What the two bench devices share: checking an update's arguments, and the busy work itself. */
#include "drivers/bench.h"

#include "kernel/mm/uaccess.h"
#include "kernel/uapi/bench.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

long bench_get_work(struct bench_work *w, unsigned long uarg)
{
	if (copy_from_user(w, (const void *)uarg, sizeof(*w)) < 0)
		return -EFAULT;
	if (w->spins > BENCH_MAX_SPINS || w->sleep_us > BENCH_MAX_SLEEP_US)
		return -EINVAL;
	return 0;
}

void bench_spin(uint32_t n)
{
	for (volatile uint32_t i = 0; i < n; i++)
		cpu_relax();
}
