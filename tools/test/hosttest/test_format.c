// TESTS: user/lib/fmt_float.c user/lib/bignum.c
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-overflow"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
/* The printf engine behind printk, against the cases that matter and the C library's answers. */
#include "hosttest.h"

#include <stdarg.h>
#include <stdint.h>

#define vsnprintf kernel_vsnprintf
#define snprintf kernel_snprintf
/* Built into this test under other names, so libc's snprintf stays available to compare. */
#include "kernel/lib/format.c"
#undef vsnprintf
#undef snprintf

static char buf[256], want[256];

/* Format with the kernel's engine and with libc; they must agree. */
#define SAME(...)                                                   \
	do {                                                        \
		kernel_snprintf(buf, sizeof(buf), __VA_ARGS__);     \
		snprintf(want, sizeof(want), __VA_ARGS__);          \
		CHECK_STR(buf, want);                               \
	} while (0)

static void count_sink(void *ctx, char c)
{
	(void)c;
	(*(int *)ctx)++;
}

static int through_vformat(const char *fmt, ...)
{
	va_list ap;
	int n = 0, ret;

	va_start(ap, fmt);
	ret = vformat(count_sink, &n, fmt, ap);
	va_end(ap);
	CHECK(ret == n);
	return ret;
}

int main(void)
{
	SAME("plain text");
	SAME("%d %d %d", 0, -1, 2147483647);
	SAME("%d", (int)-2147483647 - 1);
	SAME("%u %u", 0u, 4294967295u);
	SAME("%x %X %x", 0xdeadbeefu, 0xdeadbeefu, 0u);
	SAME("%lld %lld", 9223372036854775807LL, -9223372036854775807LL - 1);
	SAME("%llu %llx", 18446744073709551615ULL, 0x123456789abcdefULL);
	SAME("%ld %lu %lx", -5L, 5UL, 255UL);
	SAME("%zu", (size_t)12345);
	SAME("[%5d] [%-5d] [%05d] [%-05d]", 42, 42, 42, 42);
	SAME("[%5d] [%05d]", -42, -42);
	SAME("[%08x] [%8x] [%-8x]", 0xabcu, 0xabcu, 0xabcu);
	SAME("[%s] [%10s] [%-10s] [%.3s]", "hello", "hi", "hi", "truncate");
	SAME("[%c] [%3c] [%-3c]", 'a', 'b', 'c');
	SAME("100%%");
	SAME("[%*d] [%-*d]", 6, 7, 6, 7);
	SAME("[%+d] [% d] [%+d] [%#x] [%#X] [%#x]", 5, 5, -5, 255u, 255u, 0u);
	/* Floating point, as user programs have it (user/lib/fmt_float.c tests the digits). */
	SAME("[%f] [%.2f] [%.0f] [%e] [%g] [%a]", 3.14159, 0.125, 2.5, -1e-7, 123456789.0, 1.5);
	SAME("[%08.3f] [%-10.2e] [%+G] [%#g] [% .1f]", -3.14159, 1e21, 1e-5, 2.0, 0.05);
	SAME("[%*.*f] [%.*e] [%.*g]", 9, 2, 1.005, -1, 0.5, 3, 1234.5);

	/* %p is always 0x and 8 digits on i386; the host has 16, so check our own format. */
	kernel_snprintf(buf, sizeof(buf), "%p", (void *)(uintptr_t)0xc0100000);
	CHECK_STR(buf, sizeof(void *) == 8 ? "0x00000000c0100000" : "0xc0100000");
	kernel_snprintf(buf, sizeof(buf), "%s", (char *)NULL);
	CHECK_STR(buf, "(null)");
	/* An unknown conversion is shown, not swallowed. */
	kernel_snprintf(buf, sizeof(buf), "a%qb");
	CHECK_STR(buf, "a%qb");

	/* Truncation: always terminated, and the return value is the full length. */
	CHECK(kernel_snprintf(buf, 5, "%s", "abcdefgh") == 8);
	CHECK_STR(buf, "abcd");
	CHECK(kernel_snprintf(buf, 1, "xyz") == 3);
	CHECK_STR(buf, "");
	CHECK(kernel_snprintf(NULL, 0, "%d", 12345) == 5);

	CHECK(through_vformat("%d-%s", 123, "ab") == 6);
	return hosttest_finish("format");
}
