/*
 * /bin/ioctltest: the drivers and the ioctl path.
 *
 *  - /dev/null, /dev/zero, /dev/full, /dev/rtc and the tty ioctls behave as
 *    on Linux (this part also runs on the host: build/ioctltest-linux);
 *  - smpix only: /proc/ioctl's counts prove which path each policy took;
 *    /dev/bench_bkl loses no update under ioctl=auto and does lose some under
 *    ioctl=unlocked; a driver sleeping inside its ioctl lets a serialized
 *    ioctl on another CPU through (the BKL is let go across sleep); a write
 *    of the policy waits for the ioctls begun under the old one; every
 *    2004 BKL site shows up in /proc/bkl once exercised; /dev/cpu/N/cpuid
 *    runs CPUID on CPU N; bad input gets -ENOTTY, -EFAULT, -EBADF, -EINVAL.
 *
 * On a host that lacks what a Linux check needs (a chroot without /dev/null,
 * no /dev/rtc or one another process holds, stdin not a terminal) that test
 * says SKIP and why.
 */
#include "gtest.h"

#include "kernel/uapi/bench.h"
#include "kernel/uapi/rtc.h"
#include "kernel/uapi/termios.h"

#ifndef __NR_sched_setaffinity
#define __NR_sched_setaffinity 241
#endif

#define BAD_BUF ((void *)0xC0000000)
#define WORKERS_MAX 8

static char text[16384];
static int ncpus = 1;
static const char *self = "/bin/ioctltest";    /* argv[0]: a regular file to try ioctls on */

/* A non-negative decimal number at p (spaces first are skipped). */
static long strtol_simple(const char *p)
{
	long v = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	return v;
}


/* ---- Linux's devices -------------------------------------------------------------- */

