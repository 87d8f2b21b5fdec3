/*
 * bklsites [SITE|all] [-p PROCS] [-n OPS] [-H]: drive the live BKL sites
 * (docs/labs/lab10-open-pushdown.md) and print what the BKL and the locks
 * did meanwhile. Lab 10's grader runs it; students run it to measure.
 *
 * Each site's workload: PROCS processes, OPS operations each, that go
 * through that site and (as far as smpix's paths go) no other:
 *
 *   flock        flock(LOCK_EX) then flock(LOCK_UN), each on a file of its own
 *   proc         open, read and close /proc/uptime
 *   llseek       lseek() on /dev/kcounts, which has no llseek: default_llseek()
 *   cpuid        lseek() on /dev/cpu/0/cpuid: cpuid_llseek()
 *   chrdev-open  open and close /dev/cpu/0/cpuid: chrdev_open() calls cpuid_open()
 *
 * -H: a BKL hog beside them, a process that loops in ioctl() on
 * /dev/bench_bkl, which holds the BKL for each call (fs/ioctl/vfs_ioctl.c):
 * a workload that still takes the BKL waits for it, one that does not never
 * does.
 *
 * Around each workload /proc/lock_stat is reset and /proc/bkl read before and
 * after; printed:
 *
 *   bklsites: SITE bkl ACQUIRED CONTENDED WHERE     every BKL site that was
 *                                                  taken meanwhile (WHERE as
 *                                                  /proc/bkl says it: file:line
 *                                                  function); this program's
 *                                                  own reads of /proc/bkl are
 *                                                  taken off
 *   bklsites: SITE lock_stat begin / end           /proc/lock_stat as it is
 *   bklsites: SITE done ops=N procs=P hog=0|1 ms=T every operation done (or
 *                                                  "FAIL why")
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/uapi/bench.h"

#ifndef __NR_flock
#define __NR_flock 143
#endif
#define LOCK_EX 2
#define LOCK_UN 8

#define MAX_SITES 128
#define BUF_SIZE 65536

struct bkl_line {
	unsigned long long acquired, contended;
	char where[160];
};

struct snapshot {
	int n, reads;                   /* sites; read() calls it took (each is a BKL acquisition at /proc) */
	struct bkl_line s[MAX_SITES];
};

static char buf[BUF_SIZE];

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The whole of a /proc file into buf; the number of read() calls in *reads. -1 if it cannot. */
static int slurp(const char *path, int *reads)
{
	int fd = open(path, O_RDONLY), len = 0;
	ssize_t r;

	*reads = 0;
	if (fd < 0)
		return -1;
	while (len < BUF_SIZE - 1 && (r = read(fd, buf + len, BUF_SIZE - 1 - len)) > 0) {
		len += (int)r;
		++*reads;
	}
	++*reads;                       /* the one that returned 0 */
	close(fd);
	buf[len] = 0;
	return len;
}

static void take_snapshot(struct snapshot *sn)
{
	char *line, *next;

	sn->n = 0;
	if (slurp("/proc/bkl", &sn->reads) < 0)
		return;                 /* no BKL (make ERA=2.6.39): nothing to count */
	for (line = buf; line && *line; line = next) {
		struct bkl_line *b = &sn->s[sn->n];
		char *p = line, *nl;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9' || sn->n == MAX_SITES)
			continue;
		b->acquired = strtoull(p, &p, 10);
		b->contended = strtoull(p, &p, 10);
		for (int skip = 0; skip < 5; skip++)
			strtoull(p, &p, 10);
		while (*p == ' ')
			p++;
		if ((nl = strchr(p, '\n')))
			*nl = 0;
		snprintf(b->where, sizeof(b->where), "%s", p);
		sn->n++;
	}
}

static void write_word(const char *path, const char *word)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, word, strlen(word)) < 0)
			perror(path);
		close(fd);
	}
}

/* ---- the workloads: one operation each, 0 or -errno --------------------------------- */

struct worker {
	int fd;
	char path[64];
};

static int flock_setup(struct worker *w, int id)
{
	snprintf(w->path, sizeof(w->path), "/tmp/bklsites.%d", id);
	w->fd = open(w->path, O_CREAT | O_RDWR, 0600);
	return w->fd < 0 ? -errno : 0;
}

static int flock_op(struct worker *w)
{
	if (syscall(__NR_flock, w->fd, LOCK_EX) < 0 || syscall(__NR_flock, w->fd, LOCK_UN) < 0)
		return -errno;
	return 0;
}

static int proc_op(struct worker *w)
{
	char small[256];
	int fd = open("/proc/uptime", O_RDONLY);

	(void)w;
	if (fd < 0 || read(fd, small, sizeof(small)) <= 0)
		return -errno;
	close(fd);
	return 0;
}

static int open_dev(struct worker *w, const char *path)
{
	w->fd = open(path, O_RDONLY);
	return w->fd < 0 ? -errno : 0;
}

static int llseek_setup(struct worker *w, int id) { (void)id; return open_dev(w, "/dev/kcounts"); }
static int cpuid_setup(struct worker *w, int id) { (void)id; return open_dev(w, "/dev/cpu/0/cpuid"); }

