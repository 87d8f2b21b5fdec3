// TESTS: user/lib/fmt_float.c user/lib/bignum.c
#pragma GCC diagnostic ignored "-Wformat"
/*
 * The user libc's exact floating-point printing (user/lib/fmt_float.c) and
 * reading (user/lib/strtod.c) against glibc's, which rounds the exact binary
 * value half to even: edge cases by hand, then many random doubles.
 */
#include "hosttest.h"

#include <errno.h>
#include <stdint.h>

#include "user/lib/fmt_float.h"

#define strtod smpix_strtod
#define atof smpix_atof
/* Built in under other names, so glibc's strtod stays available to compare. */
#include "user/lib/strtod.c"
#undef strtod
#undef atof

struct buffer {
	char s[2048];
	int n;
};

static void buffer_put(void *ctx, char c)
{
	struct buffer *b = ctx;

	if (b->n < (int)sizeof(b->s) - 1)
		b->s[b->n++] = c;
	b->s[b->n] = 0;
}

/*
 * One conversion spec as printf writes it ("%-+08.3e"), through fmt_float;
 * compared with glibc's snprintf, and the count returned with the length.
 */
static int same_as_glibc(const char *fmt, double v)
{
	struct float_spec spec = { .precision = -1 };
	struct buffer got = { .n = 0 };
	char want[2048];
	const char *f = fmt + 1;
	int count;

	for (;; f++) {
		if (*f == '-')
			spec.left = 1;
		else if (*f == '+')
			spec.plus = 1;
		else if (*f == ' ')
			spec.space = 1;
		else if (*f == '#')
			spec.alt = 1;
		else if (*f == '0')
			spec.zero = 1;
		else
			break;
	}
	for (; *f >= '0' && *f <= '9'; f++)
		spec.width = spec.width * 10 + *f - '0';
	if (*f == '.')
		for (spec.precision = 0, f++; *f >= '0' && *f <= '9'; f++)
			spec.precision = spec.precision * 10 + *f - '0';
	spec.conv = *f;
	got.s[0] = 0;
	count = fmt_float(buffer_put, &got, &spec, v);
	snprintf(want, sizeof(want), fmt, v);
	if (strcmp(got.s, want) != 0 || count != got.n) {
		printf("fmt_float(\"%s\", %a): got \"%s\" (%d), glibc \"%s\"\n", fmt, v, got.s, count, want);
		return 0;
	}
	return 1;
}

#define SAME(fmt, v) CHECK(same_as_glibc(fmt, v))

/* smpix's strtod and glibc's give the same bits, the same end and the same errno. */
static int reads_as_glibc(const char *s)
{
	char *end_got, *end_want;
	int errno_got, errno_want;
	double got, want;

	errno = 0;
	got = smpix_strtod(s, &end_got);
	errno_got = errno;
	errno = 0;
	want = strtod(s, &end_want);
	errno_want = errno;
	if (memcmp(&got, &want, sizeof(got)) != 0 || end_got != end_want || errno_got != errno_want) {
		printf("strtod(\"%.60s\"): got %a end +%d errno %d, glibc %a end +%d errno %d\n", s, got,
		       (int)(end_got - s), errno_got, want, (int)(end_want - s), errno_want);
		return 0;
	}
	return 1;
}

