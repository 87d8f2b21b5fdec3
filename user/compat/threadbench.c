/*
 * compat-threadbench: what threads buy on several CPUs, and what a futex wake
 * costs between two of them. An ordinary glibc pthread program (gcc -m32
 * -static -pthread), so that the very same file runs on smpix (make bench,
 * from the shell) and as Linux's /init (make bench-linux), and prints the
 * same lines on both:
 *
 *   threadbench: start kernel=RELEASE pid=N cpus=N scale=N
 *   threadbench: sum_tT_ms round=R ops=ELEMENTS value=MS     a parallel sum by T = 1, 2, 4 threads
 *   threadbench: futex_rtt_ns round=R ops=TRIPS value=NS     ping-pong by FUTEX_WAIT/WAKE, two CPUs
 *   threadbench: done status=S
 *
 * The parallel sum: SUM_LEN words, summed SUM_PASSES times, the array split
 * in T equal slices, thread i pinned to CPU i mod cpus; the time from the
 * first pthread_create() to the last pthread_join(). The work is the same at
 * every T, so speedup(T) = time(1) / time(T). Each thread keeps its running
 * sum in a register and writes it once, to a slot on a cache line of its own:
 * nothing is shared while they run. The thread counts take turns (1, 2, 4,
 * then 4, 2, 1), so that a slow spell of the host does not always fall on
 * the same count (docs/performance.md).
 *
 * The ping-pong: two threads pinned to CPUs 0 and 1 pass a word back and
 * forth: each sets it and FUTEX_WAKEs the other, then FUTEX_WAITs until the
 * other sets it back; every round trip is two sleeps and two wake-ups
 * across CPUs (an IPI each way). Private futexes, as glibc's own mutexes.
 *
 * threadbench_scale=P (argument or environment, as the kernel passes its
 * command line to init) runs P percent of the usual counts: make test runs 1.
 * As pid 1 it powers the machine off at the end, on both kernels.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define SUM_LEN (1 << 20)       /* 4 MiB of words */
#define SUM_PASSES 240          /* at scale 100: about half a second for one thread under TCG */
#define SUM_ROUNDS 5
#define MAX_THREADS 4
#define TRIPS 2000              /* at scale 100 */
#define TRIP_ROUNDS 3

static const int thread_counts[] = { 1, 2, 4 };
#define NCOUNTS (int)(sizeof(thread_counts) / sizeof(thread_counts[0]))

static uint32_t *array;
static int ncpus, passes;

struct slice {
	pthread_t thread;
	int cpu;
	uint32_t from, to;
	uint32_t sum;
} __attribute__((aligned(64)));         /* a cache line each: no false sharing */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Run the calling thread on one CPU only; a machine with fewer CPUs takes it modulo. */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % ncpus, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* ---- the parallel sum ---- */

static void *sum_slice(void *arg)
{
	struct slice *s = arg;
	uint32_t sum = 0;

	pin(s->cpu);
	for (int p = 0; p < passes; p++) {
		for (uint32_t i = s->from; i < s->to; i++)
			sum += array[i];
		/* The array may have changed, says this to the compiler: every pass reads it again. */
		__asm__ volatile("" ::: "memory");
	}
	s->sum = sum;
	return NULL;
}

/* One run: the sum by n threads; its time in ns, or -1 if the sum is wrong. */
static long long sum_run(int n, uint32_t want)
{
	static struct slice slices[MAX_THREADS];
	uint32_t total = 0;
	long long t0, t;

	for (int i = 0; i < n; i++) {
		slices[i].cpu = i;
		slices[i].from = (uint32_t)((uint64_t)SUM_LEN * i / n);
		slices[i].to = (uint32_t)((uint64_t)SUM_LEN * (i + 1) / n);
	}
	t0 = now_ns();
	for (int i = 0; i < n; i++)
		if (pthread_create(&slices[i].thread, NULL, sum_slice, &slices[i]) != 0)
			return -1;
	for (int i = 0; i < n; i++) {
		pthread_join(slices[i].thread, NULL);
		total += slices[i].sum;
	}
	t = now_ns() - t0;
	return total == want ? t : -1;
}

