/* A growing text buffer that /proc files are printed into, then read from (like Linux's seq_file). */
#include "fs/proc/procbuf.h"

#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/uapi/errno.h"

static void procbuf_putc(void *ctx, char c)
{
	struct procbuf *pb = ctx;

	if (pb->len < pb->size)
		pb->buf[pb->len++] = c;
	else
		pb->overflow = true;
}

void procbuf_printf(struct procbuf *pb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(procbuf_putc, pb, fmt, ap);
	va_end(ap);
}

void procbuf_write(struct procbuf *pb, const void *data, size_t n)
{
	size_t fit = MIN(n, pb->size - pb->len);

	memcpy(pb->buf + pb->len, data, fit);
	pb->len += fit;
	if (fit < n)
		pb->overflow = true;
}

int procbuf_fill(struct procbuf *pb, void (*show)(struct procbuf *pb, void *arg), void *arg, size_t hint)
{
	size_t max = MAX((size_t)PROCBUF_MAX, 2 * hint);

	/*
	 * Start small: most files fit in 1 KiB, and the larger ones (cpuinfo,
	 * bkl, syscalls) take the retry path on every read, so it is always tested.
	 */
	for (size_t size = MAX(hint, (size_t)1024); size <= max; size *= 2) {
		pb->buf = kmalloc(size);
		if (!pb->buf)
			return -ENOMEM;
		pb->size = size;
		pb->len = 0;
		pb->overflow = false;
		show(pb, arg);
		if (!pb->overflow)
			return 0;
		kfree(pb->buf);
	}
	/* Too large even then: keep what fits, cut, as a last resort. */
	pb->buf = kmalloc(max);
	if (!pb->buf)
		return -ENOMEM;
	pb->size = max;
	pb->len = 0;
	pb->overflow = false;
	show(pb, arg);
	return 0;
}
