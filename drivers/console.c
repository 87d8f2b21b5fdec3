/*
 * /dev/console: the simplest terminal. write() prints through printk (so a
 * line stays whole among other CPUs' output); read() sleeps until a whole line
 * has been typed (or as many bytes as it asked for) and returns it. Typed
 * characters are echoed, and Enter (CR) reads as '\n', as a terminal in its
 * default mode would do. The drivers issue replaces this with a tty line
 * discipline (erase, kill, ^C, raw mode).
 */
#include "drivers/console.h"

#include "drivers/serial.h"
#include "fs/chrdev.h"
#include "fs/file.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/waitqueue.h"

#define INPUT_SIZE 512          /* a power of two */
#define CHUNK 256

/* Protects the input ring; the serial interrupt fills it, readers on any CPU drain it. */
static spinlock_t input_lock = SPINLOCK_INIT("console input");
static char input[INPUT_SIZE];
static uint32_t in_head, in_tail;       /* free-running: head - tail bytes wait */
/* Readers sleep here until a byte arrives. */
static struct wait_queue readers;

/* In interrupt context, from the serial driver. */
static void console_input(char c)
{
	if (c == '\r')
		c = '\n';
	spin_lock(&input_lock);
	if (in_head - in_tail < INPUT_SIZE)
		input[in_head++ % INPUT_SIZE] = c;
	spin_unlock(&input_lock);
	printk("%c", c);                /* echo */
	wake_up(&readers);
}

/* Is there a whole line waiting, or n bytes, or a full ring? Then a read need not wait. */
static bool input_ready(size_t n)
{
	uint32_t flags, avail;
	bool ready;

	spin_lock_irqsave(&input_lock, flags);
	avail = in_head - in_tail;
	ready = avail >= n || avail == INPUT_SIZE;
	for (uint32_t i = in_tail; !ready && i != in_head; i++)
		ready = input[i % INPUT_SIZE] == '\n';
	spin_unlock_irqrestore(&input_lock, flags);
	return ready;
}

/* Take up to n bytes, stopping after a newline. */
static size_t take_input(char *buf, size_t n)
{
	uint32_t flags;
	size_t got = 0;

	spin_lock_irqsave(&input_lock, flags);
	while (got < n && in_head != in_tail) {
		char c = input[in_tail++ % INPUT_SIZE];

		buf[got++] = c;
		if (c == '\n')
			break;
	}
	spin_unlock_irqrestore(&input_lock, flags);
	return got;
}

static ssize_t console_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	char buf[CHUNK];
	size_t got;
	int r;

	n = MIN(n, sizeof(buf));
	for (;;) {
		/* Like a terminal in canonical mode: no whole line yet is -EAGAIN when non-blocking. */
		if (!input_ready(n) && (f->f_flags & O_NONBLOCK))
			return -EAGAIN;
		r = wait_event_killable(readers, input_ready(n));
		if (r < 0)
			return r;
		got = take_input(buf, n);
		if (got)
			break;          /* another reader may have taken the bytes first: sleep again */
	}
	if (copy_to_user(ubuf, buf, got) < 0)
		return -EFAULT;
	return (ssize_t)got;
}

static ssize_t console_write(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	char buf[CHUNK + 1];
	size_t done = 0;

	while (done < count) {
		size_t n = MIN(count - done, (size_t)CHUNK), k = 0;

		if (copy_from_user(buf, ubuf + done, n) < 0)
			return done ? (ssize_t)done : -EFAULT;
		/* One printk per chunk keeps a line whole even when other CPUs print. NULs are dropped. */
		for (size_t i = 0; i < n; i++)
			if (buf[i])
				buf[k++] = buf[i];
		buf[k] = '\0';
		printk("%s", buf);
		done += n;
	}
	return (ssize_t)done;
}

static int console_nread(struct file *f)
{
	return (int)(READ_ONCE(in_head) - READ_ONCE(in_tail));
}

static const struct file_operations console_fops = {
	.name = "console",
	.flags = FOP_STREAM,
	.read = console_read,
	.write = console_write,
	.nread = console_nread,
};

void console_driver_init(void)
{
	int r;

	wait_queue_init(&readers, "console readers");
	serial_set_input_handler(console_input);
	r = chrdev_register(CONSOLE_MAJOR, CONSOLE_MINOR, "console", &console_fops);
	if (r < 0)
		printk("console: cannot register /dev/console: error %d\n", r);
}