static void t_mem_devices(void)
{
	char buf[100];
	int fd;

	memset(buf, 'x', sizeof(buf));
	SKIP_IF(ON_LINUX && !(gt_exists("/dev/null") && gt_exists("/dev/zero") && gt_exists("/dev/full")),
		"no /dev/null, /dev/zero or /dev/full here (a chroot with a bare /dev?)");
	CHECK((fd = gt_open("/dev/null", O_RDWR)) >= 0);
	CHECK(gt_read(fd, buf, sizeof(buf)) == 0);
	CHECK(gt_write(fd, "gone", 4) == 4);
	CHECK(gt_write(fd, BAD_UNMAP, 10) == 10);               /* /dev/null never looks at the buffer */
	CHECK(gt_ioctl(fd, TCGETS, buf) == -ENOTTY);
	gt_close(fd);
	CHECK((fd = gt_open("/dev/zero", O_RDONLY)) >= 0);
	CHECK(gt_read(fd, buf, sizeof(buf)) == sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		CHECK(buf[i] == 0);
	CHECK(gt_read(fd, BAD_UNMAP, 10) == -EFAULT);
	gt_close(fd);
	CHECK((fd = gt_open("/dev/full", O_RDWR)) >= 0);
	CHECK(gt_write(fd, "x", 1) == -ENOSPC);
	CHECK(gt_read(fd, buf, 10) == 10 && buf[0] == 0);
	gt_close(fd);
}

static void t_rtc(void)
{
	struct rtc_time tm;
	struct gt_timespec now;
	long days, secs;
	int fd, y, m;

	fd = gt_open("/dev/rtc", O_RDONLY);
	/* Linux's /dev/rtc: often absent (containers), root's only, or held (one opener at a time). */
	SKIP_IF(ON_LINUX && fd == -ENOENT, "no /dev/rtc on this host");
	SKIP_IF(ON_LINUX && (fd == -EACCES || fd == -EPERM), "/dev/rtc is not ours to read");
	SKIP_IF(ON_LINUX && fd == -EBUSY, "another process holds /dev/rtc");
	CHECK(fd >= 0);
	if (ON_LINUX && gt_ioctl(fd, RTC_RD_TIME, &tm) == -EACCES) {
		gt_close(fd);
		SKIP_IF(true, "RTC_RD_TIME is refused here (-EACCES)");
	}
	CHECK(gt_ioctl(fd, RTC_RD_TIME, &tm) == 0);
	CHECK(gt_ioctl(fd, RTC_RD_TIME, BAD_UNMAP) == -EFAULT);
	/* _IO('p', 0xff): no RTC ioctl has that number (0x7001 is RTC_AIE_ON, which Linux's rtc-cmos takes). */
	CHECK(gt_ioctl(fd, 0x70ff, &tm) == -ENOTTY);
	gt_close(fd);
	CHECK(tm.tm_year >= 124 && tm.tm_mon >= 0 && tm.tm_mon < 12 && tm.tm_mday >= 1);
	/* The same moment as CLOCK_REALTIME, within a few seconds (days from civil, as in kernel/lib/calendar.c). */
	SYS2(__NR_clock_gettime, 0, &now);
	y = tm.tm_year + 1900 - (tm.tm_mon < 2);
	m = tm.tm_mon + 1;
	days = 365L * y + y / 4 - y / 100 + y / 400 + (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + tm.tm_mday - 1 - 719468;
	secs = days * 86400 + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
	CHECK(secs - now.tv_sec < 5 && now.tv_sec - secs < 5);
}

/* ---- bad input on the ioctl path ---------------------------------------------------- */

static void t_bad_input(void)
{
	struct termios t;
	int p[2], fd;

	CHECK(gt_ioctl(-1, TCGETS, &t) == -EBADF);
	CHECK(gt_ioctl(999, TCGETS, &t) == -EBADF);
	CHECK(SYS1(__NR_pipe, p) == 0);
	CHECK(gt_ioctl(p[0], TCGETS, &t) == -ENOTTY);           /* a tty command on a pipe */
	CHECK(gt_ioctl(p[1], TIOCGWINSZ, &t) == -ENOTTY);
	gt_close(p[0]);
	gt_close(p[1]);
	CHECK((fd = gt_open(self, O_RDONLY)) >= 0);
	CHECK(gt_ioctl(fd, TCGETS, &t) == -ENOTTY);             /* ... on a file */
	gt_close(fd);
	if (ON_LINUX && !gt_exists("/proc/self/stat"))
		return;                 /* a chroot without /proc: the file above was enough */
	CHECK((fd = gt_open("/proc/self/stat", O_RDONLY)) >= 0);
	CHECK(gt_ioctl(fd, TCGETS, &t) == -ENOTTY);             /* ... and on a procfs file */
	gt_close(fd);
}

/* fd 0 is the console when we are init; on the host it may be anything. */
static bool stdin_is_tty(void)
{
	struct termios t;

	return gt_ioctl(0, TCGETS, &t) == 0;
}

static void t_termios_round_trip(void)
{
	struct termios t, u, saved;
	struct winsize ws, ws2;

	SKIP_IF(ON_LINUX && !stdin_is_tty(), "stdin is not a terminal");
	CHECK(stdin_is_tty());          /* smpix's init always has the console */
	CHECK(gt_ioctl(0, TCGETS, &saved) == 0);
	CHECK(gt_ioctl(0, TCGETS, BAD_UNMAP) == -EFAULT);
	CHECK(gt_ioctl(0, TCSETS, BAD_UNMAP) == -EFAULT);
	CHECK(gt_ioctl(0, 0x54FF, &t) == -ENOTTY);              /* an unknown tty command */
	if (!ON_LINUX) {
		/* Linux's defaults, as a fresh console has them. */
		CHECK((saved.c_lflag & (ICANON | ECHO | ISIG)) == (ICANON | ECHO | ISIG));
		CHECK(saved.c_cc[VINTR] == 3 && saved.c_cc[VEOF] == 4 && saved.c_cc[VERASE] == 0x7F);
		CHECK((saved.c_oflag & (OPOST | ONLCR)) == (OPOST | ONLCR));
	}
	t = saved;
	t.c_lflag &= ~(tcflag_t)(ECHO | ICANON);
	t.c_cc[VMIN] = 3;
	t.c_cc[VTIME] = 7;
	CHECK(gt_ioctl(0, TCSETSW, &t) == 0);
	CHECK(gt_ioctl(0, TCGETS, &u) == 0);
	CHECK(!(u.c_lflag & (ECHO | ICANON)) && u.c_cc[VMIN] == 3 && u.c_cc[VTIME] == 7);
	CHECK(gt_ioctl(0, TCSETSF, &saved) == 0);
	CHECK(gt_ioctl(0, TCGETS, &u) == 0);
	CHECK(u.c_lflag == saved.c_lflag && memcmp(u.c_cc, saved.c_cc, NCCS) == 0);
	CHECK(gt_ioctl(0, TIOCGWINSZ, &ws) == 0);
	ws2 = ws;
	ws2.ws_row = 33;
	ws2.ws_col = 101;
	CHECK(gt_ioctl(0, TIOCSWINSZ, &ws2) == 0);
	CHECK(gt_ioctl(0, TIOCGWINSZ, &ws2) == 0 && ws2.ws_row == 33 && ws2.ws_col == 101);
	CHECK(gt_ioctl(0, TIOCSWINSZ, &ws) == 0);
	CHECK(gt_ioctl(0, TIOCGWINSZ, BAD_UNMAP) == -EFAULT);
	{
		/* poll on the terminal: writable at once, not readable with nothing typed. */
		struct { int fd; short events, revents; } pf = { 0, 0x0001 | 0x0004, 0 };

		CHECK(SYS3(168, &pf, 1, 0) == 1 && pf.revents == 0x0004);
	}
	printf("ioctltest: termios checked on a tty\n");
}

/* ---- smpix: the bench devices and the policy ------------------------------------------ */

static int bench_open(const char *name)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/%s", name);
	return gt_open(path, O_RDWR);
}

static long bench_update(int fd, unsigned spins, unsigned sleep_us)
{
	struct bench_work w = { spins, sleep_us };

	return gt_ioctl(fd, BENCH_UPDATE, &w);
}

static void t_bench_bad_input(void)
{
	struct bench_work w = { BENCH_MAX_SPINS + 1, 0 };
	struct bench_stats st;
	int fd;

	CHECK((fd = bench_open("bench_bkl")) >= 0);
	CHECK(gt_ioctl(fd, BENCH_UPDATE, &w) == -EINVAL);
	w = (struct bench_work){ 0, BENCH_MAX_SLEEP_US + 1 };
	CHECK(gt_ioctl(fd, BENCH_UPDATE, &w) == -EINVAL);
	CHECK(gt_ioctl(fd, BENCH_UPDATE, BAD_UNMAP) == -EFAULT);
	CHECK(gt_ioctl(fd, BENCH_UPDATE, BAD_BUF) == -EFAULT);
	CHECK(gt_ioctl(fd, BENCH_READ, BAD_UNMAP) == -EFAULT);
	CHECK(gt_ioctl(fd, _IO('b', 99), 0) == -ENOTTY);
	CHECK(gt_ioctl(fd, TCGETS, &st) == -ENOTTY);
	CHECK(gt_ioctl(fd, BENCH_READ, &st) == 0);
	gt_close(fd);
	CHECK((fd = bench_open("bench_own")) >= 0);
	CHECK(gt_ioctl(fd, BENCH_UPDATE, BAD_UNMAP) == -EFAULT);
	CHECK(gt_ioctl(fd, _IO('b', 99), 0) == -ENOTTY);
	gt_close(fd);
}

/* BENCH_LOCK_COST: answers, bad arguments, and the refusal to time a lock already held. */
static void t_bench_lock_cost(void)
{
	struct bench_lock_cost c = { 1000, 0, 0, 0 };
	int fd;

	CHECK((fd = bench_open("bench_own")) >= 0);
	CHECK(gt_ioctl(fd, BENCH_LOCK_COST, &c) == 0);
	CHECK(c.bkl_ns > 0 && c.spin_ns > 0);
	c.pairs = 0;
	CHECK(gt_ioctl(fd, BENCH_LOCK_COST, &c) == -EINVAL);
	c.pairs = BENCH_MAX_PAIRS + 1;
	CHECK(gt_ioctl(fd, BENCH_LOCK_COST, &c) == -EINVAL);
	CHECK(gt_ioctl(fd, BENCH_LOCK_COST, BAD_UNMAP) == -EFAULT);
	CHECK(gt_ioctl(fd, BENCH_LOCK_COST, BAD_BUF) == -EFAULT);
	/* Under ioctl=serialized the call arrives holding the BKL: timing it would time recursion. */
	c.pairs = 1000;
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "serialized") > 0);
	CHECK(gt_ioctl(fd, BENCH_LOCK_COST, &c) == -EBUSY);
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "auto") > 0);
	gt_close(fd);
	CHECK((fd = bench_open("bench_bkl")) >= 0);
	CHECK(gt_ioctl(fd, BENCH_LOCK_COST, &c) == -ENOTTY);    /* only the unlocked device has it */
	gt_close(fd);
}

