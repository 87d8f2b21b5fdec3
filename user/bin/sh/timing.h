/* `time pipeline`: its real, user and system time, as POSIX's time -p prints them. */
#ifndef SH_TIMING_H
#define SH_TIMING_H

#include <sys/times.h>
#include <time.h>

struct timing {
	struct timespec start;
	struct tms cpu;
	long long spin_us, bkl_us;      /* the shell's and its children's, from /proc/self/status */
};

void timing_start(struct timing *t);
void timing_report(const struct timing *t);     /* "real 0.52\nuser 0.10\nsys 0.00\n" on stderr, and the spin */

#endif
