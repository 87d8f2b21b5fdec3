/* A growing text buffer that /proc files are printed into, then read from (like Linux's seq_file). */
#ifndef FS_PROCBUF_H
#define FS_PROCBUF_H

#include "kernel/types.h"

struct procbuf {
	char *buf;
	size_t size;            /* bytes allocated */
	size_t len;             /* bytes printed so far (never more than size) */
	bool overflow;          /* something did not fit: print again into a larger buffer */
};

/* Append formatted text; on overflow the text is cut and pb->overflow set. */
void procbuf_printf(struct procbuf *pb, const char *fmt, ...) __printf(2, 3);
void procbuf_write(struct procbuf *pb, const void *data, size_t n);

/*
 * Fill a new buffer with show(pb, arg), retrying with twice the room while
 * it overflows (up to PROCBUF_MAX). 0 or -ENOMEM; free pb->buf with kfree.
 * hint: the size to start with, 0 for small; a larger hint also raises the
 * limit to twice the hint (/proc/trace is megabytes).
 */
#define PROCBUF_MAX (256 * 1024)
int procbuf_fill(struct procbuf *pb, void (*show)(struct procbuf *pb, void *arg), void *arg, size_t hint);

#endif
