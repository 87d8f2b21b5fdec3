/*
 * /dev/debugcon: a write-only device whose bytes go out of I/O port 0xE9,
 * the "port E9 hack" of Bochs that QEMU keeps as -debugcon. No UART, no
 * interrupts, no flow control: one OUT per byte, which QEMU hands straight
 * to a file. make trace copies /proc/trace out through it (megabytes, which
 * the serial console, paced by its interrupts, would take minutes over).
 *
 * Without the device (real hardware, QEMU without -debugcon) the port reads
 * 0xFF and the open fails with -ENODEV, so nothing is written into the void.
 */
#include "drivers/char/debugcon.h"

#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

#define DEBUGCON_PORT 0xE9
#define CHUNK 256

/* QEMU's debugcon answers a read of its port with the port number. */
static int debugcon_open(struct inode *inode, struct file *f)
{
	return inb(DEBUGCON_PORT) == DEBUGCON_PORT ? 0 : -ENODEV;
}

static ssize_t debugcon_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	char buf[CHUNK];
	size_t done = 0;

	while (done < n) {
		size_t k = MIN(n - done, sizeof(buf));

		if (copy_from_user(buf, ubuf + done, k) < 0)
			return done ? (ssize_t)done : -EFAULT;
		for (size_t i = 0; i < k; i++)
			outb(DEBUGCON_PORT, (uint8_t)buf[i]);
		done += k;
	}
	return (ssize_t)done;
}

static const struct file_operations debugcon_fops = {
	.name = "debugcon",
	.open = debugcon_open,
	.write = debugcon_write,
};

void debugcon_init(void)
{
	int r = chrdev_register_mode(DEBUGCON_MAJOR, DEBUGCON_MINOR, "debugcon", 0222, &debugcon_fops);

	if (r < 0)
		printk("debugcon: cannot register /dev/debugcon: error %d\n", r);
}
