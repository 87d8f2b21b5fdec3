/*
 * ioctlbench: what serializing ioctl() under the Big Kernel Lock costs, and
 * what the May 2004 proposal ("Unserializing ioctl() system calls": let a
 * driver that manages its own concurrency be called without the BKL) buys.
 *
 *   ioctlbench [-d bkl|own|serialized|all] [-p PROCS] [-n CALLS] [-w SPINS]
 *              [-s SLEEP_US] [-r REPEAT]
 *   ioctlbench -S [-m MODES] [-f PERCENTS] [-F PERCENTS] [-p MAXPROCS] [-t MS] [-w SPINS]
 *              [-s SLEEP_US] [-r ROUNDS]
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
 * -S measures scaling inside one boot, because two boots of the same kernel
 * under QEMU's TCG differ by 30% and more: comparing a 2-CPU boot with a
 * 1-CPU boot measures the host as much as the lock. In each of ROUNDS rounds
 * it runs every mode (-m, a comma list; default bkl,own,serialized) with 1,
 * 2, ... MAXPROCS workers (default: one per CPU; the order reverses every
 * other round, so that a slow minute of the host does not always fall on the
 * same worker count), each run lasting MS milliseconds of calls (default 300)
 * rather than a count of them, so that a run that collapses costs no more time
 * than one that scales. -f adds a mix for each percentage f: every worker
 * sends f% of its calls to /dev/bench_bkl and the rest to /dev/bench_own, the
 * same work on each, in a shuffled order (a throughput mix). -F adds the
 * same mixes phased, as a fork-join program: in each block of 1000 calls a
 * worker makes its f% BKL calls first, then the rest, then waits at a
 * barrier for all the others; this is the program Amdahl's law describes
 * (docs/performance.md, "Amdahl's law").
 * Each run prints one "point" line, with the BKL's hold and wait time at the
 * ioctl path's lock_kernel() site (/proc/bkl, timed: bkl_timing is set to 1
 * for the runs and put back after).
 *
 * -l measures latencies instead: a null syscall (getpid), an ioctl with
 * and without the BKL, an uncontended BKL pair (with its hold timing as by
 * default, one hold in 32; timing every hold; and none, see
 * /proc/sys/kernel/bkl_timing) next to a spinlock pair,
 * a context switch (pipe ping-pong on one CPU), and fork+exec+exit.
 *
 * Output is one "ioctlbench: KIND key=value ..." line per result, which
 * tools/bench/bench.py (make bench) parses. Exit status 1 if a run's counts do
 * not add up (the devices' own call counters disagree with the calls made).
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
#define MAX_ROUNDS 50
#define MAX_MODES 16
#define MAX_PHASED 16                   /* workers of a phased mix: a release pipe each */
#define MIX_BLOCK 100                   /* a mix sends exactly f of every 100 calls to the BKL device */
/*
 * A phased mix's block: f of every 1000 calls, then the barrier. Longer than
 * a shuffled block because each block start lines the workers up on the BKL
 * at once and each barrier waits for the slowest: with 100-call blocks (6 ms
 * under TCG) that cost 10-20% of the run at f = 10%, which is the machinery
 * and not the lock.
 */
#define PHASED_BLOCK 1000
/*
 * A timed run looks at the clock once every CLOCK_EVERY calls, not after
 * each: clock_gettime() is a system call here, about 3% of a call's time
 * under TCG. Read every call, it made the single-device runs (which give
 * Amdahl's model its t_bkl and t_own) 3% slower per call than the phased
 * mixes it predicts, which read it once a block; the model's serial share
 * came out too small and its prediction too high. One in 16 costs 0.2%, and
 * a run ends at most 15 calls late (its time is measured, so they count).
 */
#define CLOCK_EVERY 16
#define MODE_FILE "/proc/sys/kernel/ioctl_mode"
#define TIMING_FILE "/proc/sys/kernel/bkl_timing"
#define BKL_DEV "/dev/bench_bkl"
#define OWN_DEV "/dev/bench_own"

