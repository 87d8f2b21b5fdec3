/*
 * Big unsigned integers, just enough for exact conversions between doubles and
 * decimal text (fmt_float.c prints, strtod.c reads): a double is m * 2^e, and
 * its decimal digits are those of the integer m * 2^e or m * 5^-e, which no
 * floating-point arithmetic can produce without rounding.
 */
#ifndef USER_LIB_BIGNUM_H
#define USER_LIB_BIGNUM_H

#include <stdint.h>

/*
 * 4480 bits. The largest number made is strtod's 10^1125 (a tiny value read
 * with 800 digits) shifted left by 55 bits: about 3800 bits.
 */
#define BIG_WORDS 140

struct big {
	int len;                        /* words in use: w[len - 1] != 0, and 0 for zero */
	uint32_t w[BIG_WORDS];          /* least significant first */
};

void big_set(struct big *b, uint64_t v);
void big_mul_add(struct big *b, uint32_t factor, uint32_t add);
void big_mul_pow(struct big *b, uint32_t base, int n);
uint32_t big_div_small(struct big *b, uint32_t divisor);
void big_shl(struct big *b, int bits);
int big_cmp(const struct big *a, const struct big *b);
void big_sub(struct big *a, const struct big *b);
int big_bits(const struct big *b);
int big_to_decimal(struct big *b, char *out);

#endif
