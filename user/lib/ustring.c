/*
 * What user programs need beyond the kernel's own library: the string
 * functions and the printf engine (kernel/lib/string.c, kernel/lib/format.c)
 * are built into the user library too, so there is one of each.
 */
#include "ulib.h"

int atoi(const char *s)
{
	int v = 0, neg = *s == '-';

	if (neg)
		s++;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return neg ? -v : v;
}

/* One write() per call, so a line is never split by another process's output. */
int printf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	write(1, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	return n;
}
