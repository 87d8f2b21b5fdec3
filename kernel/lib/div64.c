/*
 * 64-bit division helpers that GCC calls on i386 (normally from libgcc, which
 * the kernel does not link). Shift-and-subtract: slow but short and obvious.
 */
#include <stdint.h>

uint64_t __udivmoddi4(uint64_t num, uint64_t den, uint64_t *rem);
uint64_t __udivdi3(uint64_t num, uint64_t den);
uint64_t __umoddi3(uint64_t num, uint64_t den);
int64_t __divdi3(int64_t num, int64_t den);
int64_t __moddi3(int64_t num, int64_t den);

uint64_t __udivmoddi4(uint64_t num, uint64_t den, uint64_t *rem)
{
	uint64_t quot = 0, bit = 1;

	if (den == 0) {
		/* Same as the hardware would: trap with a divide error. */
		volatile int zero = 0;
		return 1 / zero;
	}
	/* Fast path: both fit in 32 bits, the CPU can do it. */
	if ((num >> 32) == 0 && (den >> 32) == 0) {
		if (rem)
			*rem = (uint32_t)num % (uint32_t)den;
		return (uint32_t)num / (uint32_t)den;
	}
	while (den < num && !(den & (1ULL << 63))) {
		den <<= 1;
		bit <<= 1;
	}
	while (bit) {
		if (num >= den) {
			num -= den;
			quot |= bit;
		}
		den >>= 1;
		bit >>= 1;
	}
	if (rem)
		*rem = num;
	return quot;
}

uint64_t __udivdi3(uint64_t num, uint64_t den)
{
	return __udivmoddi4(num, den, 0);
}

uint64_t __umoddi3(uint64_t num, uint64_t den)
{
	uint64_t rem;

	__udivmoddi4(num, den, &rem);
	return rem;
}

int64_t __divdi3(int64_t num, int64_t den)
{
	int neg = (num < 0) != (den < 0);
	uint64_t q = __udivdi3(num < 0 ? -(uint64_t)num : (uint64_t)num,
			       den < 0 ? -(uint64_t)den : (uint64_t)den);
	return neg ? -(int64_t)q : (int64_t)q;
}

int64_t __moddi3(int64_t num, int64_t den)
{
	uint64_t r = __umoddi3(num < 0 ? -(uint64_t)num : (uint64_t)num,
			       den < 0 ? -(uint64_t)den : (uint64_t)den);
	return num < 0 ? -(int64_t)r : (int64_t)r;
}
