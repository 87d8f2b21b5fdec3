/*
 * loadtest: is smpix still responsive when every CPU is busy writing to the
 * console? More writers than CPUs (3 x CPUs + 3) flood /dev/console with
 * 64 KiB writes while the checks below look at what users feel:
 *  - every runnable task gets a CPU soon (its longest wait, in ticks of
 *    the CPU it waited on: /proc/PID/sched's smpix.wait_max_ticks);
 *  - a writer killed with SIGKILL is gone within a second;
 *  - a big console write cut short by a signal returns what it wrote.
 * Waits are measured in timer ticks, which a busy host machine cannot
 * stretch (a vCPU the host does not run gets no ticks), so the bounds are
 * the kernel's own. Run it as init= or from the shell; two settings come
 * from the environment (as init, from the kernel's command line):
 * loadtest_seconds (2) and loadtest_wait_ticks, the bound on a wait (20).
 */
#define GT_ISOLATED     /* each test in a child of its own (gtest.h) */
#include "gtest.h"

char *getenv(const char *name);   /* user/lib/env.c */
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/signal.h"

#define HZ 100
#define WAIT_BOUND_TICKS 20             /* 200 ms: the longest a runnable task may wait, by default */
#define KILL_BOUND_TICKS HZ             /* 1 s: from SIGKILL to the reaped process */
#define BIG 65536
#define SETSIZE 8
#define ITIMER_REAL 0

static char flood[BIG];
static int flood_seconds = 2;
static int wait_bound_ticks = WAIT_BOUND_TICKS;

/* ---- small helpers --------------------------------------------------------------- */