struct config {
	unsigned calls, spins, sleep_us, run_ms;
	int procs, repeat;
};

/*
 * What every worker of one run does: bkl_pct of its calls go to
 * /dev/bench_bkl and the rest to /dev/bench_own (100 for the BKL-reliant
 * device alone, 0 for the flagged one alone), each doing `work`.
 */
struct job {
	const char *label;              /* bkl, own, serialized, mix or phased: what the output calls it */
	int bkl_pct;
	int phased;                     /* the BKL calls first in each block, then a barrier */
	int serialized;                 /* run with ioctl_mode=serialized */
	int procs;
	unsigned calls;                 /* calls per worker, or 0: call until the deadline */
	unsigned long long run_ns;      /* with calls == 0, how long to call */
	unsigned seed;                  /* for the order of a mix's calls */
	struct bench_work work;
};

/* What a worker sends back through its pipe when it is done. */
struct worker_result {
	int cpu;
	unsigned calls_done;
	unsigned bkl_calls;             /* of which to /dev/bench_bkl */
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

/*
 * The ioctl path's BKL site in /proc/bkl (fs/ioctl/vfs_ioctl.c, driver_ioctl):
 * cycles held and waited there since boot, in nanoseconds. Two samples around
 * a run give the BKL's share of it. All zero if /proc/bkl cannot be read.
 */
struct bkl_sample {
	unsigned long long hold_ns, wait_ns;
};

static unsigned long long cycles_to_ns(unsigned long long cycles, unsigned long long hz)
{
	return hz >= 1000000 ? cycles * 1000 / (hz / 1000000) : 0;
}

static void bkl_sample(struct bkl_sample *s)
{
	unsigned long long hz = 0, v[7];
	char line[256], *p;
	FILE *f = fopen("/proc/bkl", "r");

	s->hold_ns = s->wait_ns = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "tsc_hz:", 7) == 0)
			hz = strtoull(line + 7, NULL, 10);
		line[strcspn(line, "\n")] = 0;
		p = strstr(line, " driver_ioctl");
		if (!p || p[13])
			continue;
		p = line;
		/* acquired contended reacquired wait_cycles wait_max hold_cycles hold_max site */
		for (int i = 0; i < 7; i++)
			v[i] = strtoull(p, &p, 10);
		s->wait_ns += cycles_to_ns(v[3], hz);
		s->hold_ns += cycles_to_ns(v[5], hz);
	}
	fclose(f);
}

/* ---- one throughput run ---------------------------------------------------------- */

