/*
 * printf's floating-point conversions, exact and without floating-point
 * arithmetic (see fmt_float.h).
 *
 * A finite double is m * 2^e with a 53-bit integer m. Its decimal digits are
 * those of the integer m * 2^e when e >= 0, and of m * 5^-e with the point -e
 * places from the right when e < 0 (m * 2^e = m * 5^-e / 10^-e): at most 767
 * significant digits, all exact. Rounding to the precision is then done on the
 * digits, half to even, which is what glibc does with the exact binary value
 * (0.125 with %.2f is 0.12, 2.5 with %.0f is 2). Multiplying by 10 in floating
 * point instead would round at every step and print wrong last digits.
 */
#include "fmt_float.h"

#include <stdint.h>

#include "bignum.h"

/* m * 5^1074 (the smallest denormal's scale) has 767 digits; m * 2^971, 309. */
#define DECIMAL_DIGITS 800

/*
 * Precisions are cut to this: more places would only add zeros (the bound
 * keeps point + precision and the like far from overflowing an int).
 */
#define MAX_PRECISION (1 << 20)

/* A non-negative number as 0.D1D2D3... * 10^point, without trailing zeros. */
struct decimal {
	int n;                          /* digits in use; 0 for zero */
	int point;
	char d[DECIMAL_DIGITS];
};

/* Digit i of x (0 is the first); digits before the first or after the last are zeros. */
static char digit_at(const struct decimal *x, int i)
{
	return i >= 0 && i < x->n ? x->d[i] : '0';
}

static void decimal_trim(struct decimal *x)
{
	while (x->n > 0 && x->d[x->n - 1] == '0')
		x->n--;
	if (x->n == 0)
		x->point = 0;
}

/* The exact decimal value of mant * 2^exp2. */
static void decimal_exact(struct decimal *x, uint64_t mant, int exp2)
{
	struct big b;

	big_set(&b, mant);
	if (exp2 >= 0)
		big_shl(&b, exp2);
	else
		big_mul_pow(&b, 5, -exp2);
	x->n = big_to_decimal(&b, x->d);
	x->point = exp2 >= 0 ? x->n : x->n + exp2;
	decimal_trim(x);
}

/*
 * Keep only the first keep digits, rounding half to even: up if the rest is
 * more than half a unit of the last kept digit, and on exactly half only if
 * that digit is odd. keep may be 0 or less (the number rounds to 0 or to 1 unit).
 */
static void decimal_round(struct decimal *x, int keep)
{
	int up, i;

	if (keep >= x->n)
		return;
	if (keep < 0) {
		x->n = x->point = 0;    /* below a tenth of the unit: rounds to 0 */
		return;
	}
	if (x->d[keep] != '5')
		up = x->d[keep] > '5';
	else if (keep + 1 < x->n)
		up = 1;                 /* more than half: nonzero digits follow (no trailing zeros) */
	else
		up = keep > 0 && (x->d[keep - 1] - '0') % 2 == 1;
	x->n = keep;
	if (up) {
		for (i = keep - 1; i >= 0 && x->d[i] == '9'; i--)
			;
		if (i < 0) {            /* 999 -> 1000: one digit, a place further up */
			x->d[0] = '1';
			x->n = 1;
			x->point++;
		} else {
			x->d[i]++;
			x->n = i + 1;
		}
	}
	decimal_trim(x);
}

/* Where characters go; with no sink they are only counted (to know the padding first). */
struct out {
	format_sink_t sink;
	void *ctx;
	int count;
};

static void emit(struct out *o, char c)
{
	if (o->sink)
		o->sink(o->ctx, c);
	o->count++;
}

static void emit_repeat(struct out *o, char c, int n)
{
	while (n-- > 0)
		emit(o, c);
}

static void emit_str(struct out *o, const char *s)
{
	while (*s)
		emit(o, *s++);
}

