/*
 * labcheck: what the lab graders run inside smpix (tools/labs/grade.py boots it as
 * init=/bin/labcheck lab=N). Each check prints "labcheck: NAME ok" or
 * "labcheck: NAME FAIL why", then a summary; the grader gives the points.
 *
 *   lab=5  /dev/tally (lab 5): updates from a worker on every CPU are all
 *          kept under ioctl=auto and ioctl=unlocked, and /proc/ioctl counts
 *          tally's calls as made without the BKL;
 *   lab=6  /dev/journal (lab 6): writers on every CPU get every sequence
 *          number once, the BKL is not taken for their records, and a lock
 *          set up in drivers/lab/journal.c is, for each (lockdep=1 names
 *          it; the numbering alone rarely catches a journal with no lock);
 *   lab=7  /dev/ledger (lab 7): its ioctls run without the BKL, no audit
 *          ever sees money in flight, the two branches' transfers do not
 *          wait for each other, and transfers between them in both
 *          directions at once do not deadlock (if they do, it says who holds
 *          which lock, from /dev/ledger's report, and kills them).
 *
 * A student can run it too: `labcheck lab=5` at the shell.
 */
#include "gtest.h"

#include "kernel/uapi/ledger.h"
#include "kernel/uapi/tally.h"

#ifndef __NR_sched_setaffinity
#define __NR_sched_setaffinity 241
#endif
#ifndef __NR_sched_getaffinity
#define __NR_sched_getaffinity 242
#endif
#define WORKERS_MAX 16
#define TALLY_UPDATES 100       /* per worker */
#define TALLY_SPINS 100000      /* a window between read and write-back (about 0.6 ms) */
#define JOURNAL_RECORDS 300     /* per worker */

static char text[8192];
static int ncpus;


static unsigned long long number_after(const char *text, const char *word)
{
	const char *p = gt_strstr(text, word);
	unsigned long long v = 0;

	if (!p)
		return ~0ull;
	for (p += strlen(word); *p == ' '; p++)
		;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (unsigned)(*p - '0');
	return v;
}

/* A driver's line in /proc/ioctl: "DRIVER FLAG BKL_CALLS UNLOCKED_CALLS BKL_WAIT_US". */
struct ioctl_row {
	char flag[16];                  /* "-" or "unlocked" */
	unsigned long long bkl_calls, unlocked_calls;
};

/* Past the blanks before a column and the column itself. */
static const char *past_column(const char *p)
{
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')
		p++;
	return p;
}

/* Read /proc/ioctl into text and driver's line from it into row; false if either is missing. */
static bool read_ioctl_row(const char *driver, struct ioctl_row *row)
{
	char want[32];
	const char *p, *flag;
	size_t len;

	snprintf(want, sizeof(want), "\n%s ", driver);
	if (gt_read_file("/proc/ioctl", text, sizeof(text)) <= 0 || !(p = gt_strstr(text, want)))
		return false;
	for (flag = p + strlen(want); *flag == ' '; flag++)
		;
	p = past_column(flag);
	len = MIN((size_t)(p - flag), sizeof(row->flag) - 1);
	memcpy(row->flag, flag, len);
	row->flag[len] = 0;
	row->bkl_calls = number_after(p, "");
	p = past_column(p);
	row->unlocked_calls = number_after(p, "");
	return true;
}

/*
 * Start one worker per CPU (WORKERS_MAX at most): worker i runs fn(i), pinned
 * to CPU i if pin, and exits 0 unless fn exited first. Their pids into pids
 * (a pid <= 0: that fork failed); how many there are.
 */
static int start_workers(void (*fn)(int i), int pin, int *pids)
{
	int n = MIN(ncpus, WORKERS_MAX);

	for (int i = 0; i < n; i++) {
		if ((pids[i] = gt_fork()) == 0) {
			if (pin)
				gt_pin_to_cpu(i);
			fn(i);
			gt_exit(0);
		}
	}
	return n;
}

/* One worker per CPU, pinned there, running fn(cpu); 1 if all exited 0. */
static int on_every_cpu(void (*fn)(int cpu))
{
	int pids[WORKERS_MAX], n = start_workers(fn, 1, pids), ok = 1;

	for (int i = 0; i < n; i++)
		ok &= pids[i] > 0 && gt_wait(pids[i]) == 0;
	return ok;
}