/* The "bkl_calls unlocked_calls" columns of driver's line in /proc/ioctl. */
static int ioctl_counts(const char *driver, long *locked, long *unlocked)
{
	char want[32], *p;

	if (gt_read_file("/proc/ioctl", text, sizeof(text)) <= 0)
		return -1;
	snprintf(want, sizeof(want), "\n%s ", driver);
	if (!(p = gt_strstr(text, want)))
		return -1;
	p += strlen(want);
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')
		p++;                    /* the flag column */
	*locked = 0;
	*unlocked = 0;
	while (*p == ' ')
		p++;
	while (*p >= '0' && *p <= '9')
		*locked = *locked * 10 + (*p++ - '0');
	while (*p == ' ')
		p++;
	while (*p >= '0' && *p <= '9')
		*unlocked = *unlocked * 10 + (*p++ - '0');
	return 0;
}

static void t_policy_paths(void)
{
	static const struct { const char *mode; int bkl_locked, own_locked; } cases[] = {
		{ "auto", 1, 0 }, { "serialized", 1, 1 }, { "unlocked", 0, 0 },
	};
	int bkl = bench_open("bench_bkl"), own = bench_open("bench_own");
	long l, u;

	CHECK(bkl >= 0 && own >= 0);
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", cases[c].mode) > 0);
		CHECK(gt_write_file("/proc/ioctl", "0") > 0);
		for (int i = 0; i < 10; i++) {
			CHECK(bench_update(bkl, 10, 0) == 0);
			CHECK(bench_update(own, 10, 0) == 0);
		}
		CHECK(gt_read_file("/proc/ioctl", text, sizeof(text)) > 0);
		CHECK(strncmp(text, "policy: ", 8) == 0 && strncmp(text + 8, cases[c].mode, strlen(cases[c].mode)) == 0);
		CHECK(ioctl_counts("bench_bkl", &l, &u) == 0);
		CHECK(l == (cases[c].bkl_locked ? 10 : 0) && u == (cases[c].bkl_locked ? 0 : 10));
		CHECK(ioctl_counts("bench_own", &l, &u) == 0);
		CHECK(l == (cases[c].own_locked ? 10 : 0) && u == (cases[c].own_locked ? 0 : 10));
	}
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "auto") > 0);
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "sometimes") == -EINVAL);
	CHECK(gt_write_file("/proc/ioctl", "1") == -EINVAL);
	gt_close(bkl);
	gt_close(own);
}

