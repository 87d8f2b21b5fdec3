/*
 * A tiny test harness for the guest tests that also run on Linux (sigtest,
 * systest): each test runs in its own forked child, so a signal handler, a
 * mask or a process group set by one test cannot leak into the next, and a
 * test that kills its process fails alone. Prints "NAME: TEST ok",
 * "NAME: TEST FAIL line N: cond" or "NAME: TEST SKIP why", then
 * "NAME: summary P passed, F failed" (", S skipped" when some were): the
 * same lines as user/tests/gtest.h's tests print.
 */
#ifndef USER_TESTS_CHECK_H
#define USER_TESTS_CHECK_H

#include "ulib.h"

#define BAD_NULL   ((void *)0)
#define BAD_KERNEL ((void *)0xC0000000)
#define BAD_UNMAP  ((void *)0x40000000)          /* nothing is mapped there, here or on Linux */
#define NO_PID     5000000                      /* above Linux's largest pid_max (4194304): never a process */

static const char *suite;
static int passed, failed, skipped;

/* In the child: report the first failed check and exit 1. */
#define CHECK(cond)                                                                     \
	do {                                                                            \
		if (!(cond)) {                                                          \
			printf("%s: %s FAIL line %d: %s\n", suite, test_name, __LINE__, #cond); \
			exit(1);                                                        \
		}                                                                       \
	} while (0)

static const char *test_name;

/*
 * SKIP_IF(cond, "why", ...), in the child: the machine cannot show what the
 * test is about (on the host: a missing file, a namespace; in QEMU: a CPU
 * feature TCG lacks). One line "NAME: TEST SKIP why", and the child exits
 * with SKIP_STATUS, which run() counts as neither passed nor failed.
 */
#define SKIP_STATUS 77
#define SKIP_IF(cond, ...)                                                              \
	do {                                                                            \
		if (cond) {                                                             \
			char why_[160];                                                 \
			snprintf(why_, sizeof(why_), __VA_ARGS__);                      \
			printf("%s: %s SKIP %s\n", suite, test_name, why_);             \
			exit(SKIP_STATUS);                                              \
		}                                                                       \
	} while (0)

/* Run fn in a child; it passes if the child exits 0. */
static inline void run(const char *name, void (*fn)(void))
{
	int pid, st = 0;

	test_name = name;
	pid = fork();
	if (pid == 0) {
		fn();
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		printf("%s: %s FAIL cannot fork or wait\n", suite, name);
		failed++;
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		printf("%s: %s ok\n", suite, name);
		passed++;
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == SKIP_STATUS) {
		skipped++;              /* the child said why */
	} else {
		if (!WIFEXITED(st))
			printf("%s: %s FAIL killed by signal %d\n", suite, name, WTERMSIG(st));
		failed++;
	}
}

static inline int summary(void)
{
	if (skipped)
		printf("%s: summary %d passed, %d failed, %d skipped\n", suite, passed, failed, skipped);
	else
		printf("%s: summary %d passed, %d failed\n", suite, passed, failed);
	return failed ? 1 : 0;
}

/* Fork a child running fn (which should not return); its wait status, or -1. */
static inline int child_status(void (*fn)(void))
{
	int pid = fork(), st = 0;

	if (pid == 0) {
		fn();
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

/* Running on smpix (not Linux)? For the few checks where smpix differs on purpose. */
static inline int on_smpix(void)
{
	char u[6 * 65];

	return syscall(__NR_uname, u) == 0 && strcmp(u, "smpix") == 0;
}

#endif
