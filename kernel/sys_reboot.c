/* reboot(): power off or reset, with Linux's magic numbers; one of the last BKL users in 2.6. */
#include "kernel/printk.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/power.h"

#define LINUX_REBOOT_MAGIC1         0xfee1dead
#define LINUX_REBOOT_MAGIC2         672274793
#define LINUX_REBOOT_CMD_RESTART    0x01234567
#define LINUX_REBOOT_CMD_POWER_OFF  0x4321FEDC

long sys_reboot(int magic1, int magic2, unsigned cmd, void *arg)
{
	if ((unsigned)magic1 != LINUX_REBOOT_MAGIC1 || magic2 != LINUX_REBOOT_MAGIC2)
		return -EINVAL;
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
