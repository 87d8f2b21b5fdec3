/*
 * The list of character-device drivers. Each registers its (major, minor)
 * numbers and file_operations with fs/devfs/chrdev.c, and its /dev node appears
 * in devfs. Numbers are Linux's where Linux has the device.
 */
#include "drivers/drivers.h"

#include "drivers/bench/bench.h"
#include "drivers/block/block.h"
#include "drivers/tty/console.h"
#include "drivers/char/cpuid.h"
#include "drivers/char/debugcon.h"
#include "drivers/lab/journal.h"
#include "drivers/char/kcounts.h"
#include "drivers/lab/ledger.h"
#include "drivers/char/mem.h"
#include "drivers/char/rtc.h"
#include "drivers/lab/tally.h"

void drivers_init(void)
{
	console_driver_init();  /* /dev/console, /dev/tty, /dev/ttyS0: init's fds 0, 1 and 2 */
	mem_devices_init();     /* /dev/null, /dev/zero, /dev/full */
	rtc_device_init();      /* /dev/rtc: the CMOS clock */
	cpuid_devices_init();   /* /dev/cpu/N/cpuid */
	bench_bkl_init();       /* /dev/bench_bkl: relies on the BKL */
	bench_own_init();       /* /dev/bench_own: its own locking, FOP_UNLOCKED_IOCTL */
	kcounts_init();         /* /dev/kcounts: object counts for leak checks */
	tally_init();           /* /dev/tally: lab 5's driver (docs/labs/) */
	journal_init();         /* /dev/journal: lab 6's driver (docs/labs/) */
	debugcon_init();        /* /dev/debugcon: port 0xE9, how make trace gets the trace out */
	ledger_init();          /* /dev/ledger: lab 7's driver (docs/labs/) */
	block_init();           /* /dev/hda..: IDE disks, the block layer, the buffer cache (docs/block.md) */
}
