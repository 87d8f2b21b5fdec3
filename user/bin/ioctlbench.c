/*
 * ioctlbench: what serializing ioctl() under the Big Kernel Lock costs, and
 * what the May 2004 proposal ("Unserializing ioctl() system calls": let a
 * driver that manages its own concurrency be called without the BKL) buys.
 *
 *   ioctlbench [-d bkl|own|serialized|all] [-p PROCS] [-n CALLS] [-w SPINS]
 *              [-s SLEEP_US] [-r REPEAT]
 *   ioctlbench -l [-n N]
 *
 * The throughput runs start PROCS workers (default: one per CPU), each
 * pinned to its own CPU and holding its own open file, which together make
 * CALLS BENCH_UPDATE ioctls apiece on a bench device (kernel/uapi/bench.h):
 *   bkl         /dev/bench_bkl, which relies on the BKL (serialized);
 *   own         /dev/bench_own, which has FOP_UNLOCKED_IOCTL (unlocked);
 *   serialized  /dev/bench_own with /proc/sys/kernel/ioctl_mode set to
 *               "serialized" for the run: the 2.6.6 world, flag or not.
 * Each update spins SPINS loop iterations inside the driver; with -s it also
 * sleeps, which drops the BKL and lets another holder in (and, on the
 * BKL-reliant device, loses updates: the BKL protects only until you sleep).
 *
 * -l measures latencies instead: a null syscall (getpid), an ioctl with
 * and without the BKL, an uncontended BKL pair (with and without its hold
 * timing, /proc/sys/kernel/bkl_timing) next to a spinlock pair,
 * a context switch (pipe ping-pong on one CPU), and fork+exec+exit.
 *
 * Output is one "ioctlbench: KIND key=value ..." line per result, which
 * tools/bench.py (make bench) parses. Exit status 1 if a run's counts do
 * not add up (the device's own call counter disagrees with the calls made).
 */
#include <errno.h>
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

#define MAX_PROCS 64
#define MAX_REPEAT 15
#define MODE_FILE "/proc/sys/kernel/ioctl_mode"
#define TIMING_FILE "/proc/sys/kernel/bkl_timing"

struct config {
	unsigned calls, spins, sleep_us;
	int procs, repeat;
};

/* What a worker sends back through its pipe when it is done. */
struct worker_result {
	int cpu;
	unsigned calls_done;
	int error;                      /* errno of the first failed ioctl, or 0 */
	unsigned long long ns;          /* its own time from first to last call */
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned)ts.tv_nsec;
}

/* Events per second; the C library's printf has no floating point, so integers throughout. */
static unsigned long long per_second(unsigned long long events, unsigned long long ns)
{
	return ns ? events * 1000000000ull / ns : 0;
}

static int online_cpus(void)
{
	unsigned mask[8] = { 0 };
	int n = 0;

	if (sched_getaffinity(0, sizeof(mask), mask) < 0)
		return 1;
	for (int i = 0; i < 256; i++)
		n += (mask[i / 32] >> (i % 32)) & 1;
	return n ? n : 1;
}

/* The n-th online CPU's number, so that workers land on distinct CPUs. */
static int nth_cpu(int n)
{
	unsigned mask[8] = { 0 };
	int seen = 0;

	sched_getaffinity(0, sizeof(mask), mask);
	for (int i = 0; i < 256; i++)
		if ((mask[i / 32] >> (i % 32)) & 1 && seen++ == n)
			return i;
	return 0;
}

static int pin_to(int cpu)
{
	unsigned mask[8] = { 0 };

	mask[cpu / 32] = 1u << (cpu % 32);
	return sched_setaffinity(0, sizeof(mask), mask);
}

/* ---- the /proc/sys/kernel knobs: the ioctl policy, BKL hold timing ---------------- */

static int read_knob(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int write_knob(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, value, strlen(value)) == (long)strlen(value);
	close(fd);
	return ok ? 0 : -1;
}

