/* What the two bench devices share: their ioctl commands, checking an update's arguments, the busy work. */
#include "drivers/bench/bench.h"

#include "kernel/locking/atomic.h"
#include "kernel/mm/uaccess.h"
#include "kernel/uapi/bench.h"
#include "kernel/uapi/errno.h"

/* Copy a struct bench_work from user space and check it: 0, -EFAULT or -EINVAL. */
static long bench_get_work(struct bench_work *w, unsigned long uarg)
{
	if (copy_from_user(w, (const void *)uarg, sizeof(*w)) < 0)
		return -EFAULT;
	if (w->spins > BENCH_MAX_SPINS || w->sleep_us > BENCH_MAX_SLEEP_US)
		return -EINVAL;
	return 0;
}

long bench_ioctl(const struct bench_counter *c, unsigned cmd, unsigned long arg)
{
	struct bench_work w;
	struct bench_stats st;
	long r;

	switch (cmd) {
	case BENCH_UPDATE:
		if ((r = bench_get_work(&w, arg)) < 0)
			return r;
		return c->update(&w);
	case BENCH_READ:
		c->read(&st);
		return copy_to_user((void *)arg, &st, sizeof(st)) < 0 ? -EFAULT : 0;
	case BENCH_RESET:
		c->reset();
		return 0;
	case BENCH_LOCK_COST:
		return c->lock_cost ? bench_lock_cost(arg) : -ENOTTY;
	default:
		return -ENOTTY;
	}
}

/*
 * A plain counting loop: work inside a driver, not a spin-wait, so no
 * cpu_relax() (pause) in it; a spinlock's wait loop keeps pause. A pause here
 * would also make the unlocked device look as if it hardly scaled under the
 * emulator (kernel/x86/emulator.h).
 */
void bench_spin(uint32_t n)
{
	for (volatile uint32_t i = 0; i < n; i++)
		barrier();
}