/* Workers on every CPU hammer one device; returns counter and calls afterwards. */
static int hammer(const char *device, int updates, unsigned spins, struct bench_stats *st)
{
	int pids[WORKERS_MAX], n = MIN(ncpus, WORKERS_MAX), fd = bench_open(device), ok = 1;

	if (fd < 0 || gt_ioctl(fd, BENCH_RESET, 0) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if ((pids[i] = gt_fork()) == 0) {
			gt_pin_to_cpu(i);
			for (int k = 0; k < updates; k++)
				if (bench_update(fd, spins, 0) < 0)
					gt_exit(1);
			gt_exit(0);
		}
	}
	for (int i = 0; i < n; i++)
		ok &= pids[i] > 0 && gt_wait(pids[i]) == 0;
	ok &= gt_ioctl(fd, BENCH_READ, st) == 0;
	gt_close(fd);
	return ok ? n : -1;
}

static void t_bkl_keeps_updates_whole(void)
{
	struct bench_stats st;
	int n;

	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "auto") > 0);
	CHECK((n = hammer("bench_bkl", 150, 20000, &st)) > 0);
	CHECK(st.calls == (unsigned long long)n * 150);
	CHECK(st.counter == st.calls);                          /* the BKL made each update whole */
	CHECK((n = hammer("bench_own", 150, 20000, &st)) > 0);
	CHECK(st.counter == st.calls && st.calls == (unsigned long long)n * 150);
}

