/* reboot(): power off or reset, with Linux's magic numbers; one of the last BKL users in 2.6. */
#include "kernel/locking/bkl.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/power.h"

#define LINUX_REBOOT_MAGIC1         0xfee1dead
#define LINUX_REBOOT_MAGIC2         672274793
#define LINUX_REBOOT_CMD_RESTART    0x01234567
#define LINUX_REBOOT_CMD_POWER_OFF  0x4321FEDC

/*
 * make ERA=2.6.39: the BKL that the dispatcher took around reboot() (its
 * SYS_BKL flag, kernel/syscall/table.c) is now reboot's own mutex, as Linux
 * 2.6.39's reboot_mutex: two reboot() calls at once still cannot interleave,
 * and nothing else in the kernel waits for them. It is taken here, not by
 * lock_kernel_or(): with the BKL, the dispatcher already holds it.
 */
DEFINE_OWN_MUTEX(reboot_mutex);

static long do_reboot(unsigned cmd)
{
	if (cmd == LINUX_REBOOT_CMD_POWER_OFF) {
		printk("reboot: power down\n");
		power_off();
	}
	if (cmd == LINUX_REBOOT_CMD_RESTART) {
		printk("reboot: restarting system\n");
		power_reset();
	}
	return -EINVAL;
}

long sys_reboot(int magic1, int magic2, unsigned cmd, void *arg)
{
	long r;

	if ((unsigned)magic1 != LINUX_REBOOT_MAGIC1 || magic2 != LINUX_REBOOT_MAGIC2)
		return -EINVAL;
#ifndef CONFIG_BKL
	mutex_lock(&reboot_mutex);
#endif
	r = do_reboot(cmd);
#ifndef CONFIG_BKL
	mutex_unlock(&reboot_mutex);
#endif
	return r;
}
