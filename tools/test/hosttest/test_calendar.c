// TESTS: kernel/lib/calendar.c
/* Calendar conversions, checked against the host C library's timegm() and gmtime_r() over a wide range. */
#include "hosttest.h"

#define _GNU_SOURCE
#include <time.h>

#include "kernel/lib/calendar.h"

static void check_one(long long t)
{
	struct rtc_time ours;
	struct tm ref;
	time_t tt = (time_t)t;

	calendar_from_unix(t, &ours);
	gmtime_r(&tt, &ref);
	CHECK(ours.tm_sec == ref.tm_sec && ours.tm_min == ref.tm_min && ours.tm_hour == ref.tm_hour);
	CHECK(ours.tm_mday == ref.tm_mday && ours.tm_mon == ref.tm_mon && ours.tm_year == ref.tm_year);
	CHECK(ours.tm_wday == ref.tm_wday && ours.tm_yday == ref.tm_yday);
	CHECK(calendar_to_unix(&ours) == t);
}

int main(void)
{
	struct rtc_time tm = { .tm_sec = 0, .tm_min = 0, .tm_hour = 0, .tm_mday = 1, .tm_mon = 0, .tm_year = 70 };

	CHECK(calendar_to_unix(&tm) == 0);
	tm = (struct rtc_time){ .tm_sec = 7, .tm_min = 14, .tm_hour = 3, .tm_mday = 19, .tm_mon = 0, .tm_year = 138 };
	CHECK(calendar_to_unix(&tm) == 2147483647LL);           /* the 32-bit time_t's last second */
	tm = (struct rtc_time){ .tm_mday = 29, .tm_mon = 1, .tm_year = 100 };
	CHECK(calendar_to_unix(&tm) == 951782400LL);            /* 2000-02-29: 400-year leap day */
	/* Every day from 1900 to 2200, at varying times, and big steps far beyond. */
	for (long long t = -2208988800LL; t < 7258118400LL; t += 86400 + 3607)
		check_one(t);
	for (long long t = -60000000000LL; t < 60000000000LL; t += 999999937LL)
		check_one(t);
	check_one(-1);
	check_one(951868799LL);                                 /* 2000-02-29 23:59:59 */
	check_one(4107542400LL);                                /* 2100-03-01: not a leap year */
	return hosttest_finish("calendar");
}
