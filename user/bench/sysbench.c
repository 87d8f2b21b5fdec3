/*
 * sysbench: one static i386 binary, timed on smpix and on Linux (make bench-linux).
 *
 * It uses no C library and no smpix header beyond the system call numbers
 * (kernel/uapi/unistd.h, which are Linux's): every call is a raw int $0x80,
 * so the very same file runs as /bin/sysbench on smpix, as /init in a Linux
 * initramfs, and as a plain process on the host's Linux. What it times is the
 * generic part of ioctlbench, the part any kernel has:
 *
 *   getpid_ns            a null system call, three rounds          (ns per call)
 *   fionread_cps_wK      FIONREAD on a pipe, K workers, each pinned
 *                        to its own CPU with a pipe of its own      (calls/s, all together;
 *                        five rounds, K = 1..N taking turns)
 *   fionread_work_cps_wK the same with user-mode work after each call (see
 *                        struct fionread_kind: the emulator's own lock)
 *   pipe_rtt_same_us     a byte back and forth through two pipes,
 *                        both processes on one CPU                  (us per round trip)
 *   pipe_rtt_cross_us    the same, one process on each of two CPUs
 *   fork_exit_wait_us    fork, the child exits, the parent waits    (us per child)
 *   fork_exec_exit_us    fork, the child execs this binary with the
 *                        argument "exit", which exits at once       (us per child)
 *
 * Each figure is measured ROUNDS times; each round prints one line,
 *   sysbench: NAME round=R ops=N value=V
 * which tools/bench/bench_linux.py parses. The first line, "sysbench: start ...",
 * is printed before anything else: the host times the boot up to it. The
 * last is "sysbench: done status=S" (0: every call answered as Linux's would).
 *
 * `sysbench disk ...` (or the boot word sysbench_disk=...) times disks instead:
 * a file on ext2 and raw block devices, one process per disk (user/bench/
 * diskbench.c, which says what is measured). It is part of this binary, not a
 * sibling, so that make bench-linux boots the very bytes smpix runs, with the
 * same initramfs, start and done lines and sha256 in the report.
 *
 * The environment word sysbench_scale=P runs P percent of the usual counts
 * (a kernel command line word key=value reaches init's environment on both
 * kernels). sysbench_only=WORD runs only the figures whose names start with
 * WORD (pipe_rtt: the two ping-pongs), for quick before/after boots. As
 * pid 1 it ends with reboot(POWER_OFF), which makes QEMU exit; as any other
 * process (make test runs it on the host) it just exits.
 */
#include "kernel/uapi/ioctls.h"
#include "kernel/uapi/unistd.h"
#include "user/bench/bench.h"

#define ROUNDS 3
/*
 * FIONREAD's speedup is a ratio of two rates, each a fraction of a second long
 * under a host whose speed wanders by 10-30%: more rounds, and in each the
 * worker counts take turns (1, 2, then 2, 1), so a slow spell of the host
 * does not always fall on the same count.
 */
#define FIONREAD_ROUNDS 5
#define MAX_WORKERS 8

/* reboot(2)'s magic numbers, as Linux checks them (and kernel/sys_reboot.c does). */
#define LINUX_REBOOT_MAGIC1        0xfee1dead
#define LINUX_REBOOT_MAGIC2        672274793
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedc

struct timespec32 {
	long tv_sec, tv_nsec;
};

/* The usual counts, per round; sysbench_scale scales them. */
static unsigned n_getpid = 100000, n_fionread = 400000, n_fionread_work = 100000, n_pingpong = 1000,
	n_fork = 100, n_exec = 50;
static const char *self = "/bin/sysbench";     /* what fork+exec runs */
char **environ;
unsigned cpu_mask, ncpus;                       /* the CPUs we may run on (the first 32) */
int status;                                     /* 1 once anything went wrong */

void __attribute__((noreturn)) exit_now(int code)
{
	for (;;)
		sys1(__NR_exit_group, code);
}

unsigned long long now_ns(void)
{
	struct timespec32 ts;

	sys2(__NR_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long)ts.tv_nsec;
}

int pin_to(unsigned mask)
{
	return (int)sys3(__NR_sched_setaffinity, 0, sizeof(mask), &mask);
}

/* wait4 for pid (-1: any child); its status word, or -1 if none was reaped. */
int wait_child(int pid)
{
	int st = -1;

	if (sys4(__NR_wait4, pid, (long)&st, 0, 0) <= 0)
		return -1;
	return st;
}

/* ---- output: one line per write, so that lines from two processes never mix ----------- */