static int read_policy(char *buf, int size) { return read_knob(MODE_FILE, buf, size); }
static int write_policy(const char *mode) { return write_knob(MODE_FILE, mode); }

/* ---- one throughput run ---------------------------------------------------------- */

static void worker(const char *dev, int index, const struct config *c, int ready_fd, int go_fd,
		   int result_fd)
{
	struct bench_work w = { c->spins, c->sleep_us };
	struct worker_result r = { nth_cpu(index % online_cpus()), 0, 0, 0 };
	unsigned long long start;
	int fd;
	char b = 0;

	pin_to(r.cpu);
	fd = open(dev, O_RDWR);         /* a file of its own: no shared reference count */
	if (fd < 0)
		r.error = errno;
	write(ready_fd, &b, 1);
	read(go_fd, &b, 1);             /* all start together */
	start = now_ns();
	while (fd >= 0 && r.calls_done < c->calls) {
		if (ioctl(fd, BENCH_UPDATE, &w) < 0) {
			r.error = errno;
			break;
		}
		r.calls_done++;
	}
	r.ns = now_ns() - start;
	write(result_fd, &r, sizeof(r));
	exit(0);
}

struct run_result {
	unsigned long long ns;          /* wall time of the whole run */
	unsigned long long calls, counted, counter;
	unsigned long long per_cpu[MAX_PROCS];  /* calls per second of each worker */
	int cpu[MAX_PROCS];
	int error;
};

static int device_stats(const char *dev, unsigned cmd, struct bench_stats *st)
{
	int fd = open(dev, O_RDWR), r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, cmd, st);
	close(fd);
	return r;
}

static int collect(int procs, int result_fd, struct run_result *out)
{
	for (int i = 0; i < procs; i++) {
		struct worker_result r;

		if (read(result_fd, &r, sizeof(r)) != sizeof(r))
			return -1;
		out->calls += r.calls_done;
		if (r.error && !out->error)
			out->error = r.error;
		out->cpu[i] = r.cpu;
		out->per_cpu[i] = per_second(r.calls_done, r.ns);
	}
	return 0;
}

static int one_run(const char *dev, const struct config *c, struct run_result *out)
{
	int ready[2], go[2], res[2], st;
	unsigned long long start;
	struct bench_stats stats;
	char b[MAX_PROCS];

	memset(out, 0, sizeof(*out));
	if (device_stats(dev, BENCH_RESET, &stats) < 0 || pipe(ready) < 0 || pipe(go) < 0 ||
	    pipe(res) < 0)
		return -1;
	for (int i = 0; i < c->procs; i++)
		if (fork() == 0)
			worker(dev, i, c, ready[1], go[0], res[1]);
	for (int i = 0; i < c->procs; i++)
		read(ready[0], b, 1);
	memset(b, 'g', sizeof(b));
	start = now_ns();
	write(go[1], b, c->procs);
	if (collect(c->procs, res[0], out) < 0)
		out->error = EIO;
	out->ns = now_ns() - start;
	while (wait(&st) > 0)
		;
	for (int i = 0; i < 2; i++) {
		close(ready[i]);
		close(go[i]);
		close(res[i]);
	}
	if (device_stats(dev, BENCH_READ, &stats) < 0)
		return -1;
	out->counted = stats.calls;
	out->counter = stats.counter;
	return 0;
}

static void print_run(const char *label, const char *policy, const struct config *c,
		      const struct run_result *r)
{
	unsigned long long cps = per_second(r->calls, r->ns);

	printf("ioctlbench: run dev=%s policy=%s procs=%d cpus=%d calls=%llu spins=%u sleep_us=%u "
	       "ns=%llu cps=%llu counted=%llu lost=%llu per_cpu=", label, policy, c->procs,
	       online_cpus(), r->calls, c->spins, c->sleep_us, r->ns, cps, r->counted,
	       r->counted - r->counter);
	for (int i = 0; i < c->procs; i++)
		printf("%s%d:%llu", i ? "," : "", r->cpu[i], r->per_cpu[i]);
	printf("\n");
}

