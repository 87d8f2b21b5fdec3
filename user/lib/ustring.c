/* String helpers and a small printf for user programs (no libc). */
#include "ulib.h"

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;

	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	while (n--)
		*p++ = *q++;
	return d;
}

int atoi(const char *s)
{
	int v = 0, neg = *s == '-';

	if (neg)
		s++;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return neg ? -v : v;
}

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_num(struct out *o, unsigned long v, unsigned base, int width, char pad)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (width-- > n)
		put(o, pad);
	while (n)
		put(o, tmp[--n]);
}

/* %d %u %x %s %c %p, with an optional zero-padded width: enough for test output. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		int width = 0;
		char pad = ' ';

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		if (*++fmt == '0')
			pad = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		if (*fmt == 'l')
			fmt++;
		switch (*fmt) {
		case 'd': {
			long v = va_arg(ap, long);
			if (v < 0) {
				put(&o, '-');
				v = -v;
			}
			put_num(&o, (unsigned long)v, 10, width, pad);
			break;
		}
		case 'u': put_num(&o, va_arg(ap, unsigned long), 10, width, pad); break;
		case 'x': put_num(&o, va_arg(ap, unsigned long), 16, width, pad); break;
		case 'p': put(&o, '0'); put(&o, 'x'); put_num(&o, va_arg(ap, unsigned long), 16, 8, '0'); break;
		case 'c': put(&o, (char)va_arg(ap, int)); break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			for (s = s ? s : "(null)"; *s; s++)
				put(&o, *s);
			break;
		}
		default: put(&o, '%'); put(&o, *fmt); break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
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