void put_str(struct line *l, const char *s)
{
	while (*s && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = *s++;
}

void line_start(struct line *l, const char *s)
{
	l->len = 0;
	put_str(l, s);
}

void put_u64(struct line *l, unsigned long long v)
{
	char digits[24];
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0 && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = digits[--n];
}

void put_end(struct line *l)
{
	l->buf[l->len++] = '\n';
	sys3(__NR_write, 1, l->buf, l->len);
}

/* "sysbench: NAME round=R ops=N value=V", V with one decimal for the per-operation times. */
void figure(const char *name, int round, unsigned ops, unsigned long long tenths)
{
	struct line l;

	line_start(&l, "sysbench: ");
	put_str(&l, name);
	put_str(&l, " round=");
	put_u64(&l, round);
	put_str(&l, " ops=");
	put_u64(&l, ops);
	put_str(&l, " value=");
	put_u64(&l, tenths / 10);
	put_str(&l, ".");
	put_u64(&l, tenths % 10);
	put_end(&l);
}

/* "sysbench: error what=WHAT result=R": a call that failed; the run's status becomes 1. */
void error(const char *what, long result)
{
	struct line l;

	line_start(&l, "sysbench: error what=");
	put_str(&l, what);
	put_str(&l, " result=");
	if (result < 0) {
		put_str(&l, "-");
		result = -result;
	}
	put_u64(&l, (unsigned long)result);
	put_end(&l);
	status = 1;
}

/* ---- the figures -------------------------------------------------------------------- */

static void bench_getpid(int round)
{
	unsigned long long start = now_ns();

	for (unsigned i = 0; i < n_getpid; i++)
		sys0(__NR_getpid);
	figure("getpid_ns", round, n_getpid, (now_ns() - start) * 10 / n_getpid);
}

/* The k-th CPU we may run on (counting from 0), as a one-bit mask. */
unsigned nth_cpu(unsigned k)
{
	for (unsigned i = 0; i < 32; i++)
		if ((cpu_mask >> i) & 1 && k-- == 0)
			return 1u << i;
	return cpu_mask;
}

/*
 * The FIONREAD runs, plain and with user-mode work between the calls. Under
 * QEMU's TCG every int $0x80 is delivered holding the emulator's own big lock
 * (the BQL, around cpu_handle_exception's do_interrupt), so the vCPUs take
 * turns at each trap: the shorter a kernel's call, the larger that serialized
 * share of it, and the less its calls can scale, whatever the kernel does.
 * WORK_SPINS loop iterations after each call (a few microseconds, the same
 * user code on either kernel) shrink that share for both alike.
 */
struct fionread_kind {
	const char *prefix;             /* "fionread_cps_w" or "fionread_work_cps_w" */
	unsigned calls;                 /* per worker */
	unsigned spins;                 /* user-mode loop iterations after each call */
};

#define WORK_SPINS 2000

/* One FIONREAD worker: its own CPU, its own pipe with one byte in it; n calls, then its time. */
static void __attribute__((noreturn)) fionread_worker(const struct fionread_kind *kind, unsigned index,
							int ready, int go, int result)
{
	unsigned long long start, ns;
	int fds[2], n = 0, bad = 0;
	char b = 'x';

	pin_to(nth_cpu(index));
	if (sys1(__NR_pipe, fds) < 0 || sys3(__NR_write, fds[1], &b, 1) != 1)
		bad = 1;
	sys3(__NR_write, ready, &b, 1);
	sys3(__NR_read, go, &b, 1);                     /* all start together */
	start = now_ns();
	for (unsigned i = 0; i < kind->calls && !bad; i++) {
		if (sys3(__NR_ioctl, fds[0], FIONREAD, &n) != 0 || n != 1)
			bad = 1;
		for (volatile unsigned spin = 0; spin < kind->spins; spin++)
			;
	}
	ns = bad ? 0 : now_ns() - start;                /* 0: this worker failed */
	sys3(__NR_write, result, &ns, sizeof(ns));
	exit_now(0);
}

static void bench_fionread(const struct fionread_kind *kind, unsigned workers, int round)
{
	int ready[2], go[2], result[2];
	unsigned long long start, ns, wall;
	char name[32], go_bytes[MAX_WORKERS];
	unsigned len = 0;
	int failed = 0;

	if (sys1(__NR_pipe, ready) < 0 || sys1(__NR_pipe, go) < 0 || sys1(__NR_pipe, result) < 0) {
		error("pipe", -1);
		return;
	}
	for (unsigned i = 0; i < workers; i++) {
		long pid = sys0(__NR_fork);

		if (pid == 0)
			fionread_worker(kind, i, ready[1], go[0], result[1]);
		if (pid < 0)
			error("fork", pid);
	}
	for (unsigned i = 0; i < workers; i++)
		sys3(__NR_read, ready[0], go_bytes, 1);
	start = now_ns();
	sys3(__NR_write, go[1], go_bytes, workers);
	for (unsigned i = 0; i < workers; i++)
		if (sys3(__NR_read, result[0], &ns, sizeof(ns)) != sizeof(ns) || ns == 0)
			failed = 1;
	wall = now_ns() - start;
	for (unsigned i = 0; i < workers; i++)
		wait_child(-1);
	for (int i = 0; i < 2; i++) {
		sys1(__NR_close, ready[i]);
		sys1(__NR_close, go[i]);
		sys1(__NR_close, result[i]);
	}
	if (failed) {
		error("fionread", -1);
		return;
	}
	for (const char *p = kind->prefix; *p; p++)
		name[len++] = *p;
	name[len++] = (char)('0' + workers);
	name[len] = 0;
	figure(name, round, workers * kind->calls,
	       wall ? 10ull * workers * kind->calls * 1000000000ull / wall : 0);
}

/* FIONREAD_ROUNDS rounds of 1..N workers (N..1 in even rounds), N the CPUs we have (at most 8). */
static void bench_fionread_rounds(const struct fionread_kind *kind)
{
	unsigned n = ncpus < MAX_WORKERS ? ncpus : MAX_WORKERS;

	for (int r = 1; r <= FIONREAD_ROUNDS; r++)
		for (unsigned k = 0; k < n; k++)
			bench_fionread(kind, r % 2 ? k + 1 : n - k, r);
}

/* A byte back and forth between the parent (on CPU mask a) and a child (on mask b). */
static void bench_pingpong(const char *name, unsigned a, unsigned b, int round)
{
	unsigned long long start = 0;
	unsigned warm = n_pingpong / 10 + 1;    /* first passes untimed: both sides settled */
	int ab[2], ba[2], ok = 1;
	long pid;
	char c = 0;

	if (sys1(__NR_pipe, ab) < 0 || sys1(__NR_pipe, ba) < 0) {
		error("pipe", -1);
		return;
	}
	pin_to(a);
	pid = sys0(__NR_fork);
	if (pid == 0) {
		pin_to(b);
		for (unsigned i = 0; i < warm + n_pingpong; i++)
			if (sys3(__NR_read, ab[0], &c, 1) != 1 || sys3(__NR_write, ba[1], &c, 1) != 1)
				exit_now(1);
		exit_now(0);
	}
	for (unsigned i = 0; pid > 0 && ok && i < warm + n_pingpong; i++) {
		if (i == warm)
			start = now_ns();
		ok = sys3(__NR_write, ab[1], &c, 1) == 1 && sys3(__NR_read, ba[0], &c, 1) == 1;
	}
	if (pid < 0)
		error("fork", pid);
	else if (!ok || wait_child(pid) != 0)
		error(name, -1);
	else
		figure(name, round, n_pingpong, (now_ns() - start) / 100 / n_pingpong);
	pin_to(cpu_mask);
	for (int i = 0; i < 2; i++) {
		sys1(__NR_close, ab[i]);
		sys1(__NR_close, ba[i]);
	}
}

/* n children, one after the other: each forks, and exits at once or execs this binary first. */
static void bench_fork(const char *name, unsigned n, int exec, int round)
{
	char *argv[] = { (char *)self, "exit", 0 };
	unsigned long long start = now_ns();

	for (unsigned i = 0; i < n; i++) {
		long pid = sys0(__NR_fork);
		int st;

		if (pid == 0) {
			if (exec)
				sys3(__NR_execve, self, argv, environ);
			exit_now(exec ? 127 : 0);
		}
		if (pid < 0) {
			error("fork", pid);
			return;
		}
		st = wait_child((int)pid);
		if (st != 0) {
			error(exec ? "exec" : "wait4", st);
			return;
		}
	}
	figure(name, round, n, (now_ns() - start) / 100 / n);
}

/* ---- setting up, and the end of the run ------------------------------------------- */

const char *getenv(const char *key)
{
	for (char **e = environ; *e; e++) {
		const char *k = key, *s = *e;

		while (*k && *k == *s)
			k++, s++;
		if (!*k && *s == '=')
			return s + 1;
	}
	return 0;
}

static unsigned scaled(unsigned n, unsigned percent)
{
	n = (unsigned)((unsigned long long)n * percent / 100);
	return n ? n : 1;
}

/* Every count times sysbench_scale percent (1 to 1000; 100 if unset or nonsense). */
static unsigned apply_scale(void)
{
	const char *s = getenv("sysbench_scale");
	unsigned p = 0;

	while (s && *s >= '0' && *s <= '9' && p <= 1000)
		p = p * 10 + (unsigned)(*s++ - '0');
	if (!s || *s || p < 1 || p > 1000)
		p = 100;
	n_getpid = scaled(n_getpid, p);
	n_fionread = scaled(n_fionread, p);
	n_fionread_work = scaled(n_fionread_work, p);
	n_pingpong = scaled(n_pingpong, p);
	n_fork = scaled(n_fork, p);
	n_exec = scaled(n_exec, p);
	return p;
}

struct utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

/* "sysbench: start kernel=RELEASE pid=P cpus=N scale=P": the line the host times the boot by. */
static void start_line(unsigned scale)
{
	static struct utsname u;
	unsigned mask[8] = { 0 };
	struct line l;

	sys1(__NR_uname, &u);
	if (sys3(__NR_sched_getaffinity, 0, sizeof(mask), mask) < 0 || !mask[0])
		mask[0] = 1;
	cpu_mask = mask[0];
	for (unsigned i = 0; i < 32; i++)
		ncpus += (cpu_mask >> i) & 1;
	line_start(&l, "sysbench: start kernel=");
	put_str(&l, u.release[0] ? u.release : "unknown");
	put_str(&l, " pid=");
	put_u64(&l, (unsigned long)sys0(__NR_getpid));
	put_str(&l, " cpus=");
	put_u64(&l, ncpus);
	put_str(&l, " scale=");
	put_u64(&l, scale);
	put_end(&l);
}

int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Is the figure name wanted? All are, unless sysbench_only=WORD names a prefix. */
static int wanted(const char *name)
{
	const char *only = getenv("sysbench_only");

	while (only && *only && *only == *name)
		only++, name++;
	return !only || !*only;
}

/* The figures of the system calls (all but the disk mode's). */
static void bench_syscalls(void)
{
	for (int r = 1; wanted("getpid_ns") && r <= ROUNDS; r++)
		bench_getpid(r);
	if (wanted("fionread_cps_w"))
		bench_fionread_rounds(&(struct fionread_kind){ "fionread_cps_w", n_fionread, 0 });
	if (wanted("fionread_work_cps_w"))
		bench_fionread_rounds(&(struct fionread_kind){ "fionread_work_cps_w", n_fionread_work, WORK_SPINS });
	for (int r = 1; wanted("pipe_rtt_same_us") && r <= ROUNDS; r++)
		bench_pingpong("pipe_rtt_same_us", nth_cpu(0), nth_cpu(0), r);
	for (int r = 1; wanted("pipe_rtt_cross_us") && ncpus > 1 && r <= ROUNDS; r++)
		bench_pingpong("pipe_rtt_cross_us", nth_cpu(0), nth_cpu(1), r);
	for (int r = 1; wanted("fork_exit_wait_us") && r <= ROUNDS; r++)
		bench_fork("fork_exit_wait_us", n_fork, 0, r);
	for (int r = 1; wanted("fork_exec_exit_us") && r <= ROUNDS; r++)
		bench_fork("fork_exec_exit_us", n_exec, 1, r);
}

/*
 * The disk mode (user/bench/diskbench.c)? `sysbench disk ARGS...`, or, as init,
 * the boot word sysbench_disk=ARGS with commas for spaces (a kernel command line
 * word key=value reaches init's environment on both kernels; spaces cannot).
 * *argc and *argv become the disk mode's arguments.
 */
static int disk_args(int *argc, char ***argv)
{
	static char words[1024];                /* bench_linux.py's list of modules is long */
	static char *split[128];
	const char *env = getenv("sysbench_disk");
	int n = 0;
	unsigned len = 0;

	if (*argc > 1 && str_eq((*argv)[1], "disk")) {
		*argc -= 2;
		*argv += 2;
		return 1;
	}
	if (!env)
		return 0;
	while (*env && len < sizeof(words) - 1)
		words[len++] = *env++;
	for (unsigned i = 0; i < len && n < 127; i++) {
		if (words[i] == ',') {
			words[i] = 0;
		} else if (i == 0 || words[i - 1] == 0) {
			split[n++] = &words[i];
		}
	}
	split[n] = 0;
	*argc = n;
	*argv = split;
	return 1;
}

int main(int argc, char **argv, char **envp)
{
	unsigned scale;
	struct line l;

	if (argc > 1 && str_eq(argv[1], "exit"))
		return 0;                       /* the child of fork+exec+exit */
	environ = envp;
	/* Exec ourselves by the name we were started with if it is a path (/init on Linux). */
	for (const char *p = argc > 0 ? argv[0] : ""; *p; p++)
		if (*p == '/')
			self = argv[0];
	scale = apply_scale();
	start_line(scale);
	if (disk_args(&argc, &argv))
		disk_main(argc, argv);  /* sets status */
	else
		bench_syscalls();
	line_start(&l, "sysbench: done status=");
	put_u64(&l, (unsigned)status);
	put_end(&l);
	if (sys0(__NR_getpid) == 1)             /* init: turn the machine off, QEMU exits */
		sys4(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_POWER_OFF, 0);
	return status;
}
