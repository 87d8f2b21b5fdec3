/* The CMOS clock reads a plausible, consistent date: QEMU starts it at the host's UTC time. */
#include "drivers/char/rtc.h"
#include "kernel/ktest.h"
#include "kernel/lib/calendar.h"
#include "kernel/time/timer.h"

KTEST(rtc_reads_a_sane_date_that_advances)
{
	struct rtc_time a, b;
	long long ta, tb;

	KT_ASSERT_EQ(rtc_read_time(&a), 0);
	KT_ASSERT(a.tm_year >= 124 && a.tm_year < 200);         /* 2024..2099 */
	KT_ASSERT(a.tm_mon >= 0 && a.tm_mon < 12);
	KT_ASSERT(a.tm_mday >= 1 && a.tm_mday <= 31);
	KT_ASSERT(a.tm_hour >= 0 && a.tm_hour < 24);
	KT_ASSERT(a.tm_min >= 0 && a.tm_min < 60 && a.tm_sec >= 0 && a.tm_sec < 60);
	mdelay(1100);
	KT_ASSERT_EQ(rtc_read_time(&b), 0);
	ta = calendar_to_unix(&a);
	tb = calendar_to_unix(&b);
	/*
	 * A second and a bit later by the TSC: the RTC moved at least a second.
	 * At most 30: a busy host may leave the vCPU unscheduled between the
	 * reads, and both clocks are the host's.
	 */
	KT_ASSERT(tb - ta >= 1 && tb - ta <= 30);
}
