/* Serial input by interrupt: bytes typed on the host reach the input handler, not the ring. Needs a typist. */
#include "drivers/tty/serial.h"
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/time/timer.h"
#include "kernel/x86/x86.h"

#define WAIT_NS 20000000000ULL          /* 20 s for the harness to type */

static char got[16];
static volatile int ngot;

static void take_byte(char c)
{
	if (ngot < (int)sizeof(got))
		got[ngot++] = c;
}

/* Explicit (run only by name): tools/test/cases/20_smp.py types "ping\r" when asked. */
KTEST_CRASH(serial_input_handler)
{
	uint64_t start;

	KT_ASSERT(irqs_enabled());
	while (serial_getc_nowait() >= 0)       /* nothing stale in the ring */
		;
	ngot = 0;
	serial_set_input_handler(take_byte);
	printk("ktest: serial_input_handler: type 'ping' and Enter now\n");
	start = clock_ns();
	while (!(ngot >= 5 && got[4] == '\r') && clock_ns() - start < WAIT_NS)
		cpu_relax();
	serial_set_input_handler(NULL);
	KT_ASSERT_EQ(ngot, 5);
	KT_ASSERT(got[0] == 'p' && got[1] == 'i' && got[2] == 'n' && got[3] == 'g');
	/* The handler took them all: the ring stayed empty. */
	KT_ASSERT_EQ(serial_getc_nowait(), -1);
}
