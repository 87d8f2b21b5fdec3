/*
 * The kernel log ring. Each line is stored as Linux's syslog(2) shows it,
 * "<6>[    1.234567] text": a level (smpix has one, 6 = info) and the time
 * since boot, so that dmesg programs written for Linux read it unchanged.
 * The consoles get the bare text; only the ring gets the prefix.
 *
 * Positions are free-running byte counts: head is the total ever written;
 * the ring holds bytes [head - LOG_BUF_LEN, head). A reader position that
 * fell behind that window has lost the bytes in between, as in Linux.
 */
#include "kernel/logbuf.h"

#include "kernel/lib/format.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/timer.h"

/* Protects the ring and its positions. Taken inside printk's console lock, and by syslog(2) readers. */
static spinlock_t log_lock = SPINLOCK_INIT("log ring");
static char ring[LOG_BUF_LEN];
static uint64_t head;                   /* bytes ever logged */
static uint64_t read_pos;               /* where SYSLOG_ACTION_READ goes on */
static uint64_t clear_pos;              /* where READ_ALL starts, after a CLEAR */
static bool at_line_start = true;

static void ring_put(char c)
{
	ring[head & (LOG_BUF_LEN - 1)] = c;
	head++;
}

static void ring_sink(void *ctx, char c)
{
	(void)ctx;
	ring_put(c);
}

static void ring_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(ring_sink, 0, fmt, ap);
	va_end(ap);
}

static void put_prefix(void)
{
	uint64_t us = clock_ns() / 1000;

	ring_printf("<6>[%5llu.%06u] ", (unsigned long long)(us / 1000000), (unsigned)(us % 1000000));
}

void logbuf_putc(char c)
{
	uint32_t flags;

	spin_lock_irqsave(&log_lock, flags);
	if (at_line_start)
		put_prefix();
	ring_put(c);
	at_line_start = c == '\n';
	spin_unlock_irqrestore(&log_lock, flags);
}

/* The oldest position still in the ring that is at or after pos. */
static uint64_t clamp_to_ring(uint64_t pos)
{
	uint64_t oldest = head > LOG_BUF_LEN ? head - LOG_BUF_LEN : 0;

	return pos < oldest ? oldest : pos;
}

size_t logbuf_copy(char *dst, size_t len, enum logbuf_from from)
{
	uint32_t flags;
	uint64_t start, n;

	spin_lock_irqsave(&log_lock, flags);
	if (from == LOGBUF_UNREAD) {
		start = clamp_to_ring(read_pos);
		n = MIN(head - start, (uint64_t)len);
		read_pos = start + n;
	} else {
		/* The newest len bytes, as Linux's READ_ALL gives them. */
		start = clamp_to_ring(clear_pos);
		if (head - start > len)
			start = head - len;
		n = head - start;
	}
	for (uint64_t i = 0; i < n; i++)
		dst[i] = ring[(start + i) & (LOG_BUF_LEN - 1)];
	spin_unlock_irqrestore(&log_lock, flags);
	return (size_t)n;
}

size_t logbuf_unread(void)
{
	uint32_t flags;
	size_t n;

	spin_lock_irqsave(&log_lock, flags);
	n = (size_t)(head - clamp_to_ring(read_pos));
	spin_unlock_irqrestore(&log_lock, flags);
	return n;
}

size_t logbuf_stored(void)
{
	uint32_t flags;
	size_t n;

	spin_lock_irqsave(&log_lock, flags);
	n = (size_t)(head - clamp_to_ring(clear_pos));
	spin_unlock_irqrestore(&log_lock, flags);
	return n;
}

void logbuf_clear(void)
{
	uint32_t flags;

	spin_lock_irqsave(&log_lock, flags);
	clear_pos = head;
	spin_unlock_irqrestore(&log_lock, flags);
}

void logbuf_force_unlock(void)
{
	spin_lock_init(&log_lock, "log ring");
}
