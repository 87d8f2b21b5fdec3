/* Converting between seconds since 1970 (UTC) and calendar dates. Shared by the kernel and user programs. */
#ifndef KERNEL_LIB_CALENDAR_H
#define KERNEL_LIB_CALENDAR_H

#include "kernel/uapi/rtc.h"

/* Seconds since 1970-01-01 00:00:00 UTC for tm's date and time (tm_wday/tm_yday ignored). */
long long calendar_to_unix(const struct rtc_time *tm);
/* The date and time of t (UTC), with tm_wday and tm_yday filled in. */
void calendar_from_unix(long long t, struct rtc_time *tm);

#endif