/* A worker's loop: rounds calls of ioctl(fd, cmd, arg); the worker exits 1 at the first that fails. */
static void ioctl_rounds(int fd, unsigned cmd, const void *arg, int rounds)
{
	for (int k = 0; k < rounds; k++)
		if (gt_ioctl(fd, cmd, arg) != 0)
			gt_exit(1);
}

/* A test fails, saying why (printf's format). */
#define FAIL_WITH(...)                                                                  \
	do {                                                                            \
		snprintf(gt_why, sizeof(gt_why), __VA_ARGS__);                          \
		gt_failure = gt_why;                                                    \
		return;                                                                 \
	} while (0)

/* ---- lab 5: /dev/tally ------------------------------------------------------------- */

static int tally_fd;
static int shared_slot = 1;     /* 1: every worker updates slot 0; 0: worker i updates slot i */

static void tally_worker(int cpu)
{
	struct tally_add a = { shared_slot ? 0 : (unsigned)cpu % TALLY_SLOTS, TALLY_SPINS };

	ioctl_rounds(tally_fd, TALLY_ADD, &a, TALLY_UPDATES);
}

/* Hammer /dev/tally from every CPU under one ioctl= policy; then read it. */
static int tally_hammer(const char *mode, int shared, struct tally_stats *st)
{
	if (gt_write_file("/proc/sys/kernel/ioctl_mode", mode) <= 0 || gt_ioctl(tally_fd, TALLY_RESET, 0) != 0)
		return 0;
	shared_slot = shared;
	return on_every_cpu(tally_worker) && gt_ioctl(tally_fd, TALLY_READ, st) == 0;
}

static unsigned long long slot_sum(const struct tally_stats *st)
{
	unsigned long long sum = 0;

	for (int i = 0; i < TALLY_SLOTS; i++)
		sum += st->slot[i];
	return sum;
}

static void t_tally_bad_input(void)
{
	struct tally_add a = { TALLY_SLOTS, 0 };

	CHECK(gt_ioctl(tally_fd, TALLY_ADD, &a) == -EINVAL);
	a = (struct tally_add){ 0, TALLY_MAX_SPINS + 1 };
	CHECK(gt_ioctl(tally_fd, TALLY_ADD, &a) == -EINVAL);
	CHECK(gt_ioctl(tally_fd, TALLY_ADD, BAD_UNMAP) == -EFAULT);
	CHECK(gt_ioctl(tally_fd, TALLY_READ, BAD_KERNEL) == -EFAULT);
	CHECK(gt_ioctl(tally_fd, _IO('t', 99), 0) == -ENOTTY);
}

static void t_tally_auto_keeps_every_update(void)
{
	struct tally_stats st;

	CHECK(tally_hammer("auto", 1, &st));
	printf("labcheck: tally auto calls=%llu slot0=%llu\n", st.calls, st.slot[0]);
	CHECK(st.calls == (unsigned long long)MIN(ncpus, WORKERS_MAX) * TALLY_UPDATES);
	CHECK(st.slot[0] == st.calls);
}

static void t_tally_calls_run_unlocked(void)
{
	struct tally_stats st;
	struct ioctl_row row;

	CHECK(gt_write_file("/proc/ioctl", "0") > 0);
	CHECK(tally_hammer("auto", 1, &st));
	CHECK(read_ioctl_row("tally", &row));
	printf("labcheck: /proc/ioctl: tally flag %s\n", row.flag);
	printf("labcheck: /proc/ioctl: tally bkl_calls=%llu unlocked_calls=%llu\n", row.bkl_calls,
	       row.unlocked_calls);
	CHECK(row.bkl_calls == 0);
	CHECK(row.unlocked_calls >= st.calls && st.calls > 0);
}

static void t_tally_unlocked_keeps_every_update(void)
{
	struct tally_stats st;

	CHECK(tally_hammer("unlocked", 1, &st));
	printf("labcheck: tally unlocked calls=%llu slot0=%llu lost=%lld\n", st.calls, st.slot[0],
	       (long long)(st.calls - st.slot[0]));
	CHECK(st.calls == (unsigned long long)MIN(ncpus, WORKERS_MAX) * TALLY_UPDATES);
	CHECK(st.slot[0] == st.calls);
}

