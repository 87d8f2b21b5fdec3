/*
 * /bin/tracetest: the event trace seen from user space (docs/tracing.md).
 * Each test switches tracing on (/proc/sys/kernel/trace, a fresh trace),
 * provokes events with system calls, switches it off, and finds its own
 * events in /proc/trace in the order they happened: system calls, an ioctl
 * under the BKL, the BKL dropped for a sleep and retaken, the BKL and a
 * spinlock contended from another CPU, an interrupt taken in user mode.
 * Never a timing: only which events, in which order.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/uapi/bench.h"

static const char *test_name;
static int passed, failed;

/* In the test's child: report the first failed check and exit 1. */
#define CHECK(cond)                                                                     \
	do {                                                                            \
		if (!(cond)) {                                                          \
			printf("tracetest: %s FAIL line %d: %s\n", test_name, __LINE__, #cond); \
			exit(1);                                                        \
		}                                                                       \
	} while (0)

/* Each test in a child of its own: a failed CHECK ends that test only. */
static void run(const char *name, void (*fn)(void))
{
	int pid, st = 0;

	test_name = name;
	pid = fork();
	if (pid == 0) {
		fn();
		exit(0);
	}
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		printf("tracetest: %s ok\n", name);
		passed++;
	} else {
		if (pid < 0 || !WIFEXITED(st))
			printf("tracetest: %s FAIL (no fork, or killed)\n", name);
		failed++;
	}
}

#define TRACE_KNOB "/proc/sys/kernel/trace"
#define MAX_MINE 4096
#define LINE_MAX_ 512
#define CONTENTION_TRIES 20

struct ev {
	char name[24];
	char args[200];
};

static struct ev mine[MAX_MINE];
static int nmine;
static int ncpus_seen;

static void knob(const char *value)
{
	int fd = open(TRACE_KNOB, O_WRONLY);

	CHECK(fd >= 0);
	CHECK(write(fd, value, strlen(value)) == (long)strlen(value));
	close(fd);
}

/* Read /proc/trace: this process's events into mine[] (interrupts of any task are not its own). */
static void collect(void)
{
	static char line[LINE_MAX_];
	FILE *f = fopen("/proc/trace", "r");
	int me = getpid();

	CHECK(f != NULL);
	nmine = 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *name, *end;
		int pid;

		if (line[0] == '#') {
			if (strncmp(line, "# smpix trace: cpus=", 20) == 0)
				ncpus_seen = atoi(line + 20);
			continue;
		}
		strtoul(p, &p, 10);             /* cpu */
		strtoull(p, &p, 10);            /* time */
		pid = (int)strtol(p, &p, 10);
		while (*p == ' ')
			p++;
		name = p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
		end = p;
		if (pid != me || nmine >= MAX_MINE)
			continue;
		*end = 0;
		strlcpy(mine[nmine].name, name, sizeof(mine[nmine].name));
		strlcpy(mine[nmine].args, end + 1, sizeof(mine[nmine].args));
		nmine++;
	}
	fclose(f);
}

/* Is want[] (pairs of event name and a piece of its arguments, NULL-terminated) a subsequence of mine[]? */
static int in_order(const char *const *want)
{
	int k = 0;

	for (int i = 0; i < nmine && want[k]; i++)
		if (strcmp(mine[i].name, want[k]) == 0 && strstr(mine[i].args, want[k + 1]))
			k += 2;
	if (want[k])
		printf("tracetest: %s: no '%s %s' after step %d of %d events\n", test_name, want[k], want[k + 1],
		       k / 2, nmine);
	return want[k] == NULL;
}

static int open_dev(const char *path)
{
	int fd = open(path, O_RDWR);

	CHECK(fd >= 0);
	return fd;
}

static void t_syscall_and_bkl_ioctl(void)
{
	static const char *const want[] = {
		"syscall_enter", "name=getpid", "syscall_exit", "name=getpid",
		"syscall_enter", "name=ioctl", "ioctl_begin", "driver=bench_bkl cmd=0x6203 bkl=1",
		"bkl_acquire", "site_func=driver_ioctl", "bkl_release", "site_func=driver_ioctl",
		"ioctl_end", "driver=bench_bkl ret=0 bkl=1", "syscall_exit", "name=ioctl", NULL,
	};
	int fd = open_dev("/dev/bench_bkl");

	knob("1");
	getpid();
	CHECK(ioctl(fd, BENCH_RESET, 0) == 0);
	knob("0");
	collect();
	CHECK(in_order(want));
}