static int seek_op(struct worker *w)
{
	return lseek(w->fd, 0, SEEK_SET) < 0 ? -errno : 0;
}

static int chrdev_op(struct worker *w)
{
	int fd = open("/dev/cpu/0/cpuid", O_RDONLY);

	(void)w;
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static const struct site {
	const char *name;
	int (*setup)(struct worker *, int);
	int (*op)(struct worker *);
} sites[] = {
	{ "flock", flock_setup, flock_op },
	{ "proc", NULL, proc_op },
	{ "llseek", llseek_setup, seek_op },
	{ "cpuid", cpuid_setup, seek_op },
	{ "chrdev-open", NULL, chrdev_op },
};
#define NSITES ((int)(sizeof(sites) / sizeof(sites[0])))

/* ---- one site ----------------------------------------------------------------------- */

/* A process that holds the BKL most of the time, until killed: ioctl() on /dev/bench_bkl. */
static pid_t start_hog(void)
{
	int ready[2];
	pid_t pid;
	char b;

	if (pipe(ready) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		struct bench_work work = { .spins = 20000, .sleep_us = 0 };
		int fd = open("/dev/bench_bkl", O_RDWR);

		close(ready[0]);
		if (fd < 0 || ioctl(fd, BENCH_UPDATE, &work) < 0)
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			ioctl(fd, BENCH_UPDATE, &work);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &b, 1) != 1) {
		close(ready[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return -1;
	}
	close(ready[0]);
	return pid;
}

static int worker_main(const struct site *s, int id, int ops)
{
	struct worker w = { .fd = -1 };
	int r = s->setup ? s->setup(&w, id) : 0;

	for (int i = 0; !r && i < ops; i++)
		r = s->op(&w);
	if (r)
		printf("bklsites: %s FAIL worker %d: %s\n", s->name, id, strerror(-r));
	if (w.fd >= 0)
		close(w.fd);
	if (w.path[0])
		unlink(w.path);
	return r ? 1 : 0;
}

static void print_deltas(const char *name, const struct snapshot *a, const struct snapshot *b)
{
	for (int i = 0; i < b->n; i++) {
		unsigned long long acq = b->s[i].acquired, con = b->s[i].contended;

		for (int j = 0; j < a->n; j++)
			if (strcmp(a->s[j].where, b->s[i].where) == 0) {
				acq -= a->s[j].acquired;
				con -= a->s[j].contended;
				break;
			}
		/* The second snapshot's own reads of /proc/bkl, as counted at proc_file_read. */
		if (strstr(b->s[i].where, " proc_file_read"))
			acq = acq > (unsigned long long)b->reads ? acq - b->reads : 0;
		if (acq || con)
			printf("bklsites: %s bkl %llu %llu %s\n", name, acq, con, b->s[i].where);
	}
}

static int run_site(const struct site *s, int procs, int ops, int hog)
{
	static struct snapshot before, after;
	pid_t hog_pid = -1, pids[64];
	int failed = 0, reads;
	long long t0, ms;

	write_word("/proc/lock_stat", "0");
	take_snapshot(&before);
	if (hog && (hog_pid = start_hog()) < 0) {
		printf("bklsites: %s FAIL cannot start the BKL hog on /dev/bench_bkl\n", s->name);
		return 1;
	}
	t0 = now_ms();
	for (int i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(worker_main(s, i, ops));
		if (pids[i] < 0)
			failed++;
	}
	for (int i = 0; i < procs; i++) {
		int st;

		if (pids[i] > 0 && (waitpid(pids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)))
			failed++;
	}
	ms = now_ms() - t0;
	if (hog_pid > 0) {
		kill(hog_pid, SIGKILL);
		waitpid(hog_pid, NULL, 0);
	}
	take_snapshot(&after);
	print_deltas(s->name, &before, &after);
	printf("bklsites: %s lock_stat begin\n", s->name);
	if (slurp("/proc/lock_stat", &reads) > 0)
		fputs(buf, stdout);
	printf("bklsites: %s lock_stat end\n", s->name);
	if (failed)
		printf("bklsites: %s FAIL %d of %d workers failed\n", s->name, failed, procs);
	else
		printf("bklsites: %s done ops=%d procs=%d hog=%d ms=%lld\n", s->name, procs * ops, procs, hog, ms);
	fflush(stdout);
	return failed ? 1 : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: bklsites [flock|proc|llseek|cpuid|chrdev-open|all] [-p procs] [-n ops] [-H]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *which = "all";
	int procs = 2, ops = 300, hog = 0, rc = 0, found = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
			procs = atoi(argv[++i]);
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			ops = atoi(argv[++i]);
		else if (strcmp(argv[i], "-H") == 0)
			hog = 1;
		else if (argv[i][0] != '-')
			which = argv[i];
		else
			return usage();
	}
	if (procs < 1 || procs > 64 || ops < 1)
		return usage();
	for (int i = 0; i < NSITES; i++)
		if (strcmp(which, "all") == 0 || strcmp(which, sites[i].name) == 0) {
			found = 1;
			rc |= run_site(&sites[i], procs, ops, hog);
		}
	if (!found)
		return usage();
	return rc;
}
