/*
 * labcheck: what the lab graders run inside smpix (tools/grade.py boots it as
 * init=/bin/labcheck lab=N). Each check prints "labcheck: NAME ok" or
 * "labcheck: NAME FAIL why", then a summary; the grader gives the points.
 *
 *   lab=5  /dev/tally (lab 5): updates from a worker on every CPU are all
 *          kept under ioctl=auto and ioctl=unlocked, and /proc/ioctl counts
 *          tally's calls as made without the BKL;
 *   lab=6  /dev/journal (lab 6): writers on every CPU get every sequence
 *          number once, and the BKL is not taken for their records.
 *
 * A student can run it too: `labcheck lab=5` at the shell.
 */
#include "gtest.h"

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

/* Start one worker per CPU, pinned there, running fn(cpu); 1 if all exited 0. */
static int on_every_cpu(void (*fn)(int cpu))
{
	int pids[WORKERS_MAX], n = MIN(ncpus, WORKERS_MAX), ok = 1;

	for (int i = 0; i < n; i++) {
		if ((pids[i] = gt_fork()) == 0) {
			gt_pin_to_cpu(i);
			fn(i);
			gt_exit(0);
		}
	}
	for (int i = 0; i < n; i++)
		ok &= pids[i] > 0 && gt_wait(pids[i]) == 0;
	return ok;
}

/* ---- lab 5: /dev/tally ------------------------------------------------------------- */

static int tally_fd;
static int shared_slot = 1;     /* 1: every worker updates slot 0; 0: worker i updates slot i */

static void tally_worker(int cpu)
{
	struct tally_add a = { shared_slot ? 0 : (unsigned)cpu % TALLY_SLOTS, TALLY_SPINS };

	for (int k = 0; k < TALLY_UPDATES; k++)
		if (gt_ioctl(tally_fd, TALLY_ADD, &a) != 0)
			gt_exit(1);
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

/* The line of /proc/ioctl for tally: "tally FLAG BKL_CALLS UNLOCKED_CALLS WAIT". */
static void t_tally_calls_run_unlocked(void)
{
	struct tally_stats st;
	unsigned long long locked = ~0ull, unlocked = 0;
	char *p;

	CHECK(gt_write_file("/proc/ioctl", "0") > 0);
	CHECK(tally_hammer("auto", 1, &st));
	CHECK(gt_read_file("/proc/ioctl", text, sizeof(text)) > 0);
	CHECK((p = gt_strstr(text, "\ntally ")) != NULL);
	for (p += 7; *p == ' '; p++)
		;
	printf("labcheck: /proc/ioctl: tally flag %.8s\n", p);
	while (*p && *p != ' ')
		p++;                    /* the flag column */
	locked = number_after(p, "");
	while (*p == ' ')
		p++;
	while (*p >= '0' && *p <= '9')
		p++;
	unlocked = number_after(p, "");
	printf("labcheck: /proc/ioctl: tally bkl_calls=%llu unlocked_calls=%llu\n", locked, unlocked);
	CHECK(locked == 0);
	CHECK(unlocked >= st.calls && st.calls > 0);
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

/* The acquisitions of every /proc/bkl site, summed; the busiest site's line into hot. */
static unsigned long long bkl_acquisitions(char *hot, size_t hotsize, unsigned long long *journal_acq)
{
	unsigned long long total = 0, best = 0;
	char *line = text;

	*journal_acq = 0;
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
			if (gt_strstr(line, "drivers/journal.c"))
				*journal_acq += v;
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

static unsigned long long journal_before;

static void t_journal_numbers_every_record_once(void)
{
	unsigned long long records, next, seqsum, n, want;

	CHECK(gt_read_file("/dev/journal", text, sizeof(text)) > 0);
	journal_before = number_after(text, "records");
	CHECK(journal_before == 0);
	CHECK(on_every_cpu(journal_worker));
	CHECK(gt_read_file("/dev/journal", text, sizeof(text)) > 0);
	records = number_after(text, "records");
	next = number_after(text, "next");
	seqsum = number_after(text, "seqsum");
	n = (unsigned long long)MIN(ncpus, WORKERS_MAX) * JOURNAL_RECORDS;
	want = n * (n + 1) / 2;
	printf("labcheck: journal records=%llu next=%llu seqsum=%llu (want %llu, %llu, %llu)\n", records,
	       next, seqsum, n, n + 1, want);
	CHECK(records == n);
	CHECK(next == n + 1);
	CHECK(seqsum == want);
	CHECK(gt_strstr(text, " record ") != NULL);     /* the newest records are shown */
}

static void t_journal_without_the_bkl(void)
{
	char hot[200];
	unsigned long long total, journal_acq, n = (unsigned long long)MIN(ncpus, WORKERS_MAX) * JOURNAL_RECORDS;

	CHECK(gt_write_file("/proc/bkl", "0") > 0);
	CHECK(on_every_cpu(journal_worker));
	total = bkl_acquisitions(hot, sizeof(hot), &journal_acq);
	printf("labcheck: %llu records written; the BKL was taken %llu times, %llu of them in "
	       "drivers/journal.c; the busiest site:\nlabcheck: %s\n", n, total, journal_acq, hot);
	CHECK(journal_acq == 0);
	CHECK(total < n / 10);
}

static void lab6(void)
{
	printf("labcheck: lab 6 on %d CPUs\n", ncpus);
	gt_run("journal-numbers-every-record-once", t_journal_numbers_every_record_once);
	gt_run("journal-without-the-bkl", t_journal_without_the_bkl);
	gt_run("journal-bad-input", t_journal_bad_input);
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
	else
		printf("labcheck: usage: labcheck lab=5|lab=6\n");
	gt_finish();
}
