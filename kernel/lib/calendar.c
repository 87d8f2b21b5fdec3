/*
 * Dates, proleptic Gregorian, counted in days from 1970-01-01. The day
 * number of a date uses a year that starts in March, so that the leap day
 * comes last and every month but February has a fixed length pattern
 * (the method of Howard Hinnant's "chrono-compatible low-level date
 * algorithms"). Exact for any year the int fields can hold.
 */
#include "kernel/lib/calendar.h"
#include "kernel/types.h"

#define SECS_PER_DAY 86400LL
#define DAYS_PER_ERA 146097     /* 400 Gregorian years */

/* floor(a / b) for b > 0, also for negative a. */
static long long floor_div(long long a, long long b)
{
	long long q = a / b;

	return (a % b != 0 && a < 0) ? q - 1 : q;
}

static long long days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = floor_div(y, 400);
	yoe = y - era * 400;                                    /* 0..399 */
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;    /* 0..365, from March 1 */
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;             /* 0..146096 */
	return era * DAYS_PER_ERA + doe - 719468;                /* 719468: 0000-03-01 to 1970-01-01 */
}

static bool is_leap(long long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

long long calendar_to_unix(const struct rtc_time *tm)
{
	long long days = days_from_civil(1900LL + tm->tm_year, tm->tm_mon + 1, tm->tm_mday);

	return days * SECS_PER_DAY + tm->tm_hour * 3600LL + tm->tm_min * 60LL + tm->tm_sec;
}

void calendar_from_unix(long long t, struct rtc_time *tm)
{
	long long days = floor_div(t, SECS_PER_DAY);
	long long secs = t - days * SECS_PER_DAY;
	long long z = days + 719468, era = floor_div(z, DAYS_PER_ERA);
	long long doe = z - era * DAYS_PER_ERA;
	long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long long mp = (5 * doy + 2) / 153;
	int d = (int)(doy - (153 * mp + 2) / 5 + 1);
	int m = (int)(mp < 10 ? mp + 3 : mp - 9);
	long long y = yoe + era * 400 + (m <= 2);
	static const int before_month[12] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };

	tm->tm_sec = (int)(secs % 60);
	tm->tm_min = (int)(secs / 60 % 60);
	tm->tm_hour = (int)(secs / 3600);
	tm->tm_mday = d;
	tm->tm_mon = m - 1;
	tm->tm_year = (int)(y - 1900);
	tm->tm_wday = (int)((days % 7 + 11) % 7);               /* 1970-01-01 was a Thursday (4) */
	tm->tm_yday = before_month[m - 1] + d - 1 + (m > 2 && is_leap(y));
	tm->tm_isdst = 0;
}