static void t_tally_slots_are_separate(void)
{
	struct tally_stats st;
	int n = MIN(ncpus, WORKERS_MAX);

	CHECK(tally_hammer("auto", 0, &st));
	for (int i = 0; i < TALLY_SLOTS; i++) {
		int workers = n / TALLY_SLOTS + (i < n % TALLY_SLOTS);
		CHECK(st.slot[i] == (unsigned long long)workers * TALLY_UPDATES);
	}
	CHECK(slot_sum(&st) == st.calls);
}

static void lab5(void)
{
	tally_fd = gt_open("/dev/tally", O_RDWR);
	printf("labcheck: lab 5 on %d CPUs, /dev/tally fd %d\n", ncpus, tally_fd);
	gt_run("tally-bad-input", t_tally_bad_input);
	gt_run("tally-auto-keeps-every-update", t_tally_auto_keeps_every_update);
	gt_run("tally-calls-run-unlocked", t_tally_calls_run_unlocked);
	gt_run("tally-unlocked-keeps-every-update", t_tally_unlocked_keeps_every_update);
	gt_run("tally-slots-are-separate", t_tally_slots_are_separate);
	gt_write_file("/proc/sys/kernel/ioctl_mode", "auto");
}

/* ---- lab 6: /dev/journal ------------------------------------------------------------ */

static void journal_worker(int cpu)
{
	int fd = gt_open("/dev/journal", O_WRONLY);
	char rec[40];

	if (fd < 0)
		gt_exit(1);
	for (int k = 0; k < JOURNAL_RECORDS; k++) {
		int len = snprintf(rec, sizeof(rec), "cpu %d record %d", cpu, k);
		if (gt_write(fd, rec, (size_t)len) != len)
			gt_exit(1);
	}
	gt_close(fd);
}

