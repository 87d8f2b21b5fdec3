/* printk: formats a message and writes it, whole, to every console. */
#include "kernel/printk.h"

#include "drivers/serial.h"
#include "drivers/vga.h"
#include "kernel/lib/format.h"
#include "kernel/logbuf.h"
#include "kernel/spinlock.h"

/* Protects the consoles so lines from different CPUs do not interleave. */
static spinlock_t console_lock = SPINLOCK_INIT("console");

void console_init(void)
{
	serial_init();
	vga_init();
}

void console_putc(char c)
{
	serial_putc(c);
	vga_putc(c);
}

/* Every printk character goes to the consoles and into the log ring (for dmesg). */
static void console_sink(void *ctx, char c)
{
	(void)ctx;
	console_putc(c);
	logbuf_putc(c);
}

void console_write_raw(const char *s, size_t n)
{
	uint32_t flags;

	spin_lock_irqsave(&console_lock, flags);
	for (size_t i = 0; i < n; i++) {
		serial_putc_raw(s[i]);
		vga_putc(s[i]);
	}
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_force_unlock(void)
{
	spin_lock_init(&console_lock, "console");
}

int vprintk(const char *fmt, va_list ap)
{
	uint32_t flags;
	int n;

	spin_lock_irqsave(&console_lock, flags);
	n = vformat(console_sink, 0, fmt, ap);
	spin_unlock_irqrestore(&console_lock, flags);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
