/* printk: formats a message and writes it, whole, to every console. */
#include "kernel/printk.h"

#include "drivers/tty/serial.h"
#include "drivers/video/vga.h"
#include "kernel/lib/format.h"
#include "kernel/logbuf.h"
#include "kernel/locking/spinlock.h"

/*
 * Protects the consoles (the VGA screen's cursor and contents, the order of
 * bytes given to the UART) so lines from different CPUs do not interleave.
 */
static spinlock_t console_lock = SPINLOCK_INIT("console");

#define CONSOLE_FLUSH_TICKS 5    /* the screen follows the console 20 times a second */

/* ESC [ ? 7 h: the terminal wraps long lines again (SeaBIOS turns wrapping off). */
static const char wrap_on[] = "\033[?7h";

void console_init(void)
{
	serial_init();
	for (const char *p = wrap_on; *p; p++)
		serial_putc_raw(*p);
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

/* The console tty's output: to the screen, and into the UART's transmit ring. */
void console_write_raw(const char *s, size_t n)
{
	uint32_t flags;

	spin_lock_irqsave(&console_lock, flags);
	for (size_t i = 0; i < n; i++)
		vga_putc(s[i]);
	serial_tx_write(s, n);
	spin_unlock_irqrestore(&console_lock, flags);
}

/*
 * From the timer, on CPU 0: show the console's output on the screen a few
 * times a second (drivers/video/vga.c says why not at once), and restart the
 * serial transmitter if its interrupt went missing.
 */
void console_tick(uint64_t tick)
{
	uint32_t flags;

	serial_tx_watchdog();
	if (tick % CONSOLE_FLUSH_TICKS || !vga_dirty())
		return;
	spin_lock_irqsave(&console_lock, flags);
	vga_flush();
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_force_unlock(void)
{
	spin_lock_init(&console_lock, "console");
	serial_tx_force_unlock();
	logbuf_force_unlock();          /* printk takes it inside the console lock, per character */
}

/*
 * A kernel message goes out synchronously, by polling the UART: it must
 * work with interrupts off, in a panic, before the interrupt exists. What
 * the console tty queued before it goes out first (serial_sync_begin).
 */
int vprintk(const char *fmt, va_list ap)
{
	uint32_t flags, sync_flags;
	int n;

	spin_lock_irqsave(&console_lock, flags);
	serial_sync_begin(&sync_flags);
	n = vformat(console_sink, 0, fmt, ap);
	vga_flush();
	serial_sync_end(sync_flags);
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
