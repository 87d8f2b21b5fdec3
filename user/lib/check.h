/*
 * A test program's checks: run(name, fn) prints "PREFIX: NAME ok" or
 * "PREFIX: NAME FAIL line N: cond"; summary() prints the totals and gives the
 * exit code. The harness (tools/testcases/) reads these lines. Define
 * CHECK_PREFIX before including.
 */
#ifndef USER_LIB_CHECK_H
#define USER_LIB_CHECK_H

#include "ulib.h"

static int check_passed, check_failed;
static const char *check_failure;
static char check_why[128];

#define CHECK(cond)                                                                             \
	do {                                                                                    \
		if (!(cond)) {                                                                  \
			snprintf(check_why, sizeof(check_why), "line %d: %s", __LINE__, #cond); \
			check_failure = check_why;                                              \
			return;                                                                 \
		}                                                                               \
	} while (0)

static inline void run(const char *name, void (*fn)(void))
{
	check_failure = 0;
	fn();
	if (check_failure) {
		printf(CHECK_PREFIX ": %s FAIL %s\n", name, check_failure);
		check_failed++;
	} else {
		printf(CHECK_PREFIX ": %s ok\n", name);
		check_passed++;
	}
}

static inline int summary(void)
{
	printf(CHECK_PREFIX ": summary %d passed, %d failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
