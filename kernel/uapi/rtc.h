/* /dev/rtc: the battery-backed clock, as Linux's <linux/rtc.h> shows it. Shared with user space. */
#ifndef SMPIX_UAPI_RTC_H
#define SMPIX_UAPI_RTC_H

#include "kernel/uapi/ioctl.h"

struct rtc_time {
	int tm_sec;                     /* 0..59 */
	int tm_min;                     /* 0..59 */
	int tm_hour;                    /* 0..23 */
	int tm_mday;                    /* 1..31 */
	int tm_mon;                     /* 0..11 */
	int tm_year;                    /* years since 1900 */
	int tm_wday;                    /* 0..6, Sunday = 0 */
	int tm_yday;                    /* 0..365 */
	int tm_isdst;                   /* always 0: the CMOS clock keeps UTC here */
};

#define RTC_RD_TIME _IOR('p', 0x09, struct rtc_time)    /* 0x80247009 */

#endif
