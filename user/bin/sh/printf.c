/*
 * printf FORMAT [ARG...]: the shell's printf builtin, and /bin/printf too
 * (user/bin/printf.c is a main() around this file, so it stands alone).
 *
 * The format's escapes (\n \t \\ \NNN ..., as dash's: not \") and the
 * conversions %d %i %o %u %x %X %c %s %b %% and the floating ones %f %F %e
 * %E %g %G %a %A with flags - + space # 0, a width and a precision (either
 * may be *). The format is used again while arguments are left; a missing
 * argument is "" or 0. A numeric argument may be 'c, the character's code.
 * %b prints its argument with echo's escapes, where \c stops all output.
 * Floating arguments are doubles read by strtod ("1e3", " 2.5", "0x1p3",
 * "inf"), as dash reads them, and printed exactly (user/lib/fmt_float.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "fmt_float.h"

struct out {
	char *buf;
	size_t len, cap;
	int status;             /* 1 once an argument was not a number */
	int stop;               /* \c seen in a %b argument */
};

static void put(struct out *o, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (o->len + n > o->cap) {
		while (o->len + n > o->cap)
			o->cap = o->cap ? o->cap * 2 : 256;
		o->buf = realloc(o->buf, o->cap);
		if (!o->buf) {
			write(2, "printf: out of memory\n", 22);
			_exit(1);
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void put_char(struct out *o, char c) { put(o, &c, 1); }

static void pad(struct out *o, int n, char c)
{
	while (n-- > 0)
		put_char(o, c);
}

/*
 * A backslash escape at s (after the \): into o, and the number of characters
 * it took. In %b (echo's rules) octal is \0NNN and \c stops everything.
 */
static int escape(struct out *o, const char *s, int in_b)
{
	static const char from[] = "\\abfnrtv", to[] = "\\\a\b\f\n\r\t\v";
	const char *e = *s ? strchr(from, *s) : NULL;
	int n = 0, v = 0, start = in_b && *s == '0';

	if (in_b && *s == 'c') {
		o->stop = 1;
		return 1;
	}
	if (*s >= '0' && *s <= '7') {
		for (n = start; n < 3 + start && s[n] >= '0' && s[n] <= '7'; n++)
			v = v * 8 + (s[n] - '0');
		put_char(o, (char)v);
		return n;
	}
	if (e) {
		put_char(o, to[e - from]);
		return 1;
	}
	put_char(o, '\\');
	return 0;
}

/* A numeric argument; a bad one is reported, counts as far as it went, and makes the status 1. */
static long long number(struct out *o, const char *s)
{
	char *end;
	long long v;

	if (!s)
		return 0;
	if (*s == '\'' || *s == '"')
		return (unsigned char)s[1];
	v = strtoll(s, &end, 0);
	if (*end || end == s) {
		fprintf(stderr, "printf: %s: %s\n", s, end == s ? "expected numeric value" :
			"not completely converted");
		o->status = 1;
	}
	return v;
}

/*
 * A floating argument, as dash's: a bad one is reported as number() does, and
 * one out of a double's range too (it is read as inf, 0 or a denormal).
 */
static double floating(struct out *o, const char *s)
{
	char *end;
	double v;

	if (!s)
		return 0;
	if (*s == '\'' || *s == '"')
		return (unsigned char)s[1];
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s) {
		fprintf(stderr, "printf: %s: %s\n", s, end == s ? "expected numeric value" :
			"not completely converted");
		o->status = 1;
	} else if (errno == ERANGE) {
		fprintf(stderr, "printf: %s: %s\n", s, strerror(ERANGE));
		o->status = 1;
	}
	return v;
}

struct spec {
	int minus, plus, space, alt, zero;
	int width, prec;        /* prec -1: none */
	char conv;
};

static void put_padded(struct out *o, const struct spec *sp, const char *s, size_t n)
{
	if (sp->prec >= 0 && (size_t)sp->prec < n)
		n = sp->prec;
	if (!sp->minus)
		pad(o, sp->width - (int)n, ' ');
	put(o, s, n);
	if (sp->minus)
		pad(o, sp->width - (int)n, ' ');
}

/* %d %i %o %u %x %X: sign, prefix, zeros for the precision, digits; padded to the width. */
static void put_int(struct out *o, const struct spec *sp, long long v)
{
	char digits[32], *d = digits + sizeof(digits);
	const char *sign = "", *prefix = "";
	int base = sp->conv == 'o' ? 8 : sp->conv == 'x' || sp->conv == 'X' ? 16 : 10;
	const char *set = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned long long u = v;
	int n, zeros, len, width;

	if (sp->conv == 'd' || sp->conv == 'i') {
		if (v < 0) {
			u = -(unsigned long long)v;
			sign = "-";
		} else {
			sign = sp->plus ? "+" : sp->space ? " " : "";
		}
	}
	if (u || sp->prec != 0)
		do
			*--d = set[u % base];
		while (u /= base);
	n = digits + sizeof(digits) - d;
	zeros = sp->prec > n ? sp->prec - n : 0;
	if (sp->alt && base == 16 && v)
		prefix = sp->conv == 'X' ? "0X" : "0x";
	if (sp->alt && base == 8 && zeros == 0 && (n == 0 || *d != '0'))
		prefix = "0";
	len = strlen(sign) + strlen(prefix) + zeros + n;
	width = sp->width > len ? sp->width - len : 0;
	if (!sp->minus && sp->zero && sp->prec < 0) {
		zeros += width;
		width = 0;
	}
	if (!sp->minus)
		pad(o, width, ' ');
	put(o, sign, strlen(sign));
	put(o, prefix, strlen(prefix));
	pad(o, zeros, '0');
	put(o, d, n);
	if (sp->minus)
		pad(o, width, ' ');
}

static void float_sink(void *ctx, char c) { put_char(ctx, c); }

/* %f %e %g %a and their capitals. */
static void put_float(struct out *o, const struct spec *sp, double v)
{
	struct float_spec f = {
		.conv = sp->conv, .precision = sp->prec, .width = sp->width, .left = sp->minus,
		.zero = sp->zero, .plus = sp->plus, .space = sp->space, .alt = sp->alt,
	};

	fmt_float(float_sink, o, &f, v);
}

/* %b: the argument with echo's escapes. */
static void put_b(struct out *o, const struct spec *sp, const char *arg)
{
	struct out tmp = { 0 };
	const char *p;

	for (p = arg; *p && !tmp.stop;) {
		if (*p == '\\') {
			p++;
			p += escape(&tmp, p, 1);
		} else {
			put_char(&tmp, *p++);
		}
	}
	put_padded(o, sp, tmp.buf ? tmp.buf : "", tmp.len);
	o->stop = tmp.stop;
	free(tmp.buf);
}

/* A number in the format, or * for the next argument's. */
static int spec_number(struct out *o, const char **f, char ***args)
{
	int n = 0;

	if (**f == '*') {
		(*f)++;
		return (int)number(o, **args ? *(*args)++ : NULL);
	}
	while (**f >= '0' && **f <= '9')
		n = n * 10 + (*(*f)++ - '0');
	return n;
}

/* One conversion at f (after the %); returns where the format goes on, or NULL if it is bad. */
static const char *conversion(struct out *o, const char *f, char ***args)
{
	struct spec sp = { .prec = -1 };
	const char *arg;

	for (;; f++) {
		if (*f == '-')
			sp.minus = 1;
		else if (*f == '+')
			sp.plus = 1;
		else if (*f == ' ')
			sp.space = 1;
		else if (*f == '#')
			sp.alt = 1;
		else if (*f == '0')
			sp.zero = 1;
		else
			break;
	}
	sp.width = spec_number(o, &f, args);
	if (sp.width < 0) {
		sp.minus = 1;
		sp.width = -sp.width;
	}
	if (*f == '.') {
		f++;
		sp.prec = spec_number(o, &f, args);
		if (sp.prec < 0)
			sp.prec = -1;   /* a negative * precision is none, as in C */
	}
	sp.conv = *f;
	if (!sp.conv || !strchr("diouxXcsb%fFeEgGaA", sp.conv))
		return NULL;
	if (sp.conv == '%') {
		put_char(o, '%');
		return f + 1;
	}
	arg = **args ? *(*args)++ : NULL;
	if (sp.conv == 's')
		put_padded(o, &sp, arg ? arg : "", strlen(arg ? arg : ""));
	else if (sp.conv == 'c')
		put_padded(o, &sp, arg ? arg : "", arg && *arg ? 1 : 0);
	else if (sp.conv == 'b')
		put_b(o, &sp, arg ? arg : "");
	else if (strchr("fFeEgGaA", sp.conv))
		put_float(o, &sp, floating(o, arg));
	else
		put_int(o, &sp, number(o, arg));
	return f + 1;
}

int printf_main(int argc, char **argv)
{
	struct out o = { 0 };
	const char *format, *f;
	char **args;
	int ok;

	if (argc > 1 && strcmp(argv[1], "--") == 0) {
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: printf FORMAT [ARG...]\n");
		return 2;
	}
	format = argv[1];
	args = argv + 2;
	do {
		char **before = args;

		for (f = format; *f && !o.stop;) {
			if (*f == '\\') {
				f++;
				f += escape(&o, f, 0);
			} else if (*f == '%') {
				if (!(f = conversion(&o, f + 1, &args))) {
					fprintf(stderr, "printf: %s: invalid format\n", format);
					o.status = 1;
					break;
				}
			} else {
				put_char(&o, *f++);
			}
		}
		if (args == before || !f)
			break;          /* the format takes no arguments: once is enough */
	} while (*args && !o.stop);
	ok = o.len == 0 || write(1, o.buf, o.len) == (ssize_t)o.len;
	if (!ok)
		fprintf(stderr, "printf: write error: %s\n", strerror(errno));
	free(o.buf);
	return ok ? o.status : 1;
}
