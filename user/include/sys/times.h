/* <sys/times.h>: times(), the CPU time of the process and of the children it has waited for. */
#ifndef USER_SYS_TIMES_H
#define USER_SYS_TIMES_H

typedef long clock_t;                  /* in ticks of USER_HZ (100 a second), as on Linux */

struct tms {
	clock_t tms_utime;             /* user time of this process */
	clock_t tms_stime;             /* system time */
	clock_t tms_cutime;            /* user time of the children waited for, and of theirs */
	clock_t tms_cstime;            /* their system time */
};

clock_t times(struct tms *buf);

#endif