static void t_sleep_drops_the_bkl(void)
{
	static const char *const want[] = {
		"ioctl_begin", "driver=bench_bkl", "bkl_acquire", "driver_ioctl",
		"bkl_drop", "driver_ioctl", "switch", "reason=sleep",
		"bkl_retake", "driver_ioctl", "bkl_release", "driver_ioctl", "ioctl_end", "driver=bench_bkl", NULL,
	};
	struct bench_work w = { 10, 3000 };
	int fd = open_dev("/dev/bench_bkl");

	knob("1");
	CHECK(ioctl(fd, BENCH_UPDATE, &w) == 0);
	knob("0");
	collect();
	CHECK(in_order(want));
}

static void pin(int cpu)
{
	unsigned mask[8] = { 0 };

	mask[cpu / 32] = 1u << (cpu % 32);
	CHECK(sched_setaffinity(0, sizeof(mask), mask) == 0);
}

static int online_cpus(void)
{
	unsigned mask[8] = { 0 };
	int n = 0;

	CHECK(sched_getaffinity(0, sizeof(mask), mask) > 0);
	for (int i = 0; i < 256; i++)
		n += (mask[i / 32] >> (i % 32)) & 1;
	return n;
}

/* Both CPUs time lock pairs at once (BENCH_LOCK_COST): the BKL and a spinlock, contended. */
static void lock_pairs_on(int cpu)
{
	struct bench_lock_cost c = { 20000, 0, 0, 0 };
	int fd = open_dev("/dev/bench_own");

	pin(cpu);
	CHECK(ioctl(fd, BENCH_LOCK_COST, &c) == 0);
	close(fd);
}

static void t_contention(void)
{
	static const char *const want_bkl[] = {
		"bkl_contended", "site_func=time_bkl_pairs holder=drivers/bench/bench_cost.c",
		"bkl_acquire", "site_func=time_bkl_pairs contended=1", NULL,
	};
	static const char *const want_spin[] = {
		"spin_contended", "lock=\"bench_cost\" at=drivers/bench/bench_cost.c:",
		"spin_acquired", "lock=\"bench_cost\"", NULL,
	};
	int got_bkl = 0, got_spin = 0;

	if (online_cpus() < 2)
		return;                 /* nobody to contend with */
	for (int i = 0; i < CONTENTION_TRIES && !(got_bkl && got_spin); i++) {
		int pid, st;

		knob("1");
		pid = fork();
		if (pid == 0) {
			lock_pairs_on(1);
			exit(0);
		}
		lock_pairs_on(0);
		CHECK(waitpid(pid, &st, 0) == pid && st == 0);
		knob("0");
		collect();
		got_bkl |= in_order(want_bkl);
		got_spin |= in_order(want_spin);
	}
	CHECK(got_bkl);
	CHECK(got_spin);
}

/* A busy loop in user mode: the tick interrupts it there, and returns there. */
static void t_irq_from_user(void)
{
	static const char *const want[] = { "irq_enter", "user=1", "irq_exit", "user=1", NULL };
	int ok = 0;

	for (int i = 0; i < 5 && !ok; i++) {
		struct timespec t0, t;

		knob("1");
		clock_gettime(1, &t0);
		do {
			for (volatile unsigned spin = 0; spin < 100000; spin++)
				;       /* user mode only: no system call for the tick to land in */
			clock_gettime(1, &t);
		} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 100);
		knob("0");
		collect();
		ok = in_order(want);
	}
	CHECK(ok);
}

/* The header names every CPU, and the trace names this process (a comm event or the task list). */
static void t_header(void)
{
	static char line[LINE_MAX_];
	char me[32];
	int named = 0;
	FILE *f;

	knob("1");
	getpid();
	knob("0");
	collect();
	CHECK(ncpus_seen == online_cpus());
	snprintf(me, sizeof(me), "# task %d \"tracetest\"", getpid());
	f = fopen("/proc/trace", "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f))
		named |= strncmp(line, me, strlen(me)) == 0;
	fclose(f);
	CHECK(named);
	CHECK(nmine > 0);
}

int main(void)
{
	run("syscall_and_bkl_ioctl_in_order", t_syscall_and_bkl_ioctl);
	run("sleep_under_bkl_drops_and_retakes_it", t_sleep_drops_the_bkl);
	run("bkl_and_spinlock_contention_from_another_cpu", t_contention);
	run("irq_taken_and_left_in_user_mode", t_irq_from_user);
	run("header_names_every_cpu_and_the_task", t_header);
	printf("tracetest: summary %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
