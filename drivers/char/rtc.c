/*
 * The CMOS real-time clock. Its registers sit behind an index port (0x70)
 * and a data port (0x71). It ticks once a second, and while it updates
 * (status A's UIP bit) a read may see half-old, half-new fields: so read
 * when UIP is clear, read again, and accept only two equal readings.
 * Values are BCD unless status B says binary, and the hour may be 12-hour.
 */
#include "drivers/char/rtc.h"

#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "kernel/lib/calendar.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

#define CMOS_INDEX 0x70
#define CMOS_DATA  0x71
#define REG_SEC    0x00
#define REG_MIN    0x02
#define REG_HOUR   0x04
#define REG_MDAY   0x07
#define REG_MON    0x08
#define REG_YEAR   0x09
#define REG_A      0x0A
#define REG_B      0x0B
#define REG_CENTURY 0x32        /* where PC firmware (and QEMU) keep the century */
#define A_UIP      0x80         /* update in progress */
#define B_24HOUR   0x02
#define B_BINARY   0x04
#define HOUR_PM    0x80         /* in 12-hour mode */
#define TRIES      1000

/* Protects the CMOS index/data pair: selecting a register and reading it must not interleave. */
static spinlock_t cmos_lock = SPINLOCK_INIT("cmos");

struct cmos_fields {
	uint8_t sec, min, hour, mday, mon, year, century;
};

static uint8_t cmos_read(uint8_t reg)
{
	outb(CMOS_INDEX, reg);
	return inb(CMOS_DATA);
}

static void read_fields(struct cmos_fields *f)
{
	f->sec = cmos_read(REG_SEC);
	f->min = cmos_read(REG_MIN);
	f->hour = cmos_read(REG_HOUR);
	f->mday = cmos_read(REG_MDAY);
	f->mon = cmos_read(REG_MON);
	f->year = cmos_read(REG_YEAR);
	f->century = cmos_read(REG_CENTURY);
}

static bool same(const struct cmos_fields *a, const struct cmos_fields *b)
{
	return a->sec == b->sec && a->min == b->min && a->hour == b->hour && a->mday == b->mday &&
	       a->mon == b->mon && a->year == b->year && a->century == b->century;
}

/* A field's value: BCD (two decimal digits in two nibbles) unless status B says binary. */
static int field(uint8_t v, bool binary)
{
	return binary ? v : (v >> 4) * 10 + (v & 0x0F);
}

/* Two equal readings taken outside an update; false if the clock never allowed one. */
static bool read_stable(struct cmos_fields *f, uint8_t *status_b)
{
	struct cmos_fields again;
	uint32_t flags;
	bool ok = false;

	spin_lock_irqsave(&cmos_lock, flags);
	for (int i = 0; i < TRIES && !ok; i++) {
		if (cmos_read(REG_A) & A_UIP)
			continue;
		read_fields(f);
		read_fields(&again);
		ok = same(f, &again) && !(cmos_read(REG_A) & A_UIP);
	}
	*status_b = cmos_read(REG_B);
	spin_unlock_irqrestore(&cmos_lock, flags);
	return ok;
}

int rtc_read_time(struct rtc_time *tm)
{
	struct cmos_fields f;
	uint8_t b;
	bool bin;
	int hour, year, century;

	if (!read_stable(&f, &b))
		return -EIO;
	bin = b & B_BINARY;
	hour = field(f.hour & (uint8_t)~HOUR_PM, bin);
	if (!(b & B_24HOUR)) {
		hour %= 12;                     /* 12 AM is 0, 12 PM is 12 */
		if (f.hour & HOUR_PM)
			hour += 12;
	}
	year = field(f.year, bin);
	century = field(f.century, bin);
	/* A clock without a century register: read 00-69 as 20xx, as Linux does. */
	if (century < 19 || century > 30)
		century = year < 70 ? 20 : 19;
	*tm = (struct rtc_time){
		.tm_sec = field(f.sec, bin), .tm_min = field(f.min, bin), .tm_hour = hour,
		.tm_mday = field(f.mday, bin), .tm_mon = field(f.mon, bin) - 1,
		.tm_year = century * 100 + year - 1900,
	};
	/* Fill in the weekday and day of the year from the date itself. */
	calendar_from_unix(calendar_to_unix(tm), tm);
	return 0;
}

void rtc_init(void)
{
	struct rtc_time tm;

	if (rtc_read_time(&tm) < 0) {
		printk("rtc: the CMOS clock does not settle; the wall clock starts at 1970\n");
		return;
	}
	printk("rtc: %04d-%02d-%02d %02d:%02d:%02d UTC\n", tm.tm_year + 1900, tm.tm_mon + 1,
	       tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	clock_set_realtime(calendar_to_unix(&tm));
}

/* ---- /dev/rtc --------------------------------------------------------------- */

#define RTC_MAJOR 10            /* Linux's misc major, minor 135: the legacy /dev/rtc */
#define RTC_MINOR 135

static long rtc_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	struct rtc_time tm;
	int r;

	if (cmd != RTC_RD_TIME)
		return -ENOTTY;
	if ((r = rtc_read_time(&tm)) < 0)
		return r;
	return copy_to_user((void *)arg, &tm, sizeof(tm)) < 0 ? -EFAULT : 0;
}

/* cmos_lock serializes the registers: this driver needs no BKL. */
static const struct file_operations rtc_fops = {
	.name = "rtc",
	.flags = FOP_UNLOCKED_IOCTL,
	.ioctl = rtc_ioctl,
};

void rtc_device_init(void)
{
	int r = chrdev_register_mode(RTC_MAJOR, RTC_MINOR, "rtc", 0644, &rtc_fops);

	if (r < 0)
		printk("rtc: cannot register /dev/rtc: error %d\n", r);
}
