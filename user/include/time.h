/* <time.h>: clocks and sleeps, 32-bit time as Linux i386's old calls have it. */
#ifndef USER_TIME_H
#define USER_TIME_H

#include <stdint.h>

typedef int32_t time_t;

struct timespec {
	int32_t tv_sec;
	int32_t tv_nsec;
};

#define CLOCK_REALTIME  0
#define CLOCK_MONOTONIC 1

/* The calendar in UTC, as gmtime() fills it. */
struct tm {
	int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
};

time_t time(time_t *t);
int clock_gettime(int clock, struct timespec *ts);
int nanosleep(const struct timespec *req, struct timespec *rem);
struct tm *gmtime_r(const time_t *t, struct tm *tm);

#endif
