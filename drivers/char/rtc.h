/* The PC's battery-backed CMOS clock (MC146818): the date and time at boot, and /dev/rtc. */
#ifndef DRIVERS_RTC_H
#define DRIVERS_RTC_H

#include "kernel/uapi/rtc.h"

/* Read the clock once at boot, print it, and start the kernel's wall clock from it. */
void rtc_init(void);
/* Register /dev/rtc (RTC_RD_TIME). */
void rtc_device_init(void);
/* Read the clock now (UTC, as QEMU keeps it). Returns 0, or -EIO if it never settles. */
int rtc_read_time(struct rtc_time *tm);

#endif
