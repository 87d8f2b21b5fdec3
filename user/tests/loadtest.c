/*
 * loadtest: is smpix still responsive when every CPU is busy writing to the
 * console? More writers than CPUs (3 x CPUs + 3) flood /dev/console with
 * 64 KiB writes while the checks below look at what users feel:
 *  - every runnable task gets a CPU soon (its longest wait, in ticks of
 *    the CPU it waited on: /proc/PID/sched's smpix.wait_max_ticks);
 *  - a CPU-bound task beside writers on the other CPUs keeps running: the
 *    scheduler's wait does not see a task stopped by interrupts;
 *  - a writer killed with SIGKILL is gone within a second;
 *  - a big console write cut short by a signal returns what it wrote.
 * Waits are measured in the ticks that found their CPU running (a tick that
 * comes after the host stopped the vCPU for a while does not count:
 * kernel/time/timer.c), so a busy host machine stretches them little and
 * the bounds are the kernel's own. Run it
 * as init= or from the shell; three settings come from the environment (as
 * init, from the kernel's command line): loadtest_seconds (2),
 * loadtest_wait_ticks, the bound on a wait (20), and loadtest_stall_ticks,
 * the bound on a CPU-bound task's stall (the wait's; 0: not measured).
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
#define UNTIL_KILLED 60                 /* seconds: a writer meant to be killed ends by itself only if nobody does */

static char flood[BIG];
static int flood_seconds = 2;
static int wait_bound_ticks = WAIT_BOUND_TICKS;
static int stall_bound_ticks = WAIT_BOUND_TICKS;

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

static int make_pipe(int fds[2])
{
	return syscall(__NR_pipe, fds);
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

/* What a writer tells its parent through a pipe, if given one: once when it starts, once when it ends. */
struct writer_note {
	int64_t ms;             /* now_ms(), by the writer's own clock */
	long writes;            /* write() calls made so far */
	long last;              /* the last one's answer */
};

/*
 * A writer: floods the console until its time is up; exits with its longest
 * wait (ticks, capped). Notes to note_fd, unless it is -1.
 */
static void __attribute__((noreturn)) writer(int seconds, int note_fd)
{
	struct writer_note note = { now_ms(), 0, 0 };
	int64_t end = note.ms + seconds * 1000;
	long long w;

	if (note_fd >= 0)
		write(note_fd, &note, sizeof(note));
	while (now_ms() < end) {
		note.last = write(1, flood, BIG);
		note.writes++;
	}
	if (note_fd >= 0) {
		note.ms = now_ms();
		write(note_fd, &note, sizeof(note));
	}
	w = my_wait_max_ticks();
	exit(w < 0 ? 255 : w > 254 ? 254 : (int)w);
}

/* n writers, each allowed the CPUs in mask (0: any); pids[] of those started (0 for the rest). */
static int start_writers(int *pids, int n, int seconds, uint32_t mask)
{
	for (int i = 0; i < n; i++)
		pids[i] = 0;
	for (int i = 0; i < n; i++) {
		if ((pids[i] = fork()) == 0) {
			if (mask)
				sched_setaffinity(0, sizeof(mask), &mask);
			writer(seconds, -1);
		}
		if (pids[i] < 0) {
			pids[i] = 0;
			return -1;
		}
	}
	return 0;
}

static void kill_and_reap(const int *pids, int n)
{
	int st;

	for (int i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], &st, 0);
}