/* The acquisitions of every /proc/bkl site, summed; the busiest site's line into hot; those in file's. */
static unsigned long long bkl_acquisitions(char *hot, size_t hotsize, const char *file,
					   unsigned long long *file_acq)
{
	unsigned long long total = 0, best = 0;
	char *line = text;

	*file_acq = 0;
	if (gt_read_file("/proc/bkl", text, sizeof(text)) <= 0)
		return ~0ull;
	hot[0] = 0;
	while (line && *line) {
		char *nl = gt_strstr(line, "\n"), *p = line;
		unsigned long long v = 0;

		if (nl)
			*nl = 0;
		while (*p == ' ')
			p++;
		if (*p >= '0' && *p <= '9') {
			for (; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (unsigned)(*p - '0');
			total += v;
			if (gt_strstr(line, file))
				*file_acq += v;
			if (v > best) {
				best = v;
				snprintf(hot, hotsize, "%s", line);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return total;
}

static void t_journal_bad_input(void)
{
	char big[100];
	int fd = gt_open("/dev/journal", O_RDWR);

	memset(big, 'x', sizeof(big));
	CHECK(fd >= 0);
	CHECK(gt_write(fd, big, 0) == 0);                       /* no record */
	CHECK(gt_write(fd, big, sizeof(big)) == -EINVAL);
	CHECK(gt_write(fd, BAD_UNMAP, 8) == -EFAULT);
	CHECK(gt_read(fd, BAD_UNMAP, 8) == -EFAULT);
	gt_close(fd);
}

/*
 * The journal has no reset (a driver's log lives as long as the kernel), so the
 * check counts from what it finds: a second `labcheck lab=6` in the same boot,
 * or records written at the shell before it, must not fail it.
 */
static void t_journal_numbers_every_record_once(void)
{
	unsigned long long records0, next0, seqsum0, records, next, seqsum, n, want;

	CHECK(gt_read_file("/dev/journal", text, sizeof(text)) > 0);
	records0 = number_after(text, "records");
	next0 = number_after(text, "next");
	seqsum0 = number_after(text, "seqsum");
	CHECK(records0 != ~0ull && next0 == records0 + 1 && seqsum0 != ~0ull);
	CHECK(on_every_cpu(journal_worker));
	CHECK(gt_read_file("/dev/journal", text, sizeof(text)) > 0);
	records = number_after(text, "records") - records0;
	next = number_after(text, "next") - next0;
	seqsum = number_after(text, "seqsum") - seqsum0;
	n = (unsigned long long)MIN(ncpus, WORKERS_MAX) * JOURNAL_RECORDS;
	want = n * next0 + n * (n - 1) / 2;    /* next0 + (next0 + 1) + ... + (next0 + n - 1) */
	printf("labcheck: journal records=+%llu next=+%llu seqsum=+%llu (want +%llu, +%llu, +%llu)\n", records,
	       next, seqsum, n, n, want);
	CHECK(records == n);
	CHECK(next == n);
	CHECK(seqsum == want);
	CHECK(gt_strstr(text, " record ") != NULL);     /* the newest records are shown */
}

static char big[65536];          /* /proc/lock_stat, /proc/lockdep: a line per lock class */

/*
 * The acquisitions, since /proc/lock_stat was reset, of the lock classes set up
 * in file (their place in /proc/lockdep; a lock is seen there once taken with
 * lockdep=1); the classes' names into names. ~0ull if lockdep is off.
 */
static unsigned long long class_acquisitions(const char *file, char *names, size_t size)
{
	char classes[8][48], want[64], *p;
	int nclasses = 0;
	unsigned long long sum = 0;

	names[0] = 0;
	snprintf(want, sizeof(want), " (%s:", file);
	if (gt_read_file("/proc/lockdep", big, sizeof(big)) <= 0 || !gt_strstr(big, "lockdep: on"))
		return ~0ull;
	/* "FD:   n {u}: NAME (FILE:LINE)": NAME is between "}: " and " (FILE:" (the nearest ": " before) */
	for (p = gt_strstr(big, want); p && nclasses < 8; p = gt_strstr(p + 1, want)) {
		char *start = p;
		size_t len;

		int seen = 0;

		while (start > big + 1 && !(start[-2] == ':' && start[-1] == ' ') && start[-1] != '\n')
			start--;
		len = MIN((size_t)(p - start), sizeof(classes[0]) - 1);
		memcpy(classes[nclasses], start, len);
		classes[nclasses][len] = 0;
		if (len > 2 && strcmp(classes[nclasses] + len - 2, "/1") == 0)
			classes[nclasses][len - 2] = 0;
		for (int i = 0; i < nclasses; i++)      /* a class's second subclass: one class */
			seen |= strcmp(classes[i], classes[nclasses]) == 0;
		if (seen)
			continue;
		snprintf(names + strlen(names), size - strlen(names), "%s%s", nclasses ? ", " : "", classes[nclasses]);
		nclasses++;
	}
	if (gt_read_file("/proc/lock_stat", big, sizeof(big)) <= 0)
		return 0;
	/* "%40s:%14llu %14llu" and then: wait-min, -max, -total, -avg, acq-bounces, acquisitions, ... */
	for (int i = 0; i < nclasses; i++) {
		snprintf(want, sizeof(want), " %s:", classes[i]);
		if ((p = gt_strstr(big, want)) != NULL) {
			p += strlen(want);
			for (int col = 0; col < 7; col++)
				p = (char *)past_column(p);
			sum += number_after(p, "");
		}
	}
	return sum;
}

/*
 * The pushdown: no BKL for the journal's records, and a lock of the journal's
 * own (set up in drivers/lab/journal.c) taken for each of them. A journal with
 * no lock at all takes no BKL either, and its races are too rare under QEMU to
 * be caught by the numbering alone: this is what tells it apart.
 */
static void t_journal_without_the_bkl(void)
{
	char hot[200], names[200];
	unsigned long long total, journal_acq, own, n = (unsigned long long)MIN(ncpus, WORKERS_MAX) * JOURNAL_RECORDS;

	CHECK(gt_write_file("/proc/bkl", "0") > 0);
	CHECK(gt_write_file("/proc/sys/kernel/lock_stat", "1") > 0);
	CHECK(gt_write_file("/proc/lock_stat", "0") > 0);
	CHECK(on_every_cpu(journal_worker));
	CHECK(gt_write_file("/proc/sys/kernel/lock_stat", "0") > 0);
	total = bkl_acquisitions(hot, sizeof(hot), "drivers/lab/journal.c", &journal_acq);
	own = class_acquisitions("drivers/lab/journal.c", names, sizeof(names));
	printf("labcheck: %llu records written; the BKL was taken %llu times, %llu of them in "
	       "drivers/lab/journal.c; the busiest site:\nlabcheck: %s\n", n, total, journal_acq, hot);
	printf("labcheck: the locks set up in drivers/lab/journal.c (%s) were taken %llu times\n",
	       names[0] ? names : "none seen", own == ~0ull ? 0 : own);
	CHECK(journal_acq == 0);
	CHECK(total < n / 10);
	if (own == ~0ull)
		FAIL_WITH("lockdep is off: boot with lockdep=1 to see the journal's own lock in /proc/lockdep");
	if (own < n)
		FAIL_WITH("%llu records, but the locks set up in drivers/lab/journal.c (%s) were taken %llu times: "
			  "what keeps two writers apart?", n, names[0] ? names : "none", own);
}

static void lab6(void)
{
	printf("labcheck: lab 6 on %d CPUs\n", ncpus);
	gt_run("journal-numbers-every-record-once", t_journal_numbers_every_record_once);
	gt_run("journal-without-the-bkl", t_journal_without_the_bkl);
	gt_run("journal-bad-input", t_journal_bad_input);
}

/* ---- lab 7: /dev/ledger ------------------------------------------------------------- */

#define LEDGER_TOTAL ((long long)LEDGER_ACCOUNTS * LEDGER_OPENING)
#define LEDGER_ROUNDS 50                /* transfers per worker */
#define LEDGER_DELAY_US 2000            /* the back office's time in the busy runs (a tick, really) */
#define LEDGER_DONE "/tmp/ledger-done"  /* exists: the auditor may stop */
#define LEDGER_STUCK_MS 10000           /* workers not done by then are stuck */
#define LEDGER_ABBA_MS 2000             /* the same ABBA picture this long: a deadlock, no need to wait more */


static int ledger_fd;

static long transfer(unsigned from, unsigned to, int amount, unsigned delay_us)
{
	struct ledger_transfer t = { from, to, amount, delay_us };

	return gt_ioctl(ledger_fd, LEDGER_TRANSFER, &t);
}

/* Has pid exited (reaped, its status in *status)? Does not wait. */
static int exited(int pid, int *status)
{
	return SYS4(__NR_wait4, pid, status, WNOHANG, 0) == pid;
}

/* "lock NAME holder PID waiting N", a line of /dev/ledger's report: PID, and N in *waiting. */
static int report_holder(const char *line, int *waiting)
{
	unsigned long long h = number_after(line, "holder"), w = number_after(line, "waiting");

	*waiting = (int)w;
	return (int)h;
}

/*
 * Read /dev/ledger's report (without its locks) into text and the two branch
 * locks' holders into held_by: 1 if it is an ABBA deadlock's picture, each
 * lock held by another task and both waited for.
 */
static int ledger_abba(int held_by[2])
{
	int waits[2] = { 0, 0 }, seen = 0;
	char *line;

	held_by[0] = held_by[1] = 0;
	gt_read_file("/dev/ledger", text, sizeof(text));
	for (line = gt_strstr(text, "\nlock "); line && seen < 2; line = gt_strstr(line + 1, "\nlock ")) {
		held_by[seen] = report_holder(line, &waits[seen]);
		seen++;
	}
	return seen == 2 && held_by[0] && held_by[1] && held_by[0] != held_by[1] && waits[0] && waits[1];
}

/*
 * Wait up to LEDGER_STUCK_MS for each of n pids to exit; done[i]: 0 still
 * running, 1 exited with a failure, 2 exited 0. Returns how many exited. It
 * stops early when the report shows the same two holders in an ABBA picture
 * for LEDGER_ABBA_MS: a transfer holds a lock for a few ms, a deadlock for
 * ever, so there is nothing to wait the rest of the 10 s for.
 */
static int wait_workers(const int *pids, int n, int *done)
{
	int64_t end = gt_now_ms() + LEDGER_STUCK_MS, abba_since = 0;
	int left = n, st, last[2] = { 0, 0 }, now[2];

	for (int i = 0; i < n; i++)
		done[i] = pids[i] > 0 ? 0 : 1;
	while (left > 0 && gt_now_ms() < end) {
		left = 0;
		for (int i = 0; i < n; i++) {
			if (!done[i] && exited(pids[i], &st))
				done[i] = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 2 : 1;
			left += !done[i];
		}
		if (!left)
			break;
		if (ledger_abba(now) && now[0] == last[0] && now[1] == last[1]) {
			if (!abba_since)
				abba_since = gt_now_ms();
			else if (gt_now_ms() - abba_since >= LEDGER_ABBA_MS)
				break;
		} else {
			abba_since = 0;
		}
		last[0] = now[0];
		last[1] = now[1];
		gt_msleep(20);
	}
	return n - left;
}

/*
 * Wait up to LEDGER_STUCK_MS for n workers (pids); 1 if they all exited 0.
 * If some are stuck, say what /dev/ledger reports (read without its locks),
 * name an ABBA deadlock when two tasks each hold one of the two locks and
 * both locks have a waiter, kill the stuck workers (the driver's locks are killable) so
 * that the run can go on, and fail with that diagnosis in gt_why.
 */
static int ledger_wait(const int *pids, int n, int *done)
{
	int held_by[2], abba;

	if (wait_workers(pids, n, done) == n) {
		for (int i = 0; i < n; i++) {
			if (done[i] != 2) {
				snprintf(gt_why, sizeof(gt_why), "a worker's transfer failed");
				return 0;
			}
		}
		return 1;
	}
	abba = ledger_abba(held_by);
	printf("labcheck: %s: workers stuck; /dev/ledger says:\n%s", gt_test, text);
	for (int i = 0; i < n; i++)
		if (!done[i])
			SYS2(__NR_kill, pids[i], 9);
	for (int i = 0; i < n; i++)
		if (!done[i])
			gt_wait(pids[i]);
	if (abba)
		snprintf(gt_why, sizeof(gt_why), "deadlock: pids %d and %d each hold one branch lock and wait for "
			 "the other's: ABBA", held_by[0], held_by[1]);
	else
		snprintf(gt_why, sizeof(gt_why), "workers stuck for %d s (see /dev/ledger's report above)",
			 LEDGER_STUCK_MS / 1000);
	return 0;
}

/* ledger_wait(), failing the test with its diagnosis. */
#define CHECK_WORKERS(pids, n, done)                                                    \
	do {                                                                            \
		if (!ledger_wait(pids, n, done)) {                                      \
			gt_failure = gt_why;                                            \
			return;                                                         \
		}                                                                       \
	} while (0)

/* A worker making rounds transfers of amount from one account to another; its pid. */
static int ledger_child(unsigned from, unsigned to, int amount, unsigned delay_us, int rounds)
{
	int pid = gt_fork();

	if (pid == 0) {
		struct ledger_transfer t = { from, to, amount, delay_us };

		ioctl_rounds(ledger_fd, LEDGER_TRANSFER, &t, rounds);
		gt_exit(0);
	}
	return pid;
}

/* Worker i of t_ledger_without_the_bkl: between the branches, even ones from branch 0 to 1, odd ones back. */
static void ledger_crossing_worker(int i)
{
	unsigned a = (unsigned)(i / 2) % LEDGER_PER_BRANCH, b = LEDGER_PER_BRANCH + (a + 1) % LEDGER_PER_BRANCH;
	struct ledger_transfer t = { i % 2 ? b : a, i % 2 ? a : b, 1, 0 };

	ioctl_rounds(ledger_fd, LEDGER_TRANSFER, &t, LEDGER_ROUNDS);
}

static void t_ledger_bad_input(void)
{
	struct ledger_audit a;

	CHECK(transfer(LEDGER_ACCOUNTS, 0, 1, 0) == -EINVAL);
	CHECK(transfer(0, LEDGER_ACCOUNTS, 1, 0) == -EINVAL);
	CHECK(transfer(3, 3, 1, 0) == -EINVAL);
	CHECK(transfer(0, 1, 1, LEDGER_MAX_DELAY_US + 1) == -EINVAL);
	CHECK(gt_ioctl(ledger_fd, LEDGER_TRANSFER, BAD_UNMAP) == -EFAULT);
	CHECK(gt_ioctl(ledger_fd, LEDGER_AUDIT, BAD_KERNEL) == -EFAULT);
	CHECK(gt_ioctl(ledger_fd, _IO('L', 99), 0) == -ENOTTY);
	CHECK(gt_ioctl(ledger_fd, LEDGER_AUDIT, &a) == 0 && a.total == LEDGER_TOTAL);
}

/* Step 1: the VFS calls the ledger without the BKL (its bkl_calls column in /proc/ioctl stays 0). */
static void t_ledger_pushed_down(void)
{
	struct ioctl_row row;
	struct ledger_audit a;

	CHECK(gt_write_file("/proc/ioctl", "0") > 0);
	for (int k = 0; k < 20; k++) {
		CHECK(transfer((unsigned)k % LEDGER_ACCOUNTS, (unsigned)(k + 5) % LEDGER_ACCOUNTS, 1, 0) == 0);
		CHECK(gt_ioctl(ledger_fd, LEDGER_AUDIT, &a) == 0);
	}
	CHECK(read_ioctl_row("ledger", &row));
	printf("labcheck: /proc/ioctl: ledger bkl_calls=%llu unlocked_calls=%llu\n", row.bkl_calls,
	       row.unlocked_calls);
	CHECK(row.bkl_calls == 0);
	CHECK(row.unlocked_calls >= 40);
}


/* Step 2: the BKL is not taken for the ledger's calls, by the VFS or by the driver. */
static void t_ledger_without_the_bkl(void)
{
	char hot[200];
	unsigned long long total, ledger_acq, n = (unsigned long long)MIN(ncpus, WORKERS_MAX) * LEDGER_ROUNDS;
	int pids[WORKERS_MAX], done[WORKERS_MAX], nw;

	CHECK(gt_ioctl(ledger_fd, LEDGER_RESET, 0) == 0);
	CHECK(gt_write_file("/proc/bkl", "0") > 0);
	nw = start_workers(ledger_crossing_worker, 0, pids);    /* not pinned */
	CHECK_WORKERS(pids, nw, done);
	total = bkl_acquisitions(hot, sizeof(hot), "drivers/lab/ledger.c", &ledger_acq);
	printf("labcheck: %llu transfers; the BKL was taken %llu times, %llu of them in drivers/lab/ledger.c; "
	       "the busiest site:\nlabcheck: %s\n", n, total, ledger_acq, hot);
	CHECK(ledger_acq == 0);
	CHECK(total < n / 10);
}

/* Audit until LEDGER_DONE appears: exit 0 if every audit found the whole total, else say when it did not. */
static void ledger_auditor(void)
{
	struct ledger_audit a;
	int audits = 0;

	for (;;) {
		int done = gt_open(LEDGER_DONE, O_RDONLY);

		if (gt_ioctl(ledger_fd, LEDGER_AUDIT, &a) != 0)
			gt_exit(2);
		audits++;
		if (a.total != LEDGER_TOTAL) {
			printf("labcheck: audit %d found %lld, not %lld: money in flight was seen\n", audits, a.total,
			       LEDGER_TOTAL);
			gt_exit(1);
		}
		if (done >= 0) {
			printf("labcheck: %d audits, each found %lld\n", audits, a.total);
			gt_exit(0);
		}
		gt_msleep(1);
	}
}

/* Step 2: transfers that sleep in the back office, within and across branches, and audits meanwhile. */
static void t_ledger_books_balance(void)
{
	int pids[4], done[4], n = 4, auditor, st;
	long long want[LEDGER_ACCOUNTS];
	struct ledger_audit a;

	SYS1(__NR_unlink, LEDGER_DONE);
	CHECK(gt_ioctl(ledger_fd, LEDGER_RESET, 0) == 0);
	for (int i = 0; i < LEDGER_ACCOUNTS; i++)
		want[i] = LEDGER_OPENING;
	auditor = gt_fork();
	if (auditor == 0)
		ledger_auditor();
	for (int i = 0; i < n; i++) {
		unsigned from = (unsigned)i * 2, to = (unsigned)(i * 2 + 3) % LEDGER_ACCOUNTS;

		pids[i] = ledger_child(from, to, 10 + i, LEDGER_DELAY_US, LEDGER_ROUNDS / 2);
		want[from] -= (10 + i) * (LEDGER_ROUNDS / 2);
		want[to] += (10 + i) * (LEDGER_ROUNDS / 2);
	}
	if (!ledger_wait(pids, n, done)) {
		SYS2(__NR_kill, auditor, 9);
		gt_wait(auditor);
		gt_failure = gt_why;
		return;
	}
	gt_close((int)SYS3(__NR_open, LEDGER_DONE, O_WRONLY | O_CREAT, 0644));
	st = gt_wait(auditor);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(gt_ioctl(ledger_fd, LEDGER_AUDIT, &a) == 0);
	for (int i = 0; i < LEDGER_ACCOUNTS; i++)
		if (a.balance[i] != want[i])
			FAIL_WITH("account %d holds %lld, not %lld: a transfer was lost", i, a.balance[i], want[i]);
}

/* Step 3: a transfer inside branch 1 does not wait for one inside branch 0 (kicked out of its back office after). */
static void t_ledger_branches_apart(void)
{
	int slow, fast, st, b_done = 0;
	int64_t end;

	CHECK(gt_ioctl(ledger_fd, LEDGER_RESET, 0) == 0);
	slow = ledger_child(0, 1, 100, LEDGER_MAX_DELAY_US, 1);        /* branch 0, until kicked */
	end = gt_now_ms() + 10000;
	while (gt_now_ms() < end && (gt_read_file("/dev/ledger", text, sizeof(text)) <= 0 ||
				     number_after(text, "back_office") != 1))
		gt_msleep(10);                  /* until the slow one is in the back office */
	fast = ledger_child(4, 5, 100, 0, 1);                                   /* branch 1 */
	end = gt_now_ms() + 5000;
	while (!b_done && gt_now_ms() < end) {
		if (exited(fast, &st))
			b_done = 1 + (WIFEXITED(st) && WEXITSTATUS(st) == 0);
		else
			gt_msleep(10);
	}
	gt_ioctl(ledger_fd, LEDGER_KICK, 0);
	gt_wait(slow);
	if (!b_done)
		gt_wait(fast);
	if (b_done == 1)
		FAIL_WITH("the transfer inside branch 1 failed");
	if (!b_done)
		FAIL_WITH("a transfer inside branch 1 waited 5 s for one inside branch 0: one lock for both branches?");
}

/* Step 3: transfers from branch 0 to 1 and from 1 to 0 at once, each sleeping in the back office. */
static void t_ledger_no_deadlock(void)
{
	int pids[2], done[2];

	CHECK(gt_ioctl(ledger_fd, LEDGER_RESET, 0) == 0);
	pids[0] = ledger_child(1, 6, 1, 20000, 10);     /* branch 0 -> 1 */
	pids[1] = ledger_child(5, 2, 1, 20000, 10);     /* branch 1 -> 0 */
	CHECK_WORKERS(pids, 2, done);
}

static void lab7(void)
{
	ledger_fd = gt_open("/dev/ledger", O_RDWR);
	printf("labcheck: lab 7 on %d CPUs, /dev/ledger fd %d\n", ncpus, ledger_fd);
	gt_run("ledger-bad-input", t_ledger_bad_input);
	gt_run("ledger-pushed-down", t_ledger_pushed_down);
	gt_run("ledger-without-the-bkl", t_ledger_without_the_bkl);
	gt_run("ledger-books-balance", t_ledger_books_balance);
	gt_run("ledger-branches-apart", t_ledger_branches_apart);
	gt_run("ledger-no-deadlock", t_ledger_no_deadlock);     /* last: a deadlock may leave a lock held */
}

/* "lab=N" in argv or envp (the kernel passes init its unknown boot words in the environment). */
static int lab_number(char **argv, char **envp)
{
	char **lists[2] = { argv, envp };

	for (int l = 0; l < 2; l++)
		for (char **p = lists[l]; p && *p; p++)
			if (strncmp(*p, "lab=", 4) == 0)
				return (*p)[4] - '0';
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	int lab = lab_number(argv, envp);

	gt_start("labcheck");
	ncpus = gt_count_cpus();
	if (lab == 5)
		lab5();
	else if (lab == 6)
		lab6();
	else if (lab == 7)
		lab7();
	else
		printf("labcheck: usage: labcheck lab=5|lab=6|lab=7\n");
	gt_finish();
}
