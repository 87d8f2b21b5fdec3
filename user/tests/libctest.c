/*
 * libctest: the user libc's floating-point printf (snprintf %f %e %g %a,
 * user/lib/fmt_float.c) and strtod (user/lib/strtod.c), as a program sees them.
 * The expected strings are glibc's; tools/test/hosttest/test_fmt_float.c
 * compares the same code with glibc on the host over many random doubles.
 * Prints "libctest: NAME ok" or "libctest: NAME FAIL ..." per check, then
 * "libctest: summary P passed, F failed".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void result(const char *name, int ok, const char *got, const char *want)
{
	if (ok) {
		passed++;
		printf("libctest: %s ok\n", name);
	} else {
		failed++;
		printf("libctest: %s FAIL got \"%s\" want \"%s\"\n", name, got, want);
	}
}

/* snprintf into a buffer: the text and the count it returns must both be right. */
#define FORMATS(want, ...)                                                               \
	do {                                                                             \
		char got_[128];                                                          \
		int n_ = snprintf(got_, sizeof(got_), __VA_ARGS__);                      \
		result(#__VA_ARGS__, strcmp(got_, want) == 0 && n_ == (int)strlen(want), \
		       got_, want);                                                      \
	} while (0)

static void snprintf_floats(void)
{
	FORMATS("0.12 2 0.2 0.5 1", "%.2f %.0f %.1f %.1f %.0f", 0.125, 2.5, 0.25, 0.45, 0.5000001);
	FORMATS("3.141593 3.14159e+00 3.14159", "%f %.5e %g", 3.14159265, 3.14159265, 3.14159265);
	FORMATS("1e-07 1.23457e+08 100000 1e+06", "%g %g %g %g", 1e-7, 123456789.0, 100000.0, 1e6);
	FORMATS("1000000000000000000000.000000", "%f", 1e21);
	FORMATS("-0.000000 -0 -0.000000e+00", "%f %g %e", -0.0, -0.0, -0.0);
	FORMATS("inf -inf INF nan", "%f %e %G %g", 1.0 / 0.0, -1.0 / 0.0, 1.0 / 0.0, __builtin_nan(""));
	FORMATS("[003.1] [  3.14] [3.1416    ] [+1.5e+00]", "[%05.1f] [%6.2f] [%-10.4f] [%+.1e]",
		3.14159, 3.14159, 3.14159, 1.5);
	FORMATS("[2.00000] [1.e+06] [ 5.] [0x1.8p+1] [0X1P-1]", "[%#g] [%#g] [% #.0f] [%a] [%A]",
		2.0, 999999.5, 5.0, 3.0, 0.5);
	FORMATS("[     3.14] [2.5e+00] [1.23e+03]", "[%*.*f] [%.*e] [%.*g]", 9, 2, 3.14159, 1, 2.5, 3, 1234.5);
	FORMATS("1.7976931348623157e+308 4.9406564584124654e-324", "%.17g %.17g",
		1.7976931348623157e308, 4.9406564584124654e-324);
	FORMATS("[+5] [ 5] [0xff]", "[%+d] [% d] [%#x]", 5, 5, 255u);
}

static void snprintf_truncates(void)
{
	char buf[8];
	int n = snprintf(buf, sizeof(buf), "%.3f", 12345.6789);

	result("snprintf(buf, 8, \"%.3f\", 12345.6789) truncates, counts all", n == 9 &&
	       strcmp(buf, "12345.6") == 0, buf, "12345.6");
}

/* strtod: the value's exact bits, where it stopped, and errno. */
static void reads(const char *s, double want, int want_len, int want_errno)
{
	char *end, got[160], expect[160];
	double v;
	int e;

	errno = 0;
	v = strtod(s, &end);
	e = errno;
	snprintf(got, sizeof(got), "%a +%d errno %d", v, (int)(end - s), e);
	snprintf(expect, sizeof(expect), "%a +%d errno %d", want, want_len, want_errno);
	snprintf(got + 100, 50, "strtod(\"%.30s\")", s);
	result(got + 100, memcmp(&v, &want, sizeof(v)) == 0 && end - s == want_len && e == want_errno,
	       got, expect);
}

static void strtod_reads(void)
{
	reads("1e3", 1000.0, 3, 0);
	reads(" 2.5", 2.5, 4, 0);
	reads("0x1p3", 8.0, 5, 0);
	reads("-0x1.8p-1", -0.75, 9, 0);
	reads("0.1", 0.1, 3, 0);
	reads("1.5x", 1.5, 3, 0);
	reads("abc", 0.0, 0, 0);
	reads("1e", 1.0, 1, 0);
	reads("-0", -0.0, 2, 0);
	reads("Infinity", 1.0 / 0.0, 8, 0);
	reads("1e400", 1.0 / 0.0, 5, ERANGE);
	reads("1e-400", 0.0, 6, ERANGE);
	reads("2.2250738585072014e-308", 2.2250738585072014e-308, 23, 0);
	reads("9007199254740993", 9007199254740992.0, 16, 0);  /* halfway: to even */
	reads("9007199254740995", 9007199254740996.0, 16, 0);
	reads("123456789012345678901234567890", 123456789012345678901234567890.0, 30, 0);
}

/* Every double printed with %.17g reads back as itself. */
static void round_trip(void)
{
	static const double values[] = {
		0.1, 1.0 / 3, 2.0 / 3, 1e-300, 1e300, 123.456, 4.9406564584124654e-324,
		2.2250738585072009e-308, 1.7976931348623157e308, 0.30000000000000004,
	};
	int ok = 1;

	for (unsigned i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char text[40];
		double back;

		snprintf(text, sizeof(text), "%.17g", values[i]);
		back = strtod(text, NULL);
		if (memcmp(&back, &values[i], sizeof(back)) != 0) {
			result("%.17g then strtod gives the same double", 0, text, "the same bits");
			ok = 0;
		}
	}
	if (ok)
		result("%.17g then strtod gives the same double", 1, "", "");
}

int main(void)
{
	snprintf_floats();
	snprintf_truncates();
	strtod_reads();
	round_trip();
	printf("libctest: summary %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