static int ncpus(void)
{
	uint32_t mask = 0;
	int n = 0;

	if (sched_getaffinity(0, sizeof(mask), &mask) < 0)
		return 1;
	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(1, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read a whole small file into buf (NUL-terminated); bytes read or < 0. */
static int slurp(const char *path, char *buf, int size)
{
	int fd = syscall(__NR_open, path, O_RDONLY), n, got = 0;

	if (fd < 0)
		return fd;
	while (got < size - 1 && (n = read(fd, buf + got, size - 1 - got)) > 0)
		got += n;
	syscall(__NR_close, fd);
	buf[got] = 0;
	return got;
}

/* The number after "key" and its colon in text, or -1. */
static long long field(const char *text, const char *key)
{
	const char *p = text;
	size_t len = strlen(key);
	long long v = 0;

	for (; *p; p++)
		if ((p == text || p[-1] == '\n') && strncmp(p, key, len) == 0) {
			for (p += len; *p == ' ' || *p == ':'; p++)
				;
			for (; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (*p - '0');
			return v;
		}
	return -1;
}

/* This task's longest wait for a CPU, in ticks. */
static long long my_wait_max_ticks(void)
{
	static char text[1024];

	if (slurp("/proc/self/sched", text, sizeof(text)) <= 0)
		return -1;
	return field(text, "smpix.wait_max_ticks");
}

/* Every CPU's timer ticks (the LOC line of /proc/interrupts): how many CPUs it read. */
#define MAX_TICK_CPUS 16
static int read_ticks(long long ticks[MAX_TICK_CPUS])
{
	static char text[2048];
	int n = 0;
	char *p;

	if (slurp("/proc/interrupts", text, sizeof(text)) <= 0)
		return 0;
	for (p = text; *p; p++)
		if ((p == text || p[-1] == '\n') && strncmp(p, "LOC:", 4) == 0)
			break;
	for (p += *p ? 4 : 0; *p && *p != '\n' && n < MAX_TICK_CPUS; n++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		for (ticks[n] = 0; *p >= '0' && *p <= '9'; p++)
			ticks[n] = ticks[n] * 10 + (*p - '0');
	}
	return n;
}

/*
 * The ticks the kernel surely had between two readings: the fewest any CPU
 * got. A vCPU the host machine did not run gets none, and the kill may
 * have needed that one.
 */
static long long least_ticks_between(const long long *then, const long long *now, int n)
{
	long long least = -1;

	for (int i = 0; i < n; i++)
		if (least < 0 || now[i] - then[i] < least)
			least = now[i] - then[i];
	return least;
}

static void fill_flood(void)
{
	for (int i = 0; i < BIG; i++)
		flood[i] = (i % 64 == 63) ? '\n' : (char)('a' + i % 26);
}

/* A writer: floods the console until its time is up; exits with its longest wait (ticks, capped). */
static void __attribute__((noreturn)) writer(int seconds)
{
	int64_t end = now_ms() + seconds * 1000;
	long long w;

	while (now_ms() < end)
		write(1, flood, BIG);
	w = my_wait_max_ticks();
	exit(w < 0 ? 255 : w > 254 ? 254 : (int)w);
}

static int start_writers(int *pids, int n, int seconds)
{
	for (int i = 0; i < n; i++) {
		if ((pids[i] = fork()) == 0)
			writer(seconds);
		if (pids[i] < 0)
			return -1;
	}
	return 0;
}

/* ---- the checks ---------------------------------------------------------------- */

/*
 * 3 x CPUs + 3 writers flood the console; a CPU-bound spinner among them
 * measures its own longest wait, and each writer reports its own: none may
 * wait longer than WAIT_BOUND_TICKS.
 */
static void t_runnable_tasks_get_a_cpu_under_console_flood(void)
{
	int n = 3 * ncpus() + 3, pids[64], st, spinner;
	long long worst = 0, w;

	CHECK(n <= 64);
	CHECK(start_writers(pids, n, flood_seconds) == 0);
	if ((spinner = fork()) == 0) {
		int64_t end = now_ms() + flood_seconds * 1000;

		while (now_ms() < end)
			;
		w = my_wait_max_ticks();
		exit(w < 0 ? 255 : w > 254 ? 254 : (int)w);
	}
	CHECK(spinner > 0);
	for (int i = 0; i < n; i++) {
		CHECK(waitpid(pids[i], &st, 0) == pids[i] && WIFEXITED(st));
		w = WEXITSTATUS(st);
		CHECK(w != 255);
		if (w > worst)
			worst = w;
	}
	CHECK(waitpid(spinner, &st, 0) == spinner && WIFEXITED(st));
	w = WEXITSTATUS(st);
	printf("loadtest: longest wait for a CPU: writers %lld ticks, spinner %lld ticks (bound %d)\n",
	       worst, w, wait_bound_ticks);
	CHECK(w != 255);
	CHECK(worst <= wait_bound_ticks);
	CHECK(w <= wait_bound_ticks);
}

/* SIGKILL one writer in the middle of the flood: it is reaped within KILL_BOUND_TICKS of every CPU. */
static void t_killed_writer_is_gone_within_a_second(void)
{
	int n = 3 * ncpus() + 3, pids[64], st, nt;
	long long t0[MAX_TICK_CPUS], t1[MAX_TICK_CPUS], ticks;
	int64_t ms0;

	CHECK(n <= 64);
	CHECK(start_writers(pids, n, flood_seconds + 2) == 0);
	msleep(500);
	nt = read_ticks(t0);
	ms0 = now_ms();
	CHECK(nt > 0);
	CHECK(kill(pids[0], SIGKILL) == 0);
	CHECK(waitpid(pids[0], &st, 0) == pids[0]);
	CHECK(read_ticks(t1) == nt);
	ticks = least_ticks_between(t0, t1, nt);
	printf("loadtest: killed writer reaped after %lld ticks (%lld ms; bound %d ticks)\n",
	       ticks, (long long)(now_ms() - ms0), KILL_BOUND_TICKS);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	for (int i = 1; i < n; i++)
		kill(pids[i], SIGKILL);
	for (int i = 1; i < n; i++)
		waitpid(pids[i], &st, 0);
	CHECK(ticks <= KILL_BOUND_TICKS);
}

static volatile int alarms;

static void on_alarm(int sig)
{
	alarms++;
}

void restore_old(void);
__asm__(".text\nrestore_old: popl %eax\n movl $119, %eax\n int $0x80\n");   /* sigreturn */

/*
 * A handler without SA_RESTART interrupts a console write much bigger than
 * the transmit ring: write() returns the bytes it took, more than none and
 * fewer than asked (Linux's n_tty_write answers the same).
 */
static void t_console_write_cut_by_signal_returns_partial_count(void)
{
	struct k_sigaction sa = { (uint32_t)on_alarm, SA_RESTORER, (uint32_t)restore_old, 0 };
	struct { int32_t isec, iusec, vsec, vusec; } it = { 0, 0, 0, 20000 };    /* once, in 20 ms */
	static char big[4 * BIG];
	long r;

	for (int i = 0; i < (int)sizeof(big); i++)
		big[i] = (i % 64 == 63) ? '\n' : '=';
	CHECK(syscall(__NR_rt_sigaction, SIGALRM, &sa, 0, SETSIZE) == 0);
	CHECK(syscall(__NR_setitimer, ITIMER_REAL, &it, 0) == 0);
	r = write(1, big, sizeof(big));
	printf("\nloadtest: write of %u bytes cut by SIGALRM returned %ld\n", (unsigned)sizeof(big), r);
	CHECK(alarms == 1);
	CHECK(r > 0 && r < (long)sizeof(big));
}

static int setting(const char *name, int otherwise)
{
	char *v = getenv(name);

	return v && *v ? atoi(v) : otherwise;
}

int main(void)
{
	flood_seconds = setting("loadtest_seconds", flood_seconds);
	wait_bound_ticks = setting("loadtest_wait_ticks", wait_bound_ticks);
	gt_start("loadtest");
	fill_flood();
	printf("loadtest: %d CPUs, %d writers for %d s\n", ncpus(), 3 * ncpus() + 3, flood_seconds);
	gt_run("runnable_tasks_get_a_cpu_under_console_flood", t_runnable_tasks_get_a_cpu_under_console_flood);
	gt_run("killed_writer_is_gone_within_a_second", t_killed_writer_is_gone_within_a_second);
	gt_run("console_write_cut_by_signal_returns_partial_count",
	    t_console_write_cut_by_signal_returns_partial_count);
	gt_finish();
}