static void t_unlocked_loses_updates(void)
{
	struct bench_stats st = { 0, 0 };
	int n = 0, lost = 0;

	if (ncpus < 2)
		return;                 /* one CPU: nothing runs at the same time */
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "unlocked") > 0);
	/* A wide window (20000 spins between read and write-back); retry a few times, bounded. */
	for (int tries = 0; tries < 5 && !lost; tries++) {
		CHECK((n = hammer("bench_bkl", 150, 20000, &st)) > 0);
		lost = st.counter < st.calls;
	}
	printf("ioctltest: unlocked: %llu of %llu updates kept\n", st.counter, st.calls);
	CHECK(lost);
	/* The driver that locks for itself loses nothing, whatever the policy. */
	CHECK((n = hammer("bench_own", 150, 20000, &st)) > 0);
	CHECK(st.counter == st.calls);
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "auto") > 0);
}

/*
 * Switching the policy is a barrier: the write of a policy returns only after
 * every ioctl that began under the old one has ended. Workers on the other
 * CPUs update /dev/bench_bkl (which relies on the BKL) nonstop while this
 * process switches: "unlocked" (updates may get lost), then "serialized" or
 * "auto" (both serialize bench_bkl). Once that write has returned, no
 * unlocked update may still be running: a reset at once, a pause, and a
 * read (each under the BKL themselves) must find every update since the
 * reset kept. Without the barrier, an unlocked update that began before the
 * switch writes its stale count back after the reset.
 *
 * The workers make their updates long while the policy says "unlocked" (so
 * one is still running when the switch returns, if nothing waits for it)
 * and short otherwise (so the reset does not queue for the BKL behind one
 * until every old update is over anyway). Reading the policy first is only
 * a hint: a switch in between changes how likely a round is to catch a
 * missing barrier, not what it asserts.
 */
#define SWITCH_ROUNDS 12
#define SWITCH_LONG_SPINS 5000000       /* about 30 ms between an update's read and its write-back */
#define SWITCH_SHORT_SPINS 20000

static void switch_worker(int fd)
{
	char mode[16];

	for (;;) {
		bool unlocked = gt_read_file("/proc/sys/kernel/ioctl_mode", mode, sizeof(mode)) > 0 && mode[0] == 'u';

		bench_update(fd, unlocked ? SWITCH_LONG_SPINS : SWITCH_SHORT_SPINS, 0);
	}
}

