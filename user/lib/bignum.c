/* Big unsigned integers for exact double <-> decimal conversion (see bignum.h). */
#include "bignum.h"

/* A result that would not fit is a bug in the caller's bound (bignum.h): stop loudly. */
static void big_grow(struct big *b)
{
	if (b->len == BIG_WORDS)
		__builtin_trap();
	b->len++;
}

static void big_trim(struct big *b)
{
	while (b->len > 0 && b->w[b->len - 1] == 0)
		b->len--;
}

void big_set(struct big *b, uint64_t v)
{
	b->w[0] = (uint32_t)v;
	b->w[1] = (uint32_t)(v >> 32);
	b->len = 2;
	big_trim(b);
}

/* b = b * factor + add */
void big_mul_add(struct big *b, uint32_t factor, uint32_t add)
{
	uint64_t carry = add;

	for (int i = 0; i < b->len; i++) {
		uint64_t t = (uint64_t)b->w[i] * factor + carry;

		b->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry) {
		big_grow(b);
		b->w[b->len - 1] = (uint32_t)carry;
	}
}

/* b = b * base^n, for a small base (5 or 10), a few powers at a time. */
void big_mul_pow(struct big *b, uint32_t base, int n)
{
	for (; n > 0; n--) {
		uint32_t factor = base;

		while (n > 1 && factor <= 0xffffffffu / base) {
			factor *= base;
			n--;
		}
		big_mul_add(b, factor, 0);
	}
}

/* b = b / divisor; returns the remainder. Each step divides 64 bits by 32, from the top down. */
uint32_t big_div_small(struct big *b, uint32_t divisor)
{
	uint64_t rem = 0;

	for (int i = b->len - 1; i >= 0; i--) {
		uint64_t cur = rem << 32 | b->w[i];

		b->w[i] = (uint32_t)(cur / divisor);
		rem = cur % divisor;
	}
	big_trim(b);
	return (uint32_t)rem;
}

/* b = b << bits */
void big_shl(struct big *b, int bits)
{
	int words = bits / 32, shift = bits % 32;

	if (b->len == 0)
		return;
	if (b->len + words + 1 > BIG_WORDS)
		__builtin_trap();
	b->w[b->len + words] = 0;
	for (int i = b->len - 1; i >= 0; i--) {
		uint32_t v = b->w[i];

		b->w[i + words + 1] |= shift ? v >> (32 - shift) : 0;
		b->w[i + words] = v << shift;
	}
	for (int i = 0; i < words; i++)
		b->w[i] = 0;
	b->len += words + 1;
	big_trim(b);
}

int big_cmp(const struct big *a, const struct big *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	for (int i = a->len - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* a = a - b, where a >= b */
void big_sub(struct big *a, const struct big *b)
{
	uint32_t borrow = 0;

	for (int i = 0; i < a->len; i++) {
		uint64_t sub = (uint64_t)(i < b->len ? b->w[i] : 0) + borrow;

		borrow = a->w[i] < sub;
		a->w[i] -= (uint32_t)sub;
	}
	big_trim(a);
}

/* The number of bits up to the highest 1: 0 for zero. */
int big_bits(const struct big *b)
{
	int bits;
	uint32_t top;

	if (b->len == 0)
		return 0;
	top = b->w[b->len - 1];
	for (bits = 0; top; bits++)
		top >>= 1;
	return (b->len - 1) * 32 + bits;
}

/*
 * The decimal digits of b into out (no leading zeros, no NUL; nothing for zero),
 * nine at a time from the bottom; b is consumed. Returns how many.
 */
int big_to_decimal(struct big *b, char *out)
{
	char rev[BIG_WORDS * 10];
	int n = 0;

	while (b->len > 0) {
		uint32_t chunk = big_div_small(b, 1000000000u);

		for (int i = 0; i < 9; i++, chunk /= 10)
			rev[n++] = (char)('0' + chunk % 10);
	}
	while (n > 0 && rev[n - 1] == '0')
		n--;
	for (int i = 0; i < n; i++)
		out[i] = rev[n - 1 - i];
	return n;
}