static int compare_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* REPEAT runs on one device under one policy; the median throughput. 0 if the counts add up. */
static int bench_device(const char *label, const char *dev, const char *policy,
			const struct config *c)
{
	unsigned long long cps[MAX_REPEAT];
	struct run_result r;
	int bad = 0;

	for (int i = 0; i < c->repeat; i++) {
		if (one_run(dev, c, &r) < 0) {
			fprintf(stderr, "ioctlbench: %s: %s\n", dev, strerror(errno));
			return 1;
		}
		print_run(label, policy, c, &r);
		if (r.error) {
			fprintf(stderr, "ioctlbench: %s: an ioctl failed: %s\n", dev, strerror(r.error));
			bad = 1;
		}
		if (r.counted != r.calls || r.calls != (unsigned long long)c->procs * c->calls) {
			fprintf(stderr, "ioctlbench: %s: made %llu calls, the device counted %llu\n",
				dev, r.calls, r.counted);
			bad = 1;
		}
		cps[i] = per_second(r.calls, r.ns);
	}
	qsort(cps, c->repeat, sizeof(cps[0]), compare_u64);
	printf("ioctlbench: median dev=%s policy=%s procs=%d cpus=%d sleep_us=%u cps=%llu\n", label,
	       policy, c->procs, online_cpus(), c->sleep_us, cps[c->repeat / 2]);
	return bad;
}

static int bench_serialized(const struct config *c)
{
	char old[32];
	int bad;

	if (read_policy(old, sizeof(old)) < 0 || write_policy("serialized") < 0) {
		fprintf(stderr, "ioctlbench: cannot switch %s: %s\n", MODE_FILE, strerror(errno));
		return 1;
	}
	bad = bench_device("serialized", "/dev/bench_own", "serialized", c);
	write_policy(old);
	return bad;
}

static int throughput(const char *which, const struct config *c)
{
	char policy[32] = "unknown";
	int all = strcmp(which, "all") == 0, bad = 0;

	read_policy(policy, sizeof(policy));
	if (all || strcmp(which, "bkl") == 0)
		bad |= bench_device("bkl", "/dev/bench_bkl", policy, c);
	if (all || strcmp(which, "own") == 0)
		bad |= bench_device("own", "/dev/bench_own", policy, c);
	if (all || strcmp(which, "serialized") == 0)
		bad |= bench_serialized(c);
	return bad;
}

/* ---- latencies ------------------------------------------------------------------- */

static void report(const char *name, unsigned long long ns, unsigned long long ops)
{
	unsigned long long tenths = ops ? ns * 10 / ops : 0;

	printf("ioctlbench: latency name=%s ops=%llu ns_per_op=%llu.%llu\n", name, ops, tenths / 10,
	       tenths % 10);
}

static void lat_getpid(unsigned n)
{
	unsigned long long start = now_ns();

	for (unsigned i = 0; i < n; i++)
		getpid();
	report("getpid", now_ns() - start, n);
}

static int lat_ioctl(const char *name, const char *dev, unsigned n)
{
	struct bench_work w = { 0, 0 };
	unsigned long long start;
	int fd = open(dev, O_RDWR);

	if (fd < 0)
		return -1;
	start = now_ns();
	for (unsigned i = 0; i < n; i++)
		ioctl(fd, BENCH_UPDATE, &w);
	report(name, now_ns() - start, n);
	close(fd);
	return 0;
}

static int lock_cost(struct bench_lock_cost *c)
{
	int fd = open("/dev/bench_own", O_RDWR), r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, BENCH_LOCK_COST, c);
	close(fd);
	return r;
}

