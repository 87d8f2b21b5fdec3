/* The printf format engine: turns a format string and arguments into characters for a sink. */
#include "kernel/lib/format.h"

#include <stdint.h>

/*
 * Floating point only where doubles can be passed: the kernel is built with
 * -mgeneral-regs-only (which defines _SOFT_FLOAT) and has none; user programs
 * get %f %e %g %a from the user libc's exact conversion.
 */
#ifndef _SOFT_FLOAT
#include "user/lib/fmt_float.h"
#endif

struct spec {
	int left;        /* '-' flag: pad on the right */
	int zero;        /* '0' flag: pad numbers with zeros */
	int plus, space; /* '+' and ' ' flags: the sign of a positive number */
	int alt;         /* '#' flag: 0x before %x, and %f's point always */
	int width;
	int precision;   /* -1 when absent */
	int longness;    /* 0: int, 1: long, 2: long long */
};

struct out {
	format_sink_t sink;
	void *ctx;
	int count;
};

static void emit(struct out *o, char c)
{
	o->sink(o->ctx, c);
	o->count++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		emit(o, c);
}

/* Digits of v in the given base, least significant first; returns how many. */
static int to_digits(char *buf, unsigned long long v, unsigned base, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int n = 0;

	do {
		buf[n++] = digits[v % base];
		v /= base;
	} while (v);
	return n;
}

/* sign: '-', '+', ' ' or 0 for none. */
static void emit_number(struct out *o, const struct spec *s, unsigned long long v,
			char sign, unsigned base, int upper, const char *prefix)
{
	char digits[24];
	int ndigits = to_digits(digits, v, base, upper);
	int nprefix = 0;
	int len;

	while (prefix && prefix[nprefix])
		nprefix++;
	len = ndigits + nprefix + (sign ? 1 : 0);

	if (!s->left && !s->zero)
		pad(o, ' ', s->width - len);
	if (sign)
		emit(o, sign);
	for (int i = 0; i < nprefix; i++)
		emit(o, prefix[i]);
	if (!s->left && s->zero)
		pad(o, '0', s->width - len);
	while (ndigits--)
		emit(o, digits[ndigits]);
	if (s->left)
		pad(o, ' ', s->width - len);
}

static void emit_string(struct out *o, const struct spec *s, const char *str)
{
	int len = 0;

	if (!str)
		str = "(null)";
	while (str[len] && (s->precision < 0 || len < s->precision))
		len++;
	if (!s->left)
		pad(o, ' ', s->width - len);
	for (int i = 0; i < len; i++)
		emit(o, str[i]);
	if (s->left)
		pad(o, ' ', s->width - len);
}

/* Parse flags, width, precision and length; returns the conversion character's position. */
static const char *parse_spec(const char *f, struct spec *s, va_list *ap)
{
	s->left = s->zero = s->plus = s->space = s->alt = s->width = s->longness = 0;
	s->precision = -1;
	for (;; f++) {
		if (*f == '-')
			s->left = 1;
		else if (*f == '0')
			s->zero = 1;
		else if (*f == '+')
			s->plus = 1;
		else if (*f == ' ')
			s->space = 1;
		else if (*f == '#')
			s->alt = 1;
		else
			break;
	}
	if (*f == '*') {
		s->width = va_arg(*ap, int);
		if (s->width < 0) {
			s->left = 1;
			s->width = -s->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		s->width = s->width * 10 + (*f++ - '0');
	if (*f == '.') {
		s->precision = 0;
		if (*++f == '*') {
			s->precision = va_arg(*ap, int);
			if (s->precision < 0)
				s->precision = -1;      /* as if none was given */
			f++;
		}
		for (; *f >= '0' && *f <= '9'; f++)
			s->precision = s->precision * 10 + (*f - '0');
	}
	for (; *f == 'l' || *f == 'z'; f++)
		s->longness += (*f == 'l') ? 1 : 0;
	return f;
}

static unsigned long long fetch_unsigned(const struct spec *s, va_list *ap)
{
	if (s->longness >= 2)
		return va_arg(*ap, unsigned long long);
	if (s->longness == 1)
		return va_arg(*ap, unsigned long);
	return va_arg(*ap, unsigned int);
}

static long long fetch_signed(const struct spec *s, va_list *ap)
{
	if (s->longness >= 2)
		return va_arg(*ap, long long);
	if (s->longness == 1)
		return va_arg(*ap, long);
	return va_arg(*ap, int);
}

#ifndef _SOFT_FLOAT
static void emit_float(struct out *o, const struct spec *s, char conv, double v)
{
	struct float_spec f = {
		.conv = conv, .precision = s->precision, .width = s->width, .left = s->left,
		.zero = s->zero, .plus = s->plus, .space = s->space, .alt = s->alt,
	};

	o->count += fmt_float(o->sink, o->ctx, &f, v);
}
#endif

static void convert(struct out *o, struct spec *s, char conv, va_list *ap)
{
	long long sv;
	unsigned long long uv;

	switch (conv) {
	case 'd':
	case 'i':
		sv = fetch_signed(s, ap);
		if (sv < 0)
			emit_number(o, s, -(unsigned long long)sv, '-', 10, 0, 0);
		else
			emit_number(o, s, (unsigned long long)sv, s->plus ? '+' : s->space ? ' ' : 0, 10, 0, 0);
		break;
	case 'u':
		emit_number(o, s, fetch_unsigned(s, ap), 0, 10, 0, 0);
		break;
	case 'x':
	case 'X':
		uv = fetch_unsigned(s, ap);
		emit_number(o, s, uv, 0, 16, conv == 'X', s->alt && uv ? (conv == 'X' ? "0X" : "0x") : 0);
		break;
	case 'p':
		s->zero = 1;
		s->width = 2 + 2 * (int)sizeof(void *);
		emit_number(o, s, (uintptr_t)va_arg(*ap, void *), 0, 16, 0, "0x");
		break;
	case 's':
		emit_string(o, s, va_arg(*ap, const char *));
		break;
	case 'c':
		s->precision = -1;
		pad(o, ' ', s->left ? 0 : s->width - 1);
		emit(o, (char)va_arg(*ap, int));
		pad(o, ' ', s->left ? s->width - 1 : 0);
		break;
	case '%':
		emit(o, '%');
		break;
#ifndef _SOFT_FLOAT
	case 'f':
	case 'F':
	case 'e':
	case 'E':
	case 'g':
	case 'G':
	case 'a':
	case 'A':
		emit_float(o, s, conv, va_arg(*ap, double));
		break;
#endif
	default:
		/* Unknown conversion: show it literally so the mistake is visible. */
		emit(o, '%');
		if (conv)
			emit(o, conv);
		break;
	}
}

int vformat(format_sink_t sink, void *ctx, const char *fmt, va_list ap)
{
	struct out o = { sink, ctx, 0 };
	struct spec s;
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		if (*fmt != '%') {
			emit(&o, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &s, &args);
		convert(&o, &s, *fmt, &args);
		if (*fmt)
			fmt++;
	}
	va_end(args);
	return o.count;
}

struct buffer {
	char *buf;
	size_t size;
	size_t used;
};

static void buffer_sink(void *ctx, char c)
{
	struct buffer *b = ctx;

	if (b->used + 1 < b->size)
		b->buf[b->used] = c;
	b->used++;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buffer b = { buf, size, 0 };
	int n = vformat(buffer_sink, &b, fmt, ap);

	if (size)
		buf[b.used < size ? b.used : size - 1] = '\0';
	return n;
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