#define READS(s) CHECK(reads_as_glibc(s))

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t random64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double from_u64(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static void edge_cases(void)
{
	static const char *const formats[] = {
		"%f", "%.2f", "%.0f", "%#.0f", "%e", "%.0e", "%#.0e", "%E", "%g", "%G", "%#g", "%.0g",
		"%.1g", "%.17g", "%.20f", "%a", "%A", "%.0a", "%.1a", "%.3a", "%#.0a", "%.15a",
		"%+e", "% f", "%010.3f", "%-12.4e", "%+010g", "%012a", "%-+8.2f", "%8.3F", "%.30e",
		"%#.4g", "%#.3g", "%#.1g", "%#.2g",
	};
	static const double values[] = {
		0.0, -0.0, 1.0, -1.0, 0.125, 0.375, 2.5, 3.5, -2.5, 0.5, 1.5, 9.5, 0.05, 0.15, 0.25,
		3.14159, 1e-7, 123456789.0, 1e21, 1e22, 1e300, -1e300, 1.7976931348623157e308,
		2.2250738585072014e-308, 4.9406564584124654e-324, 1e-320, 0.1, 0.2, 0.3, 999999.5,
		9.9999995, 99999.95, 9999.7, 999.5, 0.996, 9.6, 0.00009999996, 0.00001, 0.0001,
		1e15, 1e16, 1e17, 123.456, 5e-5,
		__builtin_inf(), -__builtin_inf(), __builtin_nan(""), -__builtin_nan(""),
	};

	for (unsigned f = 0; f < sizeof(formats) / sizeof(formats[0]); f++)
		for (unsigned v = 0; v < sizeof(values) / sizeof(values[0]); v++)
			SAME(formats[f], values[v]);
	SAME("%.1074f", 4.9406564584124654e-324);
	SAME("%.300f", 1e-300);
	SAME("%.800e", 1.7976931348623157e308);
}

static void random_doubles(void)
{
	static const char *const formats[] = { "%.17g", "%e", "%.3f", "%g", "%.0f", "%a", "%.2a", "%.25e" };

	for (int i = 0; i < 4000; i++) {
		double v = from_u64(random64());
		/* also numbers of ordinary size, where %f's rounding matters most */
		double w = (double)(int64_t)(random64() % 20000001 - 10000000) / 1000.0;

		for (unsigned f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
			SAME(formats[f], v);
			SAME(formats[f], w);
		}
	}
}

static void reading(void)
{
	static const char *const inputs[] = {
		"0", "-0", "1", "1e3", " 2.5", "\t-7.25e-1x", "+.5", "5.", ".", "", "-", "e5", "1e", "1e+",
		"1e-2z", "0x1p3", "0X1.8P+1", "0x.8", "0x", "0xg", "0x1p", "-0x1.fffffffffffff8p1023",
		"0x1.fffffffffffff7ffp1023", "0x1p-1074", "0x1p-1075", "0x1.0000000000001p-1075",
		"0x3p-1076", "0x1.00000000000008p0", "0x1.00000000000018p0", "0x1.000000000000080000001p0",
		"inf", "-Infinity", "infinit", "nan", "NaN(123abc)", "nan(", "nan()x", "1e400", "-1e400",
		"1e-400", "1e-320", "2.4703282292062327e-324", "2.4703282292062328e-324", "4.9e-324",
		"2.2250738585072011e-308", "2.2250738585072012e-308", "1.7976931348623157e308",
		"1.7976931348623158e308", "1.7976931348623159e308", "9007199254740993", "9007199254740995",
		"0.1", "0.30000000000000004", "123456789012345678901234567890", "1e22", "1e23",
		"00000000000000000000001.5", "0.000000000000000000000000000000000000001e39",
		"8.98846567431158e307", "1e-7", "1e21", "3.14159", "1_000", "12e99999999999",
		"1e-99999999999", "0e99999", "0.0e-99999",
	};
	char longer[1200];

	for (unsigned i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		READS(inputs[i]);
	/* A halfway point between two doubles, written out in full, then a hair above and below it. */
	snprintf(longer, sizeof(longer), "%.800e", 0x1.00000000000008p0);
	READS(longer);
	snprintf(longer, sizeof(longer), "%.1100f", 0x1.8p-1074);
	READS(longer);
	strcat(longer, "0000000000000000000000000000000000000000000001");
	READS(longer);
	snprintf(longer, sizeof(longer), "%.1100f", 0x1.7ffffffffp-1074);
	READS(longer);
	for (int i = 0; i < 4000; i++) {
		char text[64];
		double v = from_u64(random64());

		snprintf(text, sizeof(text), "%.*e", (int)(random64() % 20), v);
		READS(text);
		snprintf(text, sizeof(text), "%a", v);
		READS(text);
	}
}

int main(void)
{
	edge_cases();
	random_doubles();
	reading();
	return hosttest_finish("fmt_float");
}
