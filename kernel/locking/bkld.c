/*
 * bkld: a kernel thread that spends its whole life holding the BKL.
 *
 * "The Big Kernel Lock lives on" (2004) found that 2.6.6's rpciod thread
 * took the BKL once and never gave it back: it ran its loop under the lock
 * and let it go only while it slept. That was cheap because a sleeping
 * holder lets others in (kernel/locking/bkl.c, rule 2). bkld does the same, in
 * small: one lock_kernel() at birth, then wake, do a little work, sleep.
 * Boot with bkld=1 and /proc/bkl shows its one site, acquired once and
 * re-acquired at every wake-up; every other BKL user now competes with it
 * for the moments it is awake.
 */
#include "kernel/locking/bkld.h"

#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/cmdline.h"
#include "kernel/lib/string.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"

#define NAP_NS 10000000ULL              /* 10 ms asleep, the BKL let go */

#ifdef CONFIG_BKL
static atomic_t started;
static volatile uint32_t rounds;        /* written by bkld only */

static int bkld(void *unused)
{
	lock_kernel();                  /* and never unlock_kernel(): see above */
	for (;;) {
		WRITE_ONCE(rounds, rounds + 1);
		sched_sleep_ns(NAP_NS);
	}
	return 0;
}

bool bkld_start(void)
{
	if (atomic_xchg(&started, 1))
		return true;
	if (!kthread_create(bkld, NULL, "bkld")) {
		printk("bkld: cannot create the thread\n");
		return false;
	}
	printk("bkld: a kernel thread now lives in the BKL, as 2.6.6's rpciod did\n");
	return true;
}

void bkld_start_if_asked(void)
{
	const char *v = cmdline_get("bkld");

	if (v && strcmp(v, "1") == 0)
		bkld_start();
}

uint64_t bkld_rounds(void)
{
	return READ_ONCE(rounds);
}

#else /* !CONFIG_BKL */

/* make ERA=2.6.39: no BKL to live in. Linux's rpciod had left it long before. */
bool bkld_start(void)
{
	return false;
}

void bkld_start_if_asked(void)
{
	if (cmdline_get("bkld"))
		printk("bkld: this kernel has no BKL (make ERA=2.6.39): no bkld\n");
}

uint64_t bkld_rounds(void)
{
	return 0;
}

#endif /* CONFIG_BKL */