/* An exponent: its sign always, at least min_digits digits. */
static void emit_exponent(struct out *o, int exp, int min_digits)
{
	char buf[12];
	int n = 0;
	unsigned u = exp < 0 ? -(unsigned)exp : (unsigned)exp;

	emit(o, exp < 0 ? '-' : '+');
	do {
		buf[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	emit_repeat(o, '0', min_digits - n);
	while (n > 0)
		emit(o, buf[--n]);
}

/*
 * What a conversion prints after the sign (and after %a's 0x, where zero
 * padding goes), worked out before anything is emitted.
 */
struct body {
	char style;                     /* 'f', 'e', 'a', or 'i' for inf and nan */
	int upper;
	int frac_digits;                /* digits after the point */
	int dot;                        /* print the point */
	struct decimal dec;             /* 'f' and 'e': the rounded digits */
	int exp;                        /* 'e' and 'a' */
	uint64_t hex;                   /* 'a': the leading digit, then 52 bits of fraction */
	const char *word;               /* 'i': "inf" or "nan" */
};

static void emit_body(struct out *o, const struct body *b)
{
	const char *hexdigits = b->upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int i;

	switch (b->style) {
	case 'i':
		for (i = 0; b->word[i]; i++)
			emit(o, b->upper ? (char)(b->word[i] - 'a' + 'A') : b->word[i]);
		return;
	case 'f':
		if (b->dec.point <= 0)
			emit(o, '0');
		for (i = 0; i < b->dec.point; i++)
			emit(o, digit_at(&b->dec, i));
		if (b->dot)
			emit(o, '.');
		for (i = 0; i < b->frac_digits; i++)
			emit(o, digit_at(&b->dec, b->dec.point + i));
		return;
	case 'e':
		emit(o, digit_at(&b->dec, 0));
		if (b->dot)
			emit(o, '.');
		for (i = 1; i <= b->frac_digits; i++)
			emit(o, digit_at(&b->dec, i));
		emit(o, b->upper ? 'E' : 'e');
		emit_exponent(o, b->exp, 2);
		return;
	case 'a':
		emit(o, hexdigits[b->hex >> 52]);
		if (b->dot)
			emit(o, '.');
		for (i = 0; i < b->frac_digits; i++)
			emit(o, i < 13 ? hexdigits[(b->hex >> (48 - 4 * i)) & 15] : '0');
		emit(o, b->upper ? 'P' : 'p');
		emit_exponent(o, b->exp, 1);
		return;
	}
}

/* %f: the digits rounded to precision places after the point. */
static void body_f(struct body *b, int precision, int alt)
{
	decimal_round(&b->dec, b->dec.point + precision);
	b->style = 'f';
	b->frac_digits = precision;
	b->dot = precision > 0 || alt;
}

/* %e: rounded to precision + 1 significant digits; zero has the exponent 0. */
static void body_e(struct body *b, int precision, int alt)
{
	decimal_round(&b->dec, precision + 1);
	b->style = 'e';
	b->exp = b->dec.n ? b->dec.point - 1 : 0;
	b->frac_digits = precision;
	b->dot = precision > 0 || alt;
}

/*
 * %g: P significant digits (6, or 1 for 0). %e's style if the exponent X that
 * %e would print is below -4 or not below P, else %f's with P - 1 - X places;
 * then, without #, no trailing zeros in the fraction and no point after none.
 * One quirk of glibc's is kept, because dash and coreutils print it: when
 * rounding carries a number of P digits to P + 1 (999999.5 with %#g), %e's
 * style gets the precision %f's would have had, 0: "1.e+06", not "1.00000e+06".
 */
static void body_g(struct body *b, int precision, int alt)
{
	int p = precision == 0 ? 1 : precision;
	struct decimal rounded = b->dec;
	int x = 0, x_before = b->dec.point - 1, shown;

	if (rounded.n) {
		decimal_round(&rounded, p);
		x = rounded.point - 1;
	}
	if (x < p && x >= -4) {
		body_f(b, p - 1 - x, alt);
		shown = b->dec.n - b->dec.point;
	} else {
		body_e(b, x == p && x_before == p - 1 ? 0 : p - 1, alt);
		shown = b->dec.n - 1;
	}
	if (!alt) {
		if (shown < b->frac_digits)
			b->frac_digits = shown > 0 ? shown : 0;
		b->dot = b->frac_digits > 0;
	}
}

/*
 * %a: 1.hhh...p+E for normal numbers, 0.hhh...p-1022 for denormals, as glibc.
 * With a precision under 13 the fraction is rounded half to even; without one,
 * it has as many digits as it needs.
 */
static void body_a(struct body *b, int precision, int alt, uint64_t fraction, int biased_exp)
{
	uint64_t v = (biased_exp ? 1ull << 52 : 0) | fraction;
	int digits = precision;

	if (precision < 0)
		for (digits = 13; digits > 0 && (fraction >> (52 - 4 * digits) & 15) == 0; digits--)
			;
	if (digits < 13) {
		int drop = 52 - 4 * digits;
		uint64_t rest = v & ((1ull << drop) - 1), half = 1ull << (drop - 1);

		v >>= drop;
		if (rest > half || (rest == half && (v & 1)))
			v++;
		v <<= drop;
	}
	b->style = 'a';
	b->hex = v;
	b->exp = biased_exp ? biased_exp - 1023 : fraction ? -1022 : 0;   /* a denormal keeps -1022 */
	b->frac_digits = digits;
	b->dot = digits > 0 || alt;
}

/* What to print for a finite or infinite value, by conversion (conv in lower case). */
static void make_body(struct body *b, char conv, int precision, int alt, uint64_t fraction, int biased_exp)
{
	if (biased_exp == 0x7ff) {
		b->style = 'i';
		b->word = fraction ? "nan" : "inf";
		return;
	}
	if (conv == 'a') {
		body_a(b, precision, alt, fraction, biased_exp);
		return;
	}
	if (biased_exp)
		decimal_exact(&b->dec, fraction | 1ull << 52, biased_exp - 1075);
	else
		decimal_exact(&b->dec, fraction, -1074);        /* a denormal: no implicit 1 */
	if (conv == 'f')
		body_f(b, precision, alt);
	else if (conv == 'e')
		body_e(b, precision, alt);
	else
		body_g(b, precision, alt);
}

int fmt_float(format_sink_t sink, void *ctx, const struct float_spec *spec, double v)
{
	union {
		double d;
		uint64_t u;
	} bits = { .d = v };
	int negative = bits.u >> 63, biased_exp = (int)(bits.u >> 52) & 0x7ff;
	uint64_t fraction = bits.u & ((1ull << 52) - 1);
	char conv = spec->conv | 0x20;  /* lower case: 'F' -> 'f' */
	char sign = negative ? '-' : spec->plus ? '+' : spec->space ? ' ' : 0;
	const char *prefix = conv == 'a' && biased_exp != 0x7ff ? (spec->conv == 'A' ? "0X" : "0x") : "";
	int precision = spec->precision;
	struct out o = { sink, ctx, 0 }, measure = { 0, 0, 0 };
	struct body b;
	int len, zero_pad;

	if (precision > MAX_PRECISION)
		precision = MAX_PRECISION;
	if (precision < 0 && conv != 'a')
		precision = 6;
	b.upper = spec->conv != conv;
	make_body(&b, conv, precision, spec->alt, fraction, biased_exp);

	/* Spaces, sign, 0x, zeros, the body, spaces: the body is measured first to pad to the width. */
	emit_body(&measure, &b);
	len = (sign ? 1 : 0) + (int)__builtin_strlen(prefix) + measure.count;
	zero_pad = spec->zero && !spec->left && b.style != 'i';
	if (!spec->left && !zero_pad)
		emit_repeat(&o, ' ', spec->width - len);
	if (sign)
		emit(&o, sign);
	emit_str(&o, prefix);
	if (zero_pad)
		emit_repeat(&o, '0', spec->width - len);
	emit_body(&o, &b);
	if (spec->left)
		emit_repeat(&o, ' ', spec->width - len);
	return o.count;
}
