/*
 * compat-pthreads: an ordinary pthread program, built with gcc -m32 -static
 * -pthread against glibc: threads created and joined, a mutex and a
 * condition variable under contention, a barrier, thread-local storage, a
 * cancelled thread, pthread_kill, and a parallel sum over an array. Every
 * line it prints is the same on every run, here and on Linux
 * (tools/test/cases/45_threads.py compares them).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NTHREADS 4
#define ITEMS 2000
#define SUM_LEN (1 << 20)

static int failures;

static void say(int ok, const char *what)
{
	printf("pthreads: %s: %s\n", what, ok ? "ok" : "FAILED");
	failures += !ok;
}

/* ---- create and join ---- */
static void *twice(void *arg)
{
	return (void *)((long)arg * 2);
}

static void create_join(void)
{
	pthread_t t[NTHREADS];
	long sum = 0;
	void *r;

	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, twice, (void *)(i + 1));
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	say(sum == 20, "4 threads joined, their results sum to 20");
}

/* ---- a mutex and a condition variable: producers and one consumer through a one-slot queue ---- */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int slot, full, counter;

static void *produce(void *arg)
{
	int base = (int)(long)arg;

	for (int i = 1; i <= ITEMS; i++) {
		pthread_mutex_lock(&lock);
		while (full)
			pthread_cond_wait(&changed, &lock);
		slot = base + i;
		full = 1;
		counter++;
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *consume(void *arg)
{
	long long *total = arg;

	for (int n = 0; n < 3 * ITEMS; n++) {
		pthread_mutex_lock(&lock);
		while (!full)
			pthread_cond_wait(&changed, &lock);
		*total += slot;
		full = 0;
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void mutex_condvar(void)
{
	pthread_t p[3], c;
	long long total = 0, want = 0;

	pthread_create(&c, NULL, consume, &total);
	for (long i = 0; i < 3; i++)
		pthread_create(&p[i], NULL, produce, (void *)(i * 100000));
	for (int i = 0; i < 3; i++)
		pthread_join(p[i], NULL);
	pthread_join(c, NULL);
	for (long i = 0; i < 3; i++)
		want += (long long)ITEMS * i * 100000 + (long long)ITEMS * (ITEMS + 1) / 2;
	say(total == want && counter == 3 * ITEMS,
	    "3 producers, 1 consumer, 6000 items through one slot, none lost");
}

/* ---- a barrier: every thread finishes round r before any starts round r + 1 ---- */
static pthread_barrier_t barrier;
static volatile int round_of[NTHREADS];
static int out_of_step;

static void *in_step(void *arg)
{
	int me = (int)(long)arg;

	for (int r = 1; r <= 5; r++) {
		round_of[me] = r;
		pthread_barrier_wait(&barrier);
		for (int i = 0; i < NTHREADS; i++)
			if (round_of[i] != r)
				__atomic_add_fetch(&out_of_step, 1, __ATOMIC_RELAXED);
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

static void barrier_rounds(void)
{
	pthread_t t[NTHREADS];

	pthread_barrier_init(&barrier, NULL, NTHREADS);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, in_step, (void *)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	say(out_of_step == 0, "a barrier kept 4 threads in step for 5 rounds");
}

/* ---- thread-local storage ---- */
static __thread int mine = 7;

static void *tls_check(void *arg)
{
	int id = (int)(long)arg;
	int ok = mine == 7;     /* each thread starts with the initial value */

	mine = id * 10;
	usleep(10000);
	return (void *)(long)(ok && mine == id * 10);
}

static void tls(void)
{
	pthread_t t[NTHREADS];
	int ok = 1;
	void *r;

	mine = 99;
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, tls_check, (void *)(i + 1));
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], &r);
		ok &= r != NULL;
	}
	say(ok && mine == 99, "__thread variables are each thread's own");
}

/* ---- cancellation ---- */
static volatile int cleaned;

static void cleanup(void *arg)
{
	(void)arg;
	cleaned = 1;
}

static void *sleeper(void *arg)
{
	(void)arg;
	pthread_cleanup_push(cleanup, NULL);
	for (;;)
		sleep(100);     /* a cancellation point */
	pthread_cleanup_pop(0);
	return NULL;
}

static void cancel(void)
{
	pthread_t t;
	void *r = NULL;

	pthread_create(&t, NULL, sleeper, NULL);
	usleep(20000);
	pthread_cancel(t);
	pthread_join(t, &r);
	say(r == PTHREAD_CANCELED && cleaned, "a thread cancelled in sleep() ran its cleanup");
}

/* ---- pthread_kill: the signal runs in the thread it was sent to ---- */
static volatile pid_t handled_by;
static volatile int target_ready, target_go;

static void on_usr1(int sig)
{
	(void)sig;
	handled_by = (pid_t)syscall(SYS_gettid);
}

static void *target(void *arg)
{
	pid_t *tid = arg;

	*tid = (pid_t)syscall(SYS_gettid);
	target_ready = 1;
	while (!target_go)
		usleep(1000);
	return NULL;
}

static void thread_kill(void)
{
	pthread_t t;
	pid_t tid = 0;

	signal(SIGUSR1, on_usr1);
	pthread_create(&t, NULL, target, &tid);
	while (!target_ready)
		usleep(1000);
	pthread_kill(t, SIGUSR1);
	for (int i = 0; i < 2000 && !handled_by; i++)
		usleep(1000);
	target_go = 1;
	pthread_join(t, NULL);
	say(handled_by == tid && tid != getpid(), "pthread_kill's signal ran in its thread");
}

/* ---- a parallel sum ---- */
static unsigned *numbers;

struct part {
	int from, to;
	unsigned long long sum;
};

static void *sum_part(void *arg)
{
	struct part *p = arg;

	for (int i = p->from; i < p->to; i++)
		p->sum += numbers[i];
	return NULL;
}

static void parallel_sum(void)
{
	pthread_t t[NTHREADS];
	struct part parts[NTHREADS];
	unsigned long long total = 0;

	numbers = malloc(SUM_LEN * sizeof(*numbers));
	for (int i = 0; i < SUM_LEN; i++)
		numbers[i] = (unsigned)i;
	for (int i = 0; i < NTHREADS; i++) {
		parts[i] = (struct part){ i * (SUM_LEN / NTHREADS), (i + 1) * (SUM_LEN / NTHREADS), 0 };
		pthread_create(&t[i], NULL, sum_part, &parts[i]);
	}
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], NULL);
		total += parts[i].sum;
	}
	free(numbers);
	printf("pthreads: parallel sum of 0..%d by 4 threads: %llu\n", SUM_LEN - 1, total);
	say(total == (unsigned long long)SUM_LEN * (SUM_LEN - 1) / 2, "the parallel sum is right");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	create_join();
	mutex_condvar();
	barrier_rounds();
	tls();
	cancel();
	thread_kill();
	parallel_sum();
	printf("pthreads: %s\n", failures ? "FAILED" : "all ok");
	return failures != 0;
}