/* The switches; how many rounds lost an update after the switch, or -1 if a call failed. */
static int switch_rounds(int fd, unsigned long long *updates)
{
	struct bench_stats st;
	int bad = 0;

	for (int r = 0; r < SWITCH_ROUNDS; r++) {
		const char *locked_mode = r % 2 ? "auto" : "serialized";

		if (gt_write_file("/proc/sys/kernel/ioctl_mode", "unlocked") <= 0)
			return -1;
		gt_msleep(40);
		if (gt_write_file("/proc/sys/kernel/ioctl_mode", locked_mode) <= 0 || gt_ioctl(fd, BENCH_RESET, 0) != 0)
			return -1;
		gt_msleep(40);
		if (gt_ioctl(fd, BENCH_READ, &st) != 0)
			return -1;
		*updates += st.calls;
		if (st.counter != st.calls) {
			printf("ioctltest: after a switch to %s: %llu of %llu updates kept\n", locked_mode,
			       st.counter, st.calls);
			bad++;
		}
	}
	return bad;
}

static void t_policy_switch_waits_for_old_calls(void)
{
	int pids[WORKERS_MAX], n = MIN(ncpus, WORKERS_MAX), fd = bench_open("bench_bkl"), bad;
	unsigned long long updates = 0;
	uint32_t all = (1u << ncpus) - 1;

	if (ncpus < 2)
		return;                 /* one CPU: no update runs beside the switch */
	CHECK(fd >= 0);
	for (int i = 1; i < n; i++) {
		if ((pids[i] = gt_fork()) == 0) {
			gt_pin_to_cpu(i);
			switch_worker(fd);
		}
	}
	gt_pin_to_cpu(0);
	bad = switch_rounds(fd, &updates);
	for (int i = 1; i < n; i++) {
		SYS2(__NR_kill, pids[i], SIGKILL);
		gt_wait(pids[i]);
	}
	SYS3(__NR_sched_setaffinity, 0, sizeof(all), &all);
	gt_close(fd);
	printf("ioctltest: %d policy switches; %llu updates counted after them, %d rounds lost some\n",
	       2 * SWITCH_ROUNDS, updates, bad);
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "auto") > 0);
	CHECK(bad == 0);
	CHECK(updates > 0);     /* the workers did run beside the switches */
}

/* Wait (up to 5 s) until pid is asleep, which the sleeper below only is inside its ioctl. */
static int wait_until_asleep(int pid)
{
	char path[32], stat[256], *state;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int i = 0; i < 500; i++) {
		if (gt_read_file(path, stat, sizeof(stat)) > 0 && (state = gt_strstr(stat, ") ")) &&
		    state[2] == 'S')
			return 1;
		gt_msleep(10);
	}
	return 0;
}

/*
 * Serialized, a driver that sleeps inside its ioctl lets the BKL go: another
 * CPU's ioctl gets in meanwhile. And because the sleeper read the counter
 * before it slept, its write-back loses the other update: the BKL protects
 * nothing across a sleep.
 */
static void t_sleep_lets_others_through(void)
{
	struct bench_stats st;
	int fd = bench_open("bench_bkl"), pid;
	int64_t t0, took;

	CHECK(fd >= 0);
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "serialized") > 0);
	CHECK(gt_ioctl(fd, BENCH_RESET, 0) == 0);
	if ((pid = gt_fork()) == 0) {
		gt_pin_to_cpu(0);
		gt_exit(bench_update(fd, 0, 600000) == 0 ? 0 : 1);     /* sleeps 0.6 s holding the BKL */
	}
	gt_pin_to_cpu(ncpus > 1 ? 1 : 0);
	CHECK(wait_until_asleep(pid));                          /* the sleeper is in its sleep now */
	t0 = gt_now_ms();
	CHECK(bench_update(fd, 0, 0) == 0);
	took = gt_now_ms() - t0;
	CHECK(gt_wait(pid) == 0);
	CHECK(gt_ioctl(fd, BENCH_READ, &st) == 0);
	printf("ioctltest: a serialized ioctl took %lld ms while another slept in its ioctl\n", (long long)took);
	CHECK(took < 450);                                      /* it did not wait for the sleeper */
	CHECK(st.calls == 2 && st.counter == 1);                /* ... and one update was lost */
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", "auto") > 0);
	gt_pin_to_cpu(0);
	{
		uint32_t all = (1u << ncpus) - 1;
		SYS3(__NR_sched_setaffinity, 0, sizeof(all), &all);
	}
	gt_close(fd);
}

