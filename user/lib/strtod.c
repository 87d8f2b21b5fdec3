/*
 * strtod(3), correctly rounded: the nearest double to the decimal (or
 * hexadecimal) number written, half to even, as glibc reads it. The decimal
 * digits D and exponent E give the exact fraction D * 10^E; big-integer
 * division of it yields the 54 bits above the binary point of the result plus
 * a remainder, and those decide the rounding. No floating-point arithmetic:
 * it would round as it went.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "bignum.h"

/*
 * Digits kept. A halfway point between two doubles has at most 767
 * significant digits, so a number longer than this is cut here, with a 1
 * appended if anything nonzero was cut: that keeps it on the same side of
 * every halfway point.
 */
#define MAX_DIGITS 800

static int is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int lower(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

static int hex_value(char c)
{
	c = (char)lower(c);
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Does s start with word, in any case? */
static int starts_with(const char *s, const char *word)
{
	for (; *word; s++, word++)
		if (lower(*s) != *word)
			return 0;
	return 1;
}

static double from_bits(int negative, uint64_t bits)
{
	union {
		uint64_t u;
		double d;
	} v = { .u = bits | (uint64_t)negative << 63 };

	return v.d;
}

/*
 * The double nearest to q * 2^k, where sticky says that a little more than
 * that (less than 2^k) was cut off. Half to even; ERANGE when the result is
 * infinite, or the exact value is below the smallest normal and inexact, as glibc.
 */
static double round_to_double(int negative, uint64_t q, int k, int sticky)
{
	uint64_t m;
	int half, tiny;

	if (q == 0 && !sticky)
		return from_bits(negative, 0);
	/* q to 54 bits, a double's 53 and one that decides the rounding, but no finer than 2^-1075 ... */
	while (q >= 1ull << 54 || k < -1075) {
		sticky |= q & 1;
		q >>= 1;
		k++;
	}
	/* ... and up to 54 where it has fewer (exact: nothing was cut from a number this short). */
	while (q && q < 1ull << 53 && k > -1075) {
		q <<= 1;
		k--;
	}
	half = q & 1;
	m = q >> 1;
	tiny = m < 1ull << 52;          /* below the smallest normal before rounding (glibc's test) */
	if (half && (sticky || (m & 1)))
		m++;
	if (m == 1ull << 53) {
		m >>= 1;
		k++;
	}
	if (m >= 1ull << 52) {
		int biased = k + 1076;  /* m * 2^(k+1) = 1.f * 2^(k+53); the bias is 1023 */

		if (biased >= 0x7ff) {
			errno = ERANGE;
			return from_bits(negative, 0x7ffull << 52);
		}
		if (tiny && (half || sticky))
			errno = ERANGE;
		return from_bits(negative, (uint64_t)biased << 52 | (m & ((1ull << 52) - 1)));
	}
	if (half || sticky)
		errno = ERANGE;         /* denormal and inexact, or rounded to 0 */
	return from_bits(negative, m);
}

/*
 * D * 10^dexp, where D is the digits: N / M with N = D * 10^dexp or M = 10^-dexp,
 * both scaled by a power of two k so that the quotient has 54 or 55 bits.
 */
static double decimal_to_double(int negative, const char *digits, int n, int dexp)
{
	struct big num, den, shifted;
	uint64_t q = 0;
	int k, i;

	big_set(&num, 0);
	for (i = 0; i < n; i++)
		big_mul_add(&num, 10, (uint32_t)(digits[i] - '0'));
	big_set(&den, 1);
	if (dexp >= 0)
		big_mul_pow(&num, 10, dexp);
	else
		big_mul_pow(&den, 10, -dexp);
	k = big_bits(&num) - big_bits(&den) - 54;
	if (k < -1075)
		k = -1075;
	if (k < 0)
		big_shl(&num, -k);
	else
		big_shl(&den, k);
	/* q = num / den, bit by bit (it has at most 55 bits); num keeps the remainder. */
	for (i = 55; i >= 0; i--) {
		shifted = den;
		big_shl(&shifted, i);
		if (big_cmp(&num, &shifted) >= 0) {
			big_sub(&num, &shifted);
			q |= 1ull << i;
		}
	}
	return round_to_double(negative, q, k, num.len != 0);
}

/*
 * The exponent after a mantissa that ended at s: letter ('e' for decimal, 'p' for hex), an
 * optional sign, digits (clamped: anything past 100000 is out of range anyway). *end moves past
 * it only if digits follow; "1e" and "1e+" end before the letter, as C says.
 */
static long parse_exponent(const char *s, char letter, const char **end)
{
	const char *e = s + 1;
	int exp_negative;
	long exp = 0;

	if (lower(*s) != letter)
		return 0;
	exp_negative = *e == '-';
	if (*e == '+' || *e == '-')
		e++;
	if (*e < '0' || *e > '9')
		return 0;
	for (; *e >= '0' && *e <= '9'; e++)
		if (exp < 100000)
			exp = exp * 10 + (*e - '0');
	*end = e;
	return exp_negative ? -exp : exp;
}

/* Far past the largest double (overflow: infinity) or below the smallest (underflow: zero). */
static double out_of_range(int negative, int overflow)
{
	errno = ERANGE;
	return from_bits(negative, overflow ? 0x7ffull << 52 : 0);
}

/* Decimal: digits, an optional point and more digits, an optional exponent. */
static double parse_decimal(int negative, const char *s, const char **end)
{
	char digits[MAX_DIGITS + 1];
	int n = 0, point = 0, seen_digit = 0, seen_point = 0, cut = 0;
	long exp;

	for (;; s++) {
		if (*s == '.' && !seen_point) {
			seen_point = 1;
		} else if (*s >= '0' && *s <= '9') {
			seen_digit = 1;
			if (n == 0 && *s == '0') {
				point -= seen_point;    /* a leading zero: after the point, it moves it */
			} else if (n < MAX_DIGITS) {
				digits[n++] = *s;
				point += !seen_point;
			} else {
				cut |= *s != '0';
				point += !seen_point;
			}
		} else {
			break;
		}
	}
	if (!seen_digit)
		return 0;
	*end = s;
	exp = parse_exponent(s, 'e', end);
	if (n == 0)
		return from_bits(negative, 0);
	/* The value is 0.DIGITS * 10^(point + exp): far out of range, no need to divide. */
	if (point + exp > 310 || point + exp < -324)
		return out_of_range(negative, point + exp > 0);
	if (cut)
		digits[n++] = '1';
	return decimal_to_double(negative, digits, n, (int)(point + exp) - n);
}

/* Hexadecimal, after the 0x: hex digits, an optional point and more, an optional p exponent (of 2). */
static double parse_hex(int negative, const char *s, const char **end)
{
	uint64_t q = 0;
	int k = 0, seen_point = 0, sticky = 0;
	long exp;

	for (;; s++) {
		if (*s == '.' && !seen_point) {
			seen_point = 1;
		} else if (hex_value(*s) >= 0) {
			if (q >> 60 == 0) {
				q = q << 4 | (uint64_t)hex_value(*s);
				k -= 4 * seen_point;
			} else {
				sticky |= hex_value(*s) != 0;
				k += 4 * !seen_point;
			}
		} else {
			break;
		}
	}
	*end = s;               /* the caller saw a hex digit */
	exp = parse_exponent(s, 'p', end);
	if (q == 0)
		return from_bits(negative, 0);
	if (k + exp > 1100 || k + exp < -1200)
		return out_of_range(negative, k + exp > 0);
	return round_to_double(negative, q, (int)(k + exp), sticky);
}

double strtod(const char *s, char **end)
{
	const char *p = s, *stop = s;
	int negative = 0;
	double v = 0;

	while (is_space(*p))
		p++;
	if (*p == '+' || *p == '-')
		negative = *p++ == '-';
	if (starts_with(p, "inf")) {
		stop = p + (starts_with(p, "infinity") ? 8 : 3);
		v = from_bits(negative, 0x7ffull << 52);
	} else if (starts_with(p, "nan")) {
		stop = p + 3;
		if (*stop == '(') {     /* nan(chars): letters, digits and _ */
			const char *c = stop + 1;

			while ((lower(*c) >= 'a' && lower(*c) <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')
				c++;
			if (*c == ')')
				stop = c + 1;
		}
		v = from_bits(negative, 0x7ff8ull << 48);
	} else if (p[0] == '0' && lower(p[1]) == 'x' &&
		   (hex_value(p[2]) >= 0 || (p[2] == '.' && hex_value(p[3]) >= 0))) {
		v = parse_hex(negative, p + 2, &stop);
	} else {
		v = parse_decimal(negative, p, &stop);
	}
	if (end)
		*end = (char *)stop;
	return v;
}

double atof(const char *s)
{
	return strtod(s, NULL);
}
