/*
 * The eras: one boot word over the BKL's knobs, so that a single kernel can
 * be booted as each step of the BKL's history and the same workload measured
 * in each (docs/bkl.md, "The eras"; make bench ERAS=1).
 *
 *   era=2.0     every system call under the BKL (today's bkl=syscalls), and
 *               so every ioctl too (ioctl=serialized);
 *   era=2.2     the block layer on its own io_request_lock (blk_lock=global),
 *               but read(), write(), lseek() and their vector and positional
 *               kin still under the BKL, as 2.2's fs/read_write.c took it
 *               (SYS_BKL_2_2 in kernel/syscall/table.c), and every ioctl;
 *   era=2.4     io_request_lock, with read() and write() out of the BKL
 *               (2.3 took them out); every ioctl still under it;
 *   era=2.6.6   the 2004 kernel: the BKL only at its sites, but every ioctl
 *               under it (ioctl=serialized);
 *   era=2.6.8   the same, with the BKL a sleeping semaphore, as Linux's
 *               CONFIG_PREEMPT_BKL made it from 2.6.8 to 2.6.25: a holder may
 *               be preempted, a waiter sleeps (kernel/locking/bkl_sem.c);
 *   era=2.6.11  ioctl by the driver's flag (unlocked_ioctl, ioctl=auto), the
 *               BKL a spinlock again: smpix's default, with or without the word;
 *   era=2.6.39  no BKL at all. A boot word cannot take calls out of a binary:
 *               this era is a kernel of its own, built by make ERA=2.6.39 (into
 *               build/era-2.6.39/), where each lock_kernel() site has become a
 *               lock of its own (CONFIG_BKL, kernel/locking/bkl.h).
 *
 * The era only picks the knobs' values at boot: a bkl= or ioctl= word on the
 * same command line still wins, and /proc/sys/kernel/ioctl_mode can still be
 * written. The era itself cannot change while the kernel runs (whether the BKL
 * spins or sleeps is fixed before anyone takes it), so /proc/sys/kernel/era
 * is read-only. /proc/bkl says which era runs.
 */
#include "kernel/era.h"

#include "kernel/cmdline.h"
#include "kernel/lib/string.h"
#include "kernel/locking/bkl.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"

static const struct {
	const char *name;
	const char *summary;
} eras[NR_ERAS] = {
	[ERA_2_0] = { "2.0", "every system call under the BKL (bkl=syscalls), and so every ioctl" },
	[ERA_2_2] = { "2.2", "read, write, lseek and kin under the BKL; block queues under io_request_lock; "
			     "every ioctl under the BKL" },
	[ERA_2_4] = { "2.4", "block queues under io_request_lock; read and write without the BKL; "
			     "every ioctl under it" },
	[ERA_2_6_6] = { "2.6.6", "the BKL a spinlock at its sites; every ioctl under it (ioctl=serialized)" },
	[ERA_2_6_8] = { "2.6.8", "the BKL a sleeping semaphore (CONFIG_PREEMPT_BKL): its holder may be "
				 "preempted, its waiters sleep; every ioctl under it" },
	[ERA_2_6_11] = { "2.6.11", "the BKL a spinlock; ioctl by the driver's flag (unlocked_ioctl, ioctl=auto)" },
	[ERA_2_6_39] = { "2.6.39", "no BKL: each site that took it has a lock of its own (make ERA=2.6.39)" },
};

#ifdef CONFIG_BKL
#define ERA_BUILT ERA_2_6_11            /* what a kernel with the BKL boots as without the word */
#else
#define ERA_BUILT ERA_2_6_39            /* and the only era a kernel without it can be */
#endif

/* Written once by era_init(), before any other CPU or task runs; read-only after. */
enum era era_booted __read_mostly = ERA_BUILT;

const char *era_name(enum era e)
{
	return (unsigned)e < NR_ERAS ? eras[e].name : "?";
}

const char *era_summary(enum era e)
{
	return (unsigned)e < NR_ERAS ? eras[e].summary : "?";
}

int era_by_name(const char *name)
{
	for (int e = 0; e < NR_ERAS; e++)
		if (strcmp(name, eras[e].name) == 0)
			return e;
	return -EINVAL;
}

/* Can this build be booted as era e? Only the build without the BKL is 2.6.39, and it is nothing else. */
static bool built_for(enum era e)
{
	return (e == ERA_2_6_39) == (ERA_BUILT == ERA_2_6_39);
}

void era_init(void)
{
	const char *word = cmdline_get("era");
	int e;

	if (!word)
		return;
	e = era_by_name(word);
	if (e < 0) {
		printk("era: unknown era=%s (want 2.0, 2.2, 2.4, 2.6.6, 2.6.8, 2.6.11 or 2.6.39); staying at %s\n",
		       word, era_name(era_booted));
		return;
	}
	if (!built_for((enum era)e)) {
		if (e == ERA_2_6_39)
			printk("era: era=2.6.39 needs the kernel built without the BKL: make ERA=2.6.39, "
			       "then boot build/era-2.6.39/kernel.elf. This kernel has the BKL: staying at %s\n",
			       era_name(era_booted));
		else
			printk("era: era=%s needs a kernel with the BKL (plain make): this one was built without "
			       "it (make ERA=2.6.39), staying at %s\n", word, era_name(era_booted));
		return;
	}
	era_booted = (enum era)e;
	printk("era: %s: %s\n", era_name(era_booted), era_summary(era_booted));
}
