/* bkld lives in the BKL and lets it go only while it sleeps: others still get it, and its site says so. */
#include "kernel/locking/bkl.h"
#include "kernel/locking/bkld.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"

#ifdef CONFIG_BKL        /* no bkld in make ERA=2.6.39 */

static struct bkl_site *bkld_site(void)
{
	for (struct bkl_site *s = bkl_sites_begin(); s < bkl_sites_end(); s++)
		if (strcmp(s->function, "bkld") == 0)
			return s;
	return NULL;
}

/* Explicit (run by name, in a boot of its own): bkld never lets go of the BKL for good. */
KTEST_CRASH(bkld_holds_the_bkl_for_life)
{
	struct bkl_site *site = bkld_site();
	uint64_t before;

	KT_ASSERT(site != NULL);
	KT_ASSERT(bkld_start());
	sched_sleep_ns(100000000ULL);
	before = bkld_rounds();
	/* While bkld sleeps, anybody may take the BKL: ten times, each in good time. */
	for (int i = 0; i < 10; i++) {
		lock_kernel();
		KT_ASSERT(kernel_locked());
		unlock_kernel();
		sched_sleep_ns(20000000ULL);
	}
	KT_ASSERT(bkld_rounds() >= before + 5);                 /* and bkld kept waking */
	KT_ASSERT_EQ(site->acquisitions, 1);                    /* it took the lock once... */
	KT_ASSERT(site->reacquisitions >= 5);                   /* ...and took it back at every wake-up */
	KT_ASSERT(!kernel_locked());
}

#endif /* CONFIG_BKL */