/* ---- the futex ping-pong ---- */

static int turn __attribute__((aligned(64)));   /* 0: the pinger's move, 1: the ponger's */
static int trips;

static long futex(int *word, int op, int val)
{
	return syscall(SYS_futex, word, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

/* Wait until the word is no longer `from`, then hand it over: set it back and wake the other. */
static void take_and_give(int from)
{
	while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) == from)
		futex(&turn, FUTEX_WAIT, from);
	__atomic_store_n(&turn, from, __ATOMIC_RELEASE);
	futex(&turn, FUTEX_WAKE, 1);
}

static void *ponger(void *arg)
{
	pin(1);
	for (int i = 0; i < trips; i++)
		take_and_give(0);       /* wait for the ping (1), answer 0 */
	return arg;
}

/* One run of `trips` round trips: ns per round trip. */
static long long pingpong_run(void)
{
	pthread_t t;
	long long t0, t1;

	turn = 0;
	if (pthread_create(&t, NULL, ponger, NULL) != 0)
		return -1;
	pin(0);
	t0 = now_ns();
	for (int i = 0; i < trips; i++) {
		__atomic_store_n(&turn, 1, __ATOMIC_RELEASE);
		futex(&turn, FUTEX_WAKE, 1);
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) == 1)
			futex(&turn, FUTEX_WAIT, 1);
	}
	t1 = now_ns();
	pthread_join(t, NULL);
	return (t1 - t0) / trips;
}

/* ---- main ---- */

/* "name=value" among the arguments or in the environment: the number, or dflt. */
static int option(char **argv, const char *name, int dflt)
{
	size_t n = strlen(name);
	const char *env = getenv(name);

	for (char **p = argv + 1; *p; p++)
		if (!strncmp(*p, name, n) && (*p)[n] == '=')
			return atoi(*p + n + 1);
	return env ? atoi(env) : dflt;
}

static int count_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	return CPU_COUNT(&set);
}

int main(int argc, char **argv)
{
	int scale = option(argv, "threadbench_scale", 100), status = 0;
	struct utsname u;
	uint32_t want = 0;

	(void)argc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (scale < 1)
		scale = 1;
	ncpus = count_cpus();
	uname(&u);
	printf("threadbench: start kernel=%s pid=%d cpus=%d scale=%d\n", u.release, getpid(), ncpus, scale);

	passes = SUM_PASSES * scale / 100 > 0 ? SUM_PASSES * scale / 100 : 1;
	array = malloc(SUM_LEN * sizeof(*array));
	if (!array) {
		printf("threadbench: error no memory for the array\n");
		status = 1;
		goto out;
	}
	/* Touched here, before any timing: the first touch of a page is a page fault. */
	for (uint32_t i = 0; i < SUM_LEN; i++) {
		array[i] = i * 2654435761u >> 7;
		want += array[i];
	}
	want *= (uint32_t)passes;
	for (int r = 1; r <= SUM_ROUNDS; r++) {
		for (int k = 0; k < NCOUNTS; k++) {
			int n = thread_counts[r % 2 ? k : NCOUNTS - 1 - k];
			long long ns = sum_run(n, want);

			if (ns < 0) {
				printf("threadbench: error the sum by %d threads is wrong\n", n);
				status = 1;
				continue;
			}
			printf("threadbench: sum_t%d_ms round=%d ops=%u value=%.2f\n", n, r,
			       (unsigned)SUM_LEN * passes, ns / 1e6);
		}
	}

	trips = TRIPS * scale / 100 > 10 ? TRIPS * scale / 100 : 10;
	for (int r = 1; r <= TRIP_ROUNDS; r++) {
		long long ns = pingpong_run();

		if (ns < 0) {
			printf("threadbench: error no ponger thread\n");
			status = 1;
			break;
		}
		printf("threadbench: futex_rtt_ns round=%d ops=%d value=%lld\n", r, trips, ns);
	}
out:
	printf("threadbench: done status=%d\n", status);
	if (getpid() == 1) {
		sync();
		reboot(RB_POWER_OFF);
	}
	return status;
}