/* A wait status in words, for the log. */
static const char *status_words(int st, char *buf, int size)
{
	if (WIFSIGNALED(st))
		snprintf(buf, size, "0x%x: killed by signal %d", st, WTERMSIG(st));
	else if (WIFEXITED(st))
		snprintf(buf, size, "0x%x: exited with status %d", st, WEXITSTATUS(st));
	else
		snprintf(buf, size, "0x%x", st);
	return buf;
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
	CHECK(start_writers(pids, n, flood_seconds, 0) == 0);
	if ((spinner = fork()) == 0) {
		int64_t end = now_ms() + flood_seconds * 1000;

		while (now_ms() < end)
			;
		w = my_wait_max_ticks();
		exit(w < 0 ? 255 : w > 254 ? 254 : (int)w);
	}
	CHECK(spinner > 0);
	for (int i = 0; i < n; i++) {
		char why[64];

		CHECK(waitpid(pids[i], &st, 0) == pids[i]);
		if (!WIFEXITED(st))
			printf("loadtest: writer %d: wait status %s\n", pids[i], status_words(st, why, sizeof(why)));
		CHECK(WIFEXITED(st));
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

/*
 * A CPU-bound task pinned to each CPU in turn, with two writers on the
 * other CPUs: the longest it went without a look at the clock, counted in
 * its own CPU's ticks, is no longer than a wait for a CPU may be. The
 * scheduler's wait (above) cannot see this: a task stopped by interrupts
 * is running, as far as it knows. The console's transmit interrupt once
 * kept the CPU that takes it (CPU 0) busy for as long as a writer
 * elsewhere kept the ring full, and the task there ran not one instruction
 * for seconds (drivers/tty/serial_tx.c).
 */
static void t_cpu_bound_task_keeps_its_cpu_beside_console_flood(void)
{
	int n = ncpus(), pids[2], spinner, st;
	uint32_t all = (n >= 32) ? ~0u : (1u << n) - 1;
	long long worst = 0;

	if (stall_bound_ticks == 0) {
		printf("loadtest: stalls not measured (loadtest_stall_ticks=0)\n");
		return;
	}
	for (int cpu = 0; cpu < n && n > 1 && cpu < MAX_TICK_CPUS; cpu++) {
		uint32_t mine = 1u << cpu;
		long long stall;

		CHECK(start_writers(pids, 2, 1, all & ~mine) == 0);
		if ((spinner = fork()) == 0) {
			long long then[MAX_TICK_CPUS], now[MAX_TICK_CPUS], longest = 0;
			int64_t end, t, looked;
			bool last;

			sched_setaffinity(0, sizeof(mine), &mine);
			if (read_ticks(then) <= cpu)
				exit(255);
			looked = now_ms();
			end = looked + 1000;
			/*
			 * The ticks every 10 ms, and once more after the last look at
			 * the clock: a stall anywhere in the loop shows in the next reading.
			 */
			do {
				t = now_ms();
				last = t >= end;
				if (t - looked < 10 && !last)
					continue;
				if (read_ticks(now) <= cpu)
					exit(255);
				if (now[cpu] - then[cpu] > longest)
					longest = now[cpu] - then[cpu];
				then[cpu] = now[cpu];
				looked = t;
			} while (!last);
			exit(longest > 254 ? 254 : (int)longest);
		}
		CHECK(spinner > 0);
		CHECK(waitpid(spinner, &st, 0) == spinner && WIFEXITED(st));
		kill_and_reap(pids, 2);
		stall = WEXITSTATUS(st);
		printf("loadtest: CPU-bound task on CPU %d, writers on the others: longest stall %lld ticks (bound %d)\n",
		       cpu, stall, stall_bound_ticks);
		CHECK(stall != 255);
		if (stall > worst)
			worst = stall;
	}
	CHECK(worst <= stall_bound_ticks);
}

/*
 * SIGKILL one writer in the middle of the flood: it is reaped within
 * KILL_BOUND_TICKS of every CPU. The writers flood until they are killed:
 * one that ended on its own time would make a parent slow to get to the
 * kill (the parent once took 5 to 9 s to fork them, drivers/tty/serial_tx.c)
 * look like a kill that failed. The victim notes through a pipe when it
 * started, and when it ended if it ended by itself, for the log.
 */
static void t_killed_writer_is_gone_within_a_second(void)
{
	int n = 3 * ncpus() + 3, pids[64], st, nt, sent, waited, fds[2];
	long long t0[MAX_TICK_CPUS], t1[MAX_TICK_CPUS], ticks = -1;
	struct writer_note notes[2];
	int64_t forked, killed, reaped;
	long got;
	char why[64];

	CHECK(n <= 64);
	CHECK(make_pipe(fds) == 0);
	forked = now_ms();
	if ((pids[0] = fork()) == 0) {
		syscall(__NR_close, fds[0]);
		writer(UNTIL_KILLED, fds[1]);
	}
	syscall(__NR_close, fds[1]);    /* the victim's end alone: it ends at the victim's death */
	CHECK(pids[0] > 0);
	if (start_writers(pids + 1, n - 1, UNTIL_KILLED, 0) < 0) {
		kill_and_reap(pids, n);
		CHECK(!"fork failed");
	}
	msleep(500);
	nt = read_ticks(t0);
	killed = now_ms();
	sent = kill(pids[0], SIGKILL);
	waited = waitpid(pids[0], &st, 0);
	reaped = now_ms();
	if (read_ticks(t1) == nt)
		ticks = least_ticks_between(t0, t1, nt);
	/* The others too, before any check: writers left behind would flood the next test's console. */
	kill_and_reap(pids + 1, n - 1);
	got = read(fds[0], notes, sizeof(notes));
	syscall(__NR_close, fds[0]);

	printf("loadtest: killed writer reaped after %lld ticks (%lld ms; bound %d ticks)\n",
	       ticks, (long long)(reaped - killed), KILL_BOUND_TICKS);
	printf("loadtest: killed writer: wait status %s; by the parent's clock, forked at 0 ms, killed at +%lld ms, "
	       "reaped at +%lld ms\n", status_words(st, why, sizeof(why)), (long long)(killed - forked),
	       (long long)(reaped - forked));
	if (got >= (long)sizeof(notes[0]))
		printf("loadtest: killed writer, by its own clock: started at +%lld ms\n", (long long)(notes[0].ms - forked));
	if (got == (long)sizeof(notes))
		printf("loadtest: killed writer ended by itself at +%lld ms, before the kill, after %ld writes "
		       "(the last returned %ld)\n", (long long)(notes[1].ms - forked), notes[1].writes, notes[1].last);
	CHECK(nt > 0);
	CHECK(sent == 0);
	CHECK(waited == pids[0]);
	CHECK(ticks >= 0);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
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
 * fewer than asked (Linux's n_tty_write answers the same). It must be the
 * only writer: one that waits for the tty's write lock when the signal
 * comes has taken nothing, and gets -EINTR, as on Linux (this test once
 * failed so, behind the writers a failed kill check had left flooding).
 */
static void t_console_write_cut_by_signal_returns_partial_count(void)
{
	struct k_sigaction sa = { (uint32_t)on_alarm, SA_RESTORER, (uint32_t)restore_old, 0 };
	struct { int32_t isec, iusec, vsec, vusec; } it = { 0, 0, 0, 20000 };    /* once, in 20 ms */
	static char big[4 * BIG];
	int64_t t0, took;
	long r;

	for (int i = 0; i < (int)sizeof(big); i++)
		big[i] = (i % 64 == 63) ? '\n' : '=';
	CHECK(syscall(__NR_rt_sigaction, SIGALRM, &sa, 0, SETSIZE) == 0);
	CHECK(syscall(__NR_setitimer, ITIMER_REAL, &it, 0) == 0);
	t0 = now_ms();
	r = write(1, big, sizeof(big));
	took = now_ms() - t0;
	printf("\nloadtest: write of %u bytes cut by SIGALRM returned %ld after %lld ms (%d alarms)\n",
	       (unsigned)sizeof(big), r, (long long)took, alarms);
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
	stall_bound_ticks = setting("loadtest_stall_ticks", wait_bound_ticks);
	gt_start("loadtest");
	fill_flood();
	printf("loadtest: %d CPUs, %d writers for %d s\n", ncpus(), 3 * ncpus() + 3, flood_seconds);
	gt_run("runnable_tasks_get_a_cpu_under_console_flood", t_runnable_tasks_get_a_cpu_under_console_flood);
	gt_run("cpu_bound_task_keeps_its_cpu_beside_console_flood", t_cpu_bound_task_keeps_its_cpu_beside_console_flood);
	gt_run("killed_writer_is_gone_within_a_second", t_killed_writer_is_gone_within_a_second);
	gt_run("console_write_cut_by_signal_returns_partial_count",
	    t_console_write_cut_by_signal_returns_partial_count);
	gt_finish();
}