/* The BKL pair with its hold timing (the default) and without (bkl_timing=0), and a spinlock pair. */
static int lat_lock_pairs(unsigned n)
{
	struct bench_lock_cost timed = { n, 0, 0, 0 }, untimed = { n, 0, 0, 0 };
	char old[8] = "1";
	int r;

	read_knob(TIMING_FILE, old, sizeof(old));
	if (write_knob(TIMING_FILE, "1") < 0 || lock_cost(&timed) < 0)
		return -1;
	r = write_knob(TIMING_FILE, "0") < 0 ? -1 : lock_cost(&untimed);
	write_knob(TIMING_FILE, old);
	if (r < 0)
		return -1;
	report("bkl_pair", timed.bkl_ns, n);
	report("bkl_pair_untimed", untimed.bkl_ns, n);
	report("spinlock_pair", timed.spin_ns < untimed.spin_ns ? timed.spin_ns : untimed.spin_ns, n);
	return 0;
}

/* Two processes on one CPU pass a byte back and forth: each pass is one switch. */
static void lat_context_switch(unsigned rounds)
{
	int ab[2], ba[2], pid, st;
	unsigned long long start;
	char b = 0;

	pipe(ab);
	pipe(ba);
	pin_to(nth_cpu(0));
	pid = fork();
	if (pid == 0) {
		for (unsigned i = 0; i < rounds; i++) {
			read(ab[0], &b, 1);
			write(ba[1], &b, 1);
		}
		exit(0);
	}
	start = now_ns();
	for (unsigned i = 0; i < rounds; i++) {
		write(ab[1], &b, 1);
		read(ba[0], &b, 1);
	}
	report("context_switch", now_ns() - start, 2ull * rounds);
	waitpid(pid, &st, 0);
	for (int i = 0; i < 2; i++) {
		close(ab[i]);
		close(ba[i]);
	}
}

static void lat_fork_exec(unsigned n)
{
	char *argv[] = { "true", NULL };
	unsigned long long start = now_ns();
	int st;

	for (unsigned i = 0; i < n; i++) {
		int pid = fork();

		if (pid == 0) {
			execv("/bin/true", argv);
			exit(127);
		}
		waitpid(pid, &st, 0);
	}
	report("fork_exec_exit", now_ns() - start, n);
}

static int latencies(unsigned n)
{
	int bad = 0;

	lat_getpid(n);
	bad |= lat_ioctl("ioctl_unlocked", "/dev/bench_own", n) < 0;
	bad |= lat_ioctl("ioctl_bkl", "/dev/bench_bkl", n) < 0;
	if (lat_lock_pairs(n * 5) < 0) {
		fprintf(stderr, "ioctlbench: BENCH_LOCK_COST: %s\n", strerror(errno));
		bad = 1;
	}
	lat_context_switch(n / 10 ? n / 10 : 1);
	lat_fork_exec(n / 500 ? n / 500 : 1);
	return bad;
}

static int usage(void)
{
	fprintf(stderr, "usage: ioctlbench [-d bkl|own|serialized|all] [-p PROCS] [-n CALLS] "
		"[-w SPINS] [-s SLEEP_US] [-r REPEAT]\n       ioctlbench -l [-n N]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct config c = { 2000, 2000, 0, online_cpus(), 3 };
	const char *which = "all";
	int opt, lat = 0, n_given = 0;

	while ((opt = getopt(argc, argv, "d:p:n:w:s:r:l")) != -1) {
		if (opt == 'd')
			which = optarg;
		else if (opt == 'p')
			c.procs = atoi(optarg);
		else if (opt == 'n')
			c.calls = strtoul(optarg, NULL, 0), n_given = 1;
		else if (opt == 'w')
			c.spins = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			c.sleep_us = strtoul(optarg, NULL, 0);
		else if (opt == 'r')
			c.repeat = atoi(optarg);
		else if (opt == 'l')
			lat = 1;
		else
			return usage();
	}
	if (optind != argc || c.procs < 1 || c.procs > MAX_PROCS || c.repeat < 1 ||
	    c.repeat > MAX_REPEAT || c.calls < 1)
		return usage();
	if (lat)
		return latencies(n_given ? c.calls : 20000);
	if (strcmp(which, "all") && strcmp(which, "bkl") && strcmp(which, "own") &&
	    strcmp(which, "serialized"))
		return usage();
	return throughput(which, &c);
}
