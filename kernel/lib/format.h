/* The printf format engine shared by printk and snprintf (and unit-tested on the host). */
#ifndef KERNEL_LIB_FORMAT_H
#define KERNEL_LIB_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* Where formatted characters go: one call per character. */
typedef void (*format_sink_t)(void *ctx, char c);

/*
 * Supported: %d %i %u %x %X %p %s %c %%, length modifiers l, ll, z,
 * flags '-', '0', '+', ' ' and '#', a field width (number or *), and a
 * precision for %s; in user programs %f %F %e %E %g %G %a %A too, with a
 * precision (user/lib/fmt_float.c).
 * Returns the number of characters produced.
 */
int vformat(format_sink_t sink, void *ctx, const char *fmt, va_list ap);

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
