/* A tiny unit-test framework for kernel code compiled on the host (with ASan and UBSan). */
#ifndef HOSTTEST_H
#define HOSTTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hosttest_failures, hosttest_checks;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		hosttest_checks++;                                                       \
		if (!(cond)) {                                                           \
			printf("%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);  \
			hosttest_failures++;                                             \
		}                                                                        \
	} while (0)

#define CHECK_STR(got, want)                                                             \
	do {                                                                             \
		hosttest_checks++;                                                       \
		if (strcmp((got), (want)) != 0) {                                        \
			printf("%s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__,   \
			       (got), (want));                                           \
			hosttest_failures++;                                             \
		}                                                                        \
	} while (0)

static inline int hosttest_finish(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, hosttest_checks, hosttest_failures);
	return hosttest_failures ? 1 : 0;
}

#endif