static unsigned xorshift(unsigned *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* Which of the next MIX_BLOCK calls go to the BKL device: exactly pct of them, shuffled. */
static void mix_block(unsigned char *to_bkl, int pct, unsigned *seed)
{
	for (int i = 0; i < MIX_BLOCK; i++)
		to_bkl[i] = i < pct * MIX_BLOCK / 100;
	for (int i = MIX_BLOCK - 1; i > 0; i--) {
		int k = xorshift(seed) % (i + 1);
		unsigned char t = to_bkl[i];

		to_bkl[i] = to_bkl[k];
		to_bkl[k] = t;
	}
}

/* The BKL calls first, then the others: the two phases of a fork-join block. */
static void phased_block(unsigned char *to_bkl, int pct)
{
	for (int i = 0; i < PHASED_BLOCK; i++)
		to_bkl[i] = i < pct * PHASED_BLOCK / 100;
}

static int block_size(const struct job *j)
{
	return j->phased ? PHASED_BLOCK : MIX_BLOCK;
}

/*
 * The barrier at the end of each block of a phased mix, made of pipes (smpix
 * has no shared memory between processes): every worker but the first writes
 * a byte to `arrive` and waits for one on its own release pipe; the first
 * reads the others' bytes, then writes each a byte: 1 to go on, 0 to stop (it
 * alone looks at the clock, so all stop after the same block). Nobody can
 * arrive at the next barrier before the first has read every arrival at this
 * one, so arrivals never mix. The reads poll (O_NONBLOCK) rather than sleep:
 * each worker has a CPU of its own to spin on, and the barrier then costs no
 * wakeup across CPUs (tens of microseconds under TCG). Where vCPUs outnumber
 * the host's cores (-smp 4 on 2) a spinning worker takes host time from the
 * ones it waits for; the BKL's own hand-offs cost far more there.
 */
struct barrier {
	int arrive[2];
	int release[MAX_PHASED][2];
};

static char poll_byte(int fd)
{
	char b;

	while (read(fd, &b, 1) != 1)
		;
	return b;
}

/* 1: go on with another block; 0: stop. */
static int barrier_wait(struct barrier *br, int index, int procs, unsigned long long deadline)
{
	char go = 1;

	if (procs == 1)
		return now_ns() < deadline;
	if (index > 0) {
		write(br->arrive[1], &go, 1);
		return poll_byte(br->release[index][0]);
	}
	for (int i = 1; i < procs; i++)
		poll_byte(br->arrive[0]);
	go = now_ns() < deadline;
	for (int i = 1; i < procs; i++)
		write(br->release[i][1], &go, 1);
	return go;
}

static int barrier_open(struct barrier *br, int procs)
{
	if (pipe(br->arrive) < 0 || fcntl(br->arrive[0], F_SETFL, O_NONBLOCK) < 0)
		return -1;
	for (int i = 1; i < procs; i++)
		if (pipe(br->release[i]) < 0 || fcntl(br->release[i][0], F_SETFL, O_NONBLOCK) < 0)
			return -1;
	return 0;
}

static void barrier_close(struct barrier *br, int procs)
{
	for (int k = 0; k < 2; k++) {
		close(br->arrive[k]);
		for (int i = 1; i < procs; i++)
			close(br->release[i][k]);
	}
}

/* Before each block of block_size() calls: may the worker go on? Fills in the block's order. */
static int next_block(const struct job *j, struct worker_result *r, unsigned char *to_bkl, unsigned *seed,
		      struct barrier *br, int index, unsigned long long deadline)
{
	if (j->phased) {
		if (r->calls_done && !barrier_wait(br, index, j->procs, deadline))
			return 0;
		phased_block(to_bkl, j->bkl_pct);
	} else {
		mix_block(to_bkl, j->bkl_pct, seed);
	}
	return 1;
}

static void worker(const struct job *j, int index, int ready_fd, int go_fd, int result_fd,
		   struct barrier *br)
{
	struct worker_result r = { nth_cpu(index % online_cpus()), 0, 0, 0, 0 };
	unsigned seed = j->seed * 2654435761u + index * 40503u + 1;
	unsigned long long start, deadline = 0;
	unsigned char to_bkl[PHASED_BLOCK];
	int bkl_fd = -1, own_fd = -1;
	char b = 0;

	pin_to(r.cpu);
	/* Files of its own: no shared reference count. */
	if (j->bkl_pct > 0 && (bkl_fd = open(BKL_DEV, O_RDWR)) < 0)
		r.error = errno;
	if (j->bkl_pct < 100 && (own_fd = open(OWN_DEV, O_RDWR)) < 0)
		r.error = errno;
	write(ready_fd, &b, 1);
	read(go_fd, &deadline, sizeof(deadline));       /* all start together */
	start = now_ns();
	while (!r.error) {
		int fd;

		/* At least one call each, even for a worker that starts late; a phased one whole blocks. */
		if (j->calls ? r.calls_done >= j->calls :
		    !j->phased && r.calls_done && r.calls_done % CLOCK_EVERY == 0 && now_ns() >= deadline)
			break;
		if (r.calls_done % block_size(j) == 0 &&
		    !next_block(j, &r, to_bkl, &seed, br, index, deadline))
			break;
		fd = to_bkl[r.calls_done % block_size(j)] ? bkl_fd : own_fd;
		if (ioctl(fd, BENCH_UPDATE, &j->work) < 0) {
			r.error = errno;
			break;
		}
		r.bkl_calls += fd == bkl_fd;
		r.calls_done++;
	}
	r.ns = now_ns() - start;
	/* A worker whose call failed still keeps the others' barriers, until they stop. */
	while (j->phased && r.error && barrier_wait(br, index, j->procs, deadline))
		;
	write(result_fd, &r, sizeof(r));
	exit(0);
}

struct run_result {
	unsigned long long ns;          /* wall time of the whole run */
	unsigned long long calls, bkl_calls, counted, counter;
	unsigned long long hold_ns, wait_ns;    /* the BKL at the ioctl path's site, during the run */
	unsigned long long per_cpu[MAX_PROCS];  /* calls per second of each worker */
	int cpu[MAX_PROCS];
	int error;
};

/* BENCH_RESET or BENCH_READ on each device the job uses; the reads add up into *st. */
static int device_stats(const struct job *j, unsigned cmd, struct bench_stats *st)
{
	const char *devs[2] = { j->bkl_pct > 0 ? BKL_DEV : NULL, j->bkl_pct < 100 ? OWN_DEV : NULL };

	st->counter = st->calls = 0;
	for (int i = 0; i < 2; i++) {
		struct bench_stats one;
		int fd, r;

		if (!devs[i])
			continue;
		if ((fd = open(devs[i], O_RDWR)) < 0)
			return -1;
		r = ioctl(fd, cmd, &one);
		close(fd);
		if (r < 0)
			return -1;
		if (cmd == BENCH_READ) {
			st->counter += one.counter;
			st->calls += one.calls;
		}
	}
	return 0;
}

static int collect(int procs, int result_fd, struct run_result *out)
{
	for (int i = 0; i < procs; i++) {
		struct worker_result r;

		if (read(result_fd, &r, sizeof(r)) != sizeof(r))
			return -1;
		out->calls += r.calls_done;
		out->bkl_calls += r.bkl_calls;
		if (r.error && !out->error)
			out->error = r.error;
		out->cpu[i] = r.cpu;
		out->per_cpu[i] = per_second(r.calls_done, r.ns);
	}
	return 0;
}

static int one_run(const struct job *j, struct run_result *out)
{
	unsigned long long start, deadline[MAX_PROCS];
	struct bkl_sample before, after;
	struct bench_stats stats;
	struct barrier br;
	int ready[2], go[2], res[2], st;
	char b[MAX_PROCS];

	memset(out, 0, sizeof(*out));
	if (j->phased && (j->procs > MAX_PHASED || barrier_open(&br, j->procs) < 0))
		return -1;
	if (device_stats(j, BENCH_RESET, &stats) < 0 || pipe(ready) < 0 || pipe(go) < 0 ||
	    pipe(res) < 0)
		return -1;
	for (int i = 0; i < j->procs; i++)
		if (fork() == 0)
			worker(j, i, ready[1], go[0], res[1], &br);
	for (int i = 0; i < j->procs; i++)
		read(ready[0], b, 1);
	bkl_sample(&before);
	start = now_ns();
	for (int i = 0; i < j->procs; i++)
		deadline[i] = j->calls ? 0 : start + j->run_ns;
	write(go[1], deadline, j->procs * sizeof(deadline[0]));
	if (collect(j->procs, res[0], out) < 0)
		out->error = EIO;
	out->ns = now_ns() - start;
	bkl_sample(&after);
	out->hold_ns = after.hold_ns - before.hold_ns;
	out->wait_ns = after.wait_ns - before.wait_ns;
	while (wait(&st) > 0)
		;
	for (int i = 0; i < 2; i++) {
		close(ready[i]);
		close(go[i]);
		close(res[i]);
	}
	if (j->phased)
		barrier_close(&br, j->procs);
	if (device_stats(j, BENCH_READ, &stats) < 0)
		return -1;
	out->counted = stats.calls;
	out->counter = stats.counter;
	return 0;
}

/* The run under its policy: ioctl_mode=serialized for the job's length if it asks. */
static int run_job(const struct job *j, struct run_result *r)
{
	char old[32];
	int ret;

	if (!j->serialized)
		return one_run(j, r);
	if (read_policy(old, sizeof(old)) < 0 || write_policy("serialized") < 0) {
		fprintf(stderr, "ioctlbench: cannot switch %s: %s\n", MODE_FILE, strerror(errno));
		return -1;
	}
	ret = one_run(j, r);
	write_policy(old);
	return ret;
}

/* Did the run go as it should? 0 if so; what went wrong on stderr if not. */
static int check_run(const struct job *j, const struct run_result *r)
{
	int bad = 0;

	if (r->error) {
		fprintf(stderr, "ioctlbench: %s: an ioctl failed: %s\n", j->label, strerror(r->error));
		bad = 1;
	}
	if (r->counted != r->calls || (j->calls && r->calls != (unsigned long long)j->procs * j->calls)) {
		fprintf(stderr, "ioctlbench: %s: made %llu calls, the device counted %llu\n",
			j->label, r->calls, r->counted);
		bad = 1;
	}
	return bad;
}

static void print_per_cpu(const struct job *j, const struct run_result *r)
{
	for (int i = 0; i < j->procs; i++)
		printf("%s%d:%llu", i ? "," : "", r->cpu[i], r->per_cpu[i]);
	printf("\n");
}

/* ---- fixed-count runs: REPEAT runs per device, the median ----------------------------- */

static void print_run(const struct job *j, const char *policy, const struct run_result *r)
{
	printf("ioctlbench: run dev=%s policy=%s procs=%d cpus=%d calls=%llu spins=%u sleep_us=%u "
	       "ns=%llu cps=%llu counted=%llu lost=%llu per_cpu=", j->label, policy, j->procs,
	       online_cpus(), r->calls, j->work.spins, j->work.sleep_us, r->ns,
	       per_second(r->calls, r->ns), r->counted, r->counted - r->counter);
	print_per_cpu(j, r);
}

static int compare_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* REPEAT runs of one job; the median throughput. 0 if the counts add up. */
static int bench_device(const struct job *j, const char *policy, int repeat)
{
	unsigned long long cps[MAX_REPEAT];
	struct run_result r;
	int bad = 0;

	for (int i = 0; i < repeat; i++) {
		if (run_job(j, &r) < 0) {
			fprintf(stderr, "ioctlbench: %s: %s\n", j->label, strerror(errno));
			return 1;
		}
		print_run(j, policy, &r);
		bad |= check_run(j, &r);
		cps[i] = per_second(r.calls, r.ns);
	}
	qsort(cps, repeat, sizeof(cps[0]), compare_u64);
	printf("ioctlbench: median dev=%s policy=%s procs=%d cpus=%d sleep_us=%u cps=%llu\n", j->label,
	       policy, j->procs, online_cpus(), j->work.sleep_us, cps[repeat / 2]);
	return bad;
}

/* The job for a mode name: bkl, own, serialized, or (with pct) mix. -1 for an unknown name. */
static int make_job(const char *mode, int pct, const struct config *c, struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->label = mode;
	j->procs = c->procs;
	j->calls = c->calls;
	j->work.spins = c->spins;
	j->work.sleep_us = c->sleep_us;
	if (strcmp(mode, "bkl") == 0)
		j->bkl_pct = 100;
	else if (strcmp(mode, "serialized") == 0)
		j->serialized = 1;
	else if (strcmp(mode, "mix") == 0 || strcmp(mode, "phased") == 0)
		j->bkl_pct = pct, j->phased = mode[0] == 'p';
	else if (strcmp(mode, "own") != 0)
		return -1;
	return 0;
}

static int throughput(const char *which, const struct config *c)
{
	static const char *const modes[] = { "bkl", "own", "serialized" };
	char policy[32] = "unknown";
	int all = strcmp(which, "all") == 0, bad = 0;
	struct job j;

	read_policy(policy, sizeof(policy));
	for (int i = 0; i < 3; i++) {
		if (!all && strcmp(which, modes[i]) != 0)
			continue;
		make_job(modes[i], 0, c, &j);
		bad |= bench_device(&j, j.serialized ? "serialized" : policy, c->repeat);
	}
	return bad;
}

/* ---- scaling inside one boot: rounds of 1..MAXPROCS workers per mode (-S) -------------- */

/*
 * One line per run: the mode, how many workers in which round, how many calls
 * (bkl_calls of them to the BKL device) in how long, and how long the ioctl
 * path held and waited for the BKL meanwhile (summed over CPUs: a lock held
 * all the time shows hold_ns = ns).
 */
static void print_point(const struct job *j, const char *policy, int round, const struct run_result *r)
{
	printf("ioctlbench: point mode=%s f=%d policy=%s workers=%d cpus=%d round=%d spins=%u "
	       "sleep_us=%u ns=%llu calls=%llu bkl_calls=%llu cps=%llu hold_ns=%llu wait_ns=%llu "
	       "counted=%llu lost=%llu per_cpu=", j->label, j->bkl_pct, policy, j->procs, online_cpus(),
	       round, j->work.spins, j->work.sleep_us, r->ns, r->calls, r->bkl_calls,
	       per_second(r->calls, r->ns), r->hold_ns, r->wait_ns, r->counted, r->counted - r->counter);
	print_per_cpu(j, r);
}

static int scaling(struct job *jobs, int njobs, const struct config *c)
{
	char policy[32] = "unknown", timing[8] = "1";
	int bad = 0;

	read_policy(policy, sizeof(policy));
	read_knob(TIMING_FILE, timing, sizeof(timing));
	if (write_knob(TIMING_FILE, "1") < 0)
		fprintf(stderr, "ioctlbench: cannot switch on %s: no hold times\n", TIMING_FILE);
	for (int round = 1; round <= c->repeat; round++) {
		for (int m = 0; m < njobs; m++) {
			for (int k = 0; k < c->procs; k++) {
				struct job *j = &jobs[m];
				struct run_result r;

				j->procs = round % 2 ? k + 1 : c->procs - k;
				j->seed = round;
				if (run_job(j, &r) < 0) {
					fprintf(stderr, "ioctlbench: %s: %s\n", j->label, strerror(errno));
					bad = 1;
					goto out;
				}
				print_point(j, j->serialized ? "serialized" : policy, round, &r);
				bad |= check_run(j, &r);
			}
		}
	}
out:
	write_knob(TIMING_FILE, timing);
	return bad;
}

/* The next item of a comma list, cut off in place; NULL at the end. */
static char *next_item(char **list)
{
	char *item = *list, *comma;

	if (!item || !*item)
		return NULL;
	comma = strchr(item, ',');
	*list = comma ? comma + 1 : NULL;
	if (comma)
		*comma = 0;
	return item;
}

/* The mixes of a percent list (-f or -F) as jobs[n], ...; the new count, or -1. */
static int mix_jobs(const char *kind, char *percents, const struct config *c, struct job *jobs, int n)
{
	char *p;

	while ((p = next_item(&percents))) {
		char *end;
		long pct = strtol(p, &end, 10);

		if (n == MAX_MODES || *end || end == p || pct < 0 || pct > 100)
			return -1;
		if (strcmp(kind, "phased") == 0 && c->procs > MAX_PHASED)
			return -1;      /* a release pipe per worker: see struct barrier */
		make_job(kind, (int)pct, c, &jobs[n]);
		jobs[n].calls = 0;
		jobs[n++].run_ns = c->run_ms * 1000000ull;
	}
	return n;
}

/* -m bkl,own,serialized, -f 10,50 and -F 10,50: the jobs of a scaling run. Their count, or -1. */
static int scaling_jobs(char *modes, char *mixes, char *phased, const struct config *c, struct job *jobs)
{
	int n = 0;
	char *p;

	while ((p = next_item(&modes))) {
		if (n == MAX_MODES || strcmp(p, "mix") == 0 || strcmp(p, "phased") == 0 ||
		    make_job(p, 0, c, &jobs[n]) < 0)
			return -1;
		jobs[n].calls = 0;
		jobs[n++].run_ns = c->run_ms * 1000000ull;
	}
	n = mix_jobs("mix", mixes, c, jobs, n);
	return n < 0 ? n : mix_jobs("phased", phased, c, jobs, n);
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

/* The BKL pair timed with bkl_timing set to period ("0": untimed), into *c. */
static int lock_cost_at(const char *period, struct bench_lock_cost *c)
{
	return write_knob(TIMING_FILE, period) < 0 ? -1 : lock_cost(c);
}

/*
 * The BKL pair with its hold timing as by default (bkl_timing=32: one hold
 * in 32 timed, kernel/locking/bkl_hold.h), timing every hold (1) and none
 * (0), and a spinlock pair. The kernel times the BKL and the spinlock in
 * alternating rounds of one call and keeps each one's best; a slow spell of
 * the host that starts or ends between two calls would still favour whichever
 * kind was timed outside it, so the three calls are made three times over,
 * interleaved, and each kind keeps its best of the three.
 */
#define LOCK_COST_REPEATS 3

static unsigned long long min_u64(unsigned long long a, unsigned long long b)
{
	return a < b ? a : b;
}

static int lat_lock_pairs(unsigned n)
{
	static const char *const periods[3] = { "32", "1", "0" };
	unsigned long long best[3] = { ~0ull, ~0ull, ~0ull }, spin = ~0ull;
	char old[8] = "32";
	int r = 0;

	read_knob(TIMING_FILE, old, sizeof(old));
	for (int rep = 0; rep < LOCK_COST_REPEATS && !r; rep++) {
		for (int k = 0; k < 3 && !r; k++) {
			struct bench_lock_cost c = { n, 0, 0, 0 };

			r = lock_cost_at(periods[k], &c) < 0;
			best[k] = min_u64(best[k], c.bkl_ns);
			spin = min_u64(spin, c.spin_ns);
		}
	}
	write_knob(TIMING_FILE, old);
	if (r)
		return -1;
	report("bkl_pair", best[0], n);
	report("bkl_pair_every_hold", best[1], n);
	report("bkl_pair_untimed", best[2], n);
	report("spinlock_pair", spin, n);
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
		"[-w SPINS] [-s SLEEP_US] [-r REPEAT]\n"
		"       ioctlbench -S [-m MODE,...] [-f PERCENT,...] [-F PERCENT,...] [-p MAXPROCS] [-t MS] "
		"[-w SPINS] [-s SLEEP_US] [-r ROUNDS]\n"
		"       ioctlbench -l [-n N]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct config c = { 2000, 2000, 0, 300, online_cpus(), 3 };
	char default_modes[] = "bkl,own,serialized", *modes = default_modes, *percents = NULL,
	     *phased = NULL;
	const char *which = "all";
	int opt, lat = 0, scale = 0, n_given = 0, njobs;
	struct job jobs[MAX_MODES];

	while ((opt = getopt(argc, argv, "d:p:n:w:s:r:t:m:f:F:lS")) != -1) {
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
		else if (opt == 't')
			c.run_ms = strtoul(optarg, NULL, 0);
		else if (opt == 'm')
			modes = optarg;
		else if (opt == 'f')
			percents = optarg;
		else if (opt == 'F')
			phased = optarg;
		else if (opt == 'l')
			lat = 1;
		else if (opt == 'S')
			scale = 1;
		else
			return usage();
	}
	if (optind != argc || c.procs < 1 || c.procs > MAX_PROCS || c.repeat < 1 ||
	    c.repeat > (scale ? MAX_ROUNDS : MAX_REPEAT) || c.calls < 1 || c.run_ms < 1 ||
	    c.run_ms > 60000)
		return usage();
	if (lat)
		return latencies(n_given ? c.calls : 20000);
	if (scale) {
		if ((njobs = scaling_jobs(modes, percents, phased, &c, jobs)) < 1)
			return usage();
		return scaling(jobs, njobs, &c);
	}
	if (strcmp(which, "all") && strcmp(which, "bkl") && strcmp(which, "own") &&
	    strcmp(which, "serialized"))
		return usage();
	return throughput(which, &c);
}
