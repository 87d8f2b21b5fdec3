/*
 * The kernel log: everything printk prints since boot, kept in a ring in
 * memory so that dmesg can read it after it scrolled off the console.
 */
#ifndef KERNEL_LOGBUF_H
#define KERNEL_LOGBUF_H

#include "kernel/types.h"

#define LOG_BUF_LEN (64 * 1024)         /* a power of two: positions wrap with a mask */

/* Append one character of printk output; called with printk's console lock held. */
void logbuf_putc(char c);
/*
 * Copy out up to len bytes, oldest first: the last bytes logged after the
 * last clear (from = LOGBUF_ALL) or the unread ones (LOGBUF_UNREAD, which
 * consumes them). Returns the number of bytes copied.
 */
enum logbuf_from { LOGBUF_ALL, LOGBUF_UNREAD };
size_t logbuf_copy(char *dst, size_t len, enum logbuf_from from);
/* Bytes a LOGBUF_UNREAD copy would return now / a LOGBUF_ALL copy could return. */
size_t logbuf_unread(void);
size_t logbuf_stored(void);
/* Forget what is stored, for LOGBUF_ALL copies (SYSLOG_ACTION_CLEAR). */
void logbuf_clear(void);

/* For panic: take the ring's lock back from a CPU that was stopped holding it. */
void logbuf_force_unlock(void);

#endif