/* Column col (0: acquired ... 5: hold_cycles) of the /proc/bkl line whose site contains where, or -1. */
static long bkl_site_column(const char *where, int col)
{
	char *p = gt_strstr(text, where), *line;

	if (!p)
		return -1;
	for (line = p; line > text && line[-1] != '\n'; line--)
		;
	for (int i = 0; i < col; i++) {
		while (*line == ' ')
			line++;
		while (*line >= '0' && *line <= '9')
			line++;
	}
	return strtol_simple(line);
}

static long bkl_site_acquired(const char *where) { return bkl_site_column(where, 0); }

/* The serialized ioctl path's hold time after a reset and n updates on /dev/bench_bkl, or -1. */
static long ioctl_hold_cycles_after(int n)
{
	int fd = bench_open("bench_bkl");

	if (fd < 0 || gt_write_file("/proc/bkl", "0") <= 0)
		return -1;
	for (int i = 0; i < n; i++)
		bench_update(fd, 10, 0);
	gt_close(fd);
	if (gt_read_file("/proc/bkl", text, sizeof(text)) <= 0 || bkl_site_acquired("fs/ioctl/vfs_ioctl.c:") < n)
		return -1;
	return bkl_site_column("fs/ioctl/vfs_ioctl.c:", 5);
}

/*
 * /proc/sys/kernel/bkl_timing: 0 counts BKL holds without timing them, 1
 * times every one, N (a power of two) one in N at random, 32 by default.
 */
static void t_bkl_timing(void)
{
	char buf[8] = "";

	CHECK(gt_read_file("/proc/sys/kernel/bkl_timing", buf, sizeof(buf)) == 3 && strncmp(buf, "32\n", 3) == 0);
	CHECK(gt_write_file("/proc/sys/kernel/bkl_timing", "0") > 0);
	CHECK(ioctl_hold_cycles_after(20) == 0);
	CHECK(gt_write_file("/proc/sys/kernel/bkl_timing", "1") > 0);
	CHECK(ioctl_hold_cycles_after(20) > 0);
	CHECK(gt_write_file("/proc/sys/kernel/bkl_timing", "4") > 0);
	CHECK(ioctl_hold_cycles_after(400) > 0);        /* (3/4)^400: never all untimed */
	CHECK(gt_write_file("/proc/sys/kernel/bkl_timing", "3") == -EINVAL);
	CHECK(gt_write_file("/proc/sys/kernel/bkl_timing", "2048") == -EINVAL);
	CHECK(gt_write_file("/proc/sys/kernel/bkl_timing", "on") == -EINVAL);
	CHECK(gt_write_file("/proc/sys/kernel/bkl_timing", "32") > 0);
	CHECK(gt_read_file("/proc/sys/kernel/bkl_timing", buf, sizeof(buf)) == 3 && strncmp(buf, "32\n", 3) == 0);
}

