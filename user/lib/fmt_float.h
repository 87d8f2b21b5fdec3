/*
 * printf's floating-point conversions (%f %F %e %E %g %G %a %A), exact: the
 * double's binary value is turned into all its decimal digits with big
 * integers, then rounded half to even, as glibc prints. Used by the libc's
 * printf engine (kernel/lib/format.c, in user builds) and the shell's printf.
 */
#ifndef USER_LIB_FMT_FLOAT_H
#define USER_LIB_FMT_FLOAT_H

#include "kernel/lib/format.h"          /* format_sink_t */

struct float_spec {
	char conv;                      /* f F e E g G a A */
	int precision;                  /* -1: the default (6; for %a as many digits as needed) */
	int width;
	int left, zero, plus, space, alt;       /* the flags - 0 + space # */
};

/* v as spec says, one character at a time into sink; returns how many characters. */
int fmt_float(format_sink_t sink, void *ctx, const struct float_spec *spec, double v);

#endif
