/*
 * The time keyword. Real time is CLOCK_MONOTONIC's; user and system time
 * come from times(): the shell's own (builtins, loops it runs itself) plus
 * its children's that have been waited for (tms_cutime, tms_cstime), which
 * is every process of the pipeline by the time it is done. The output is
 * POSIX's `time -p` format, on stderr as bash's time keyword does.
 */
#include <stdio.h>
#include <sys/times.h>
#include <time.h>

#include "timing.h"

#define TICKS_PER_SECOND 100    /* clock_t units: USER_HZ, 100 on Linux i386 and smpix */

void timing_start(struct timing *t)
{
	clock_gettime(CLOCK_MONOTONIC, &t->start);
	times(&t->cpu);
}

/* "NAME S.CC": hundredths of a second. */
static void line(const char *name, long long hundredths)
{
	fprintf(stderr, "%s %lld.%02lld\n", name, hundredths / 100, hundredths % 100);
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
	line("sys", ticks_to_hundredths((long long)(cpu.tms_stime + cpu.tms_cstime) -
					(t->cpu.tms_stime + t->cpu.tms_cstime)));
}
