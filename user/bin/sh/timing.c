/*
 * The time keyword. Real time is CLOCK_MONOTONIC's; user and system time
 * come from times(): the shell's own (builtins, loops it runs itself) plus
 * its children's that have been waited for (tms_cutime, tms_cstime), which
 * is every process of the pipeline by the time it is done. The output is
 * POSIX's `time -p` format, on stderr as bash's time keyword does.
 *
 * On smpix the sys line also says how much of that time went in spinning
 * for kernel locks, and for the BKL, when there was any:
 * "sys 18.60 (spin 14.20, BKL 13.90)". Linux counts that as system time
 * without saying so; smpix's /proc/self/status has it (SpinTime, BKLTime
 * and the waited-for children's CSpinTime, CBKLTime). On Linux those lines
 * are absent and the sys line is POSIX's alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/times.h>
#include <time.h>

#include "timing.h"

#define TICKS_PER_SECOND 100    /* clock_t units: USER_HZ, 100 on Linux i386 and smpix */

/* "SpinTime:\t12.340000 s" as microseconds. */
static long long status_us(const char *value)
{
	char *end;
	long long us = strtoll(value, &end, 10) * 1000000;

	if (*end == '.')
		us += strtoll(end + 1, NULL, 10);       /* always six digits */
	return us;
}

/* The shell's own spin and its children's, added up: 0 where the kernel does not say. */
static void read_spin(long long *spin_us, long long *bkl_us)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];

	*spin_us = *bkl_us = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		if (strcmp(line, "SpinTime") == 0 || strcmp(line, "CSpinTime") == 0)
			*spin_us += status_us(colon + 1);
		else if (strcmp(line, "BKLTime") == 0 || strcmp(line, "CBKLTime") == 0)
			*bkl_us += status_us(colon + 1);
	}
	fclose(f);
}

void timing_start(struct timing *t)
{
	clock_gettime(CLOCK_MONOTONIC, &t->start);
	times(&t->cpu);
	read_spin(&t->spin_us, &t->bkl_us);
}

/* "NAME S.CC": hundredths of a second. */
static void line(const char *name, long long hundredths)
{
	fprintf(stderr, "%s %lld.%02lld\n", name, hundredths / 100, hundredths % 100);
}

/* "sys S.CC", and "(spin S.CC, BKL S.CC)" after it if any time went in spinning meanwhile. */
static void sys_line(long long hundredths, const struct timing *t)
{
	long long spin_us, bkl_us;

	read_spin(&spin_us, &bkl_us);
	spin_us -= t->spin_us;
	bkl_us -= t->bkl_us;
	/* Only when it is worth a word: a twentieth of a second, a tenth of the system time. */
	if (spin_us < 50000 || spin_us * 10 < hundredths * 10000) {
		line("sys", hundredths);
		return;
	}
	fprintf(stderr, "sys %lld.%02lld (spin %lld.%02lld, BKL %lld.%02lld)\n", hundredths / 100, hundredths % 100,
		spin_us / 1000000, spin_us / 10000 % 100, bkl_us / 1000000, bkl_us / 10000 % 100);
}

static long long ticks_to_hundredths(long long ticks)
{
	return ticks * 100 / TICKS_PER_SECOND;
}

void timing_report(const struct timing *t)
{
	struct timespec now;
	struct tms cpu;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	times(&cpu);
	ns = (long long)(now.tv_sec - t->start.tv_sec) * 1000000000 + (now.tv_nsec - t->start.tv_nsec);
	line("real", ns / 10000000);
	line("user", ticks_to_hundredths((long long)(cpu.tms_utime + cpu.tms_cutime) -
					 (t->cpu.tms_utime + t->cpu.tms_cutime)));
	sys_line(ticks_to_hundredths((long long)(cpu.tms_stime + cpu.tms_cstime) -
				     (t->cpu.tms_stime + t->cpu.tms_cstime)), t);
}
