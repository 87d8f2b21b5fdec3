/*
 * In-kernel self-tests. A test is a function declared with KTEST(name); the
 * linker gathers them in section .ktests. Boot with test=all (or
 * test=name1,name2) and each prints one line the harness reads:
 *     ktest: NAME ok
 *     ktest: NAME FAIL file:line: what went wrong
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include "kernel/types.h"

#define KTEST_EXPLICIT 1        /* run only when named: it crashes the kernel on purpose */

struct ktest {
	const char *name;
	void (*fn)(void);
	unsigned flags;
};

#define KTEST_DEFINE(name_, flags_)                                                     \
	static void ktest_fn_##name_(void);                                             \
	static const struct ktest ktest_##name_                                         \
		__attribute__((section(".ktests"), used, aligned(4))) = {               \
			#name_, ktest_fn_##name_, (flags_) };                            \
	static void ktest_fn_##name_(void)

#define KTEST(name_) KTEST_DEFINE(name_, 0)
#define KTEST_CRASH(name_) KTEST_DEFINE(name_, KTEST_EXPLICIT)

/* Record a failure of the running test (the first one is reported). */
void ktest_fail(const char *file, int line, const char *fmt, ...) __printf(3, 4);

#define KT_ASSERT(cond)                                                                 \
	do {                                                                            \
		if (!(cond)) {                                                          \
			ktest_fail(__FILE__, __LINE__, "%s", #cond);                     \
			return;                                                         \
		}                                                                       \
	} while (0)

#define KT_ASSERT_EQ(a, b)                                                              \
	do {                                                                            \
		long long a_ = (long long)(a), b_ = (long long)(b);                     \
		if (a_ != b_) {                                                         \
			ktest_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", \
				   #a, a_, #b, b_);                                     \
			return;                                                         \
		}                                                                       \
	} while (0)

/* Run the tests named by spec ("all" or a comma list); returns the number that failed. */
int ktest_run(const char *spec);

#endif