static void t_bkl_sites_of_2004(void)
{
	char buf[16];
	int fd;

	CHECK((fd = gt_open("/dev/null", O_RDONLY)) >= 0);      /* a char device's open() */
	gt_close(fd);
	CHECK((fd = bench_open("bench_bkl")) >= 0);
	CHECK(SYS3(__NR_lseek, fd, 0, 0) == 0);                 /* the default llseek */
	CHECK(bench_update(fd, 0, 0) == 0);                      /* a serialized ioctl */
	gt_close(fd);
	CHECK((fd = gt_open("/dev/cpu/0/cpuid", O_RDONLY)) >= 0);
	CHECK(SYS3(__NR_lseek, fd, 0, 0) == 0);                 /* cpuid's own llseek, as i386's */
	gt_close(fd);
	CHECK(gt_read_file("/proc/uptime", buf, sizeof(buf)) > 0);  /* /proc, not /proc/sys */
	CHECK(gt_read_file("/proc/bkl", text, sizeof(text)) > 0);
	CHECK(bkl_site_acquired("fs/devfs/chrdev.c:") > 0);
	CHECK(bkl_site_acquired("fs/read_write.c:") > 0);
	CHECK(bkl_site_acquired("fs/ioctl/vfs_ioctl.c:") > 0);
	CHECK(bkl_site_acquired("drivers/char/cpuid.c:") > 0);
	CHECK(bkl_site_acquired("fs/proc/procfs.c:") > 0);
	CHECK(bkl_site_acquired("kernel/main.c:") > 0);         /* boot-time initialisation */
}

/* /dev/cpu/N/cpuid at offset 1: leaf 1, whose ebx bits 31-24 are the CPU's initial APIC id. */
static void t_cpuid_per_cpu(void)
{
	uint32_t regs[4], vendor[4];
	char path[32];

	CHECK(gt_read_file("/proc/cpuinfo", text, sizeof(text)) > 0);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		char want[32];
		int fd;

		snprintf(path, sizeof(path), "/dev/cpu/%d/cpuid", cpu);
		CHECK((fd = gt_open(path, O_RDONLY)) >= 0);
		CHECK(gt_read(fd, regs, 15) == -EINVAL);        /* whole 16-byte records only */
		CHECK(gt_read(fd, vendor, 16) == 16);           /* offset 0: leaf 0, the vendor */
		CHECK(vendor[0] >= 1 && (vendor[1] == 0x756e6547 || vendor[1] == 0x68747541));  /* "Genu", "Auth" */
		CHECK(SYS3(__NR_lseek, fd, 1, 0) == 1);
		CHECK(gt_read(fd, regs, 16) == 16);
		CHECK(gt_read(fd, BAD_UNMAP, 16) == -EFAULT);
		CHECK(gt_write(fd, regs, 16) == -EBADF);        /* opened for reading */
		gt_close(fd);
		printf("ioctltest: cpu %d cpuid apicid %u\n", cpu, regs[1] >> 24);
		snprintf(want, sizeof(want), "processor\t: %d\n", cpu);
		CHECK(gt_strstr(text, want) != NULL);
		{
			char *block = gt_strstr(text, want), *a = gt_strstr(block, "\napicid\t\t: ");

			CHECK(a && strtol_simple(a + 11) == (long)(regs[1] >> 24));
		}
	}
	CHECK(gt_open("/dev/cpu/99/cpuid", O_RDONLY) == -ENOENT);
}

int main(int argc, char **argv)
{
	if (argc > 0)
		self = argv[0];         /* ioctltest never changes directory: a relative path serves */
	gt_start("ioctltest");
	ncpus = gt_count_cpus();
	gt_run("mem-devices", t_mem_devices);
	gt_run("rtc", t_rtc);
	gt_run("bad-input", t_bad_input);
	gt_run("termios-round-trip", t_termios_round_trip);
	if (!ON_LINUX) {
		gt_run("bench-bad-input", t_bench_bad_input);
		gt_run("bench-lock-cost", t_bench_lock_cost);
		gt_run("policy-paths", t_policy_paths);
		gt_run("bkl-keeps-updates-whole", t_bkl_keeps_updates_whole);
		gt_run("unlocked-loses-updates", t_unlocked_loses_updates);
		gt_run("sleep-lets-others-through", t_sleep_lets_others_through);
		gt_run("policy-switch-waits-for-old-calls", t_policy_switch_waits_for_old_calls);
		gt_run("bkl-sites-of-2004", t_bkl_sites_of_2004);
		gt_run("bkl-timing", t_bkl_timing);     /* after the sites: it resets /proc/bkl */
		gt_run("cpuid-per-cpu", t_cpuid_per_cpu);
	}
	gt_finish();
}
