/*
 * The console terminal: one tty (drivers/tty/tty.c) on COM1 and the VGA text
 * screen, reached as /dev/console and /dev/ttyS0, and as /dev/tty by the
 * processes of the session it controls. Serial input arrives by interrupt
 * and goes to the tty's flip buffer; output goes to both screens.
 */
#include "drivers/tty/console.h"

#include "drivers/tty/serial.h"
#include "drivers/tty/tty.h"
#include "fs/devfs/chrdev.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"

static struct tty console_tty;

static void console_input(char c)
{
	tty_receive_irq(&console_tty, c);
}

/* The console's output: the screen and COM1's transmit ring (drivers/tty/serial_tx.c). */
static const struct tty_device console_device = {
	.write = console_write_raw,
	.write_room = serial_tx_room,
	.write_wait = serial_tx_wait_queue,
	.wakeup_room = SERIAL_TX_WAKEUP,
};

/* /dev/console never becomes a controlling terminal by being opened, as in Linux. */
static int console_open(struct inode *inode, struct file *f)
{
	return tty_open(&console_tty, f, false);
}

static int ttyS0_open(struct inode *inode, struct file *f)
{
	return tty_open(&console_tty, f, true);
}

/* /dev/tty: the caller's controlling terminal, whichever it is. */
static int current_tty_open(struct inode *inode, struct file *f)
{
	struct tty *tty = tty_of_current();

	return tty ? tty_open(tty, f, false) : -ENXIO;
}

#define TTY_FOPS(name_, open_) {                                        \
	.name = (name_), .flags = FOP_STREAM, .open = (open_),          \
	.read = tty_read, .write = tty_write, .ioctl = tty_ioctl,      \
	.nread = tty_nread, .poll = tty_poll }

static const struct file_operations console_fops = TTY_FOPS("console", console_open);
static const struct file_operations ttyS0_fops = TTY_FOPS("ttyS", ttyS0_open);
static const struct file_operations current_tty_fops = TTY_FOPS("tty", current_tty_open);

static void register_node(unsigned major, unsigned minor, const char *name,
			  const struct file_operations *fops)
{
	int r = chrdev_register_mode(major, minor, name, 0620, fops);

	if (r < 0)
		printk("console: cannot register /dev/%s: error %d\n", name, r);
}

void console_driver_init(void)
{
	tty_init(&console_tty, "console", &console_device);
	serial_set_input_handler(console_input);
	register_node(TTYAUX_MAJOR, CONSOLE_MINOR, "console", &console_fops);
	register_node(TTYAUX_MAJOR, TTY_MINOR, "tty", &current_tty_fops);
	register_node(TTYS_MAJOR, TTYS0_MINOR, "ttyS0", &ttyS0_fops);
}
