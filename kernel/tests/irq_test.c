/* The driver IRQ interface: irq_request() routes a line, the dispatcher acknowledges and counts it. */
#include "kernel/locking/atomic.h"
#include "kernel/cpu.h"
#include "kernel/irq.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

#define PIT_CH0       0x40
#define PIT_CMD       0x43
#define PIT_CH0_RATE  0x34      /* channel 0, mode 2 (rate generator) */
#define PIT_CH0_ONCE  0x30      /* channel 0, mode 0: one terminal count, then quiet */
#define PIT_HZ        1193182u
#define TEST_HZ       1000

static atomic_t handled;
static volatile int handled_irq = -1;

static void count_pit(int irq)
{
	handled_irq = irq;
	atomic_inc(&handled);
}

static void pit_program(uint8_t mode, uint16_t count)
{
	outb(PIT_CMD, mode);
	outb(PIT_CH0, count & 0xFF);
	outb(PIT_CH0, count >> 8);
}

static uint64_t total_count(int irq)
{
	uint64_t n = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		n += irq_count(irq, c);
	return n;
}

/*
 * The handler takes no trap frame and calls no EOI: if the dispatcher forgot
 * the EOI, the LAPIC would block every later interrupt of this priority and
 * only one would arrive.
 */
KTEST(irq_request_handles_counts_and_acknowledges)
{
	uint64_t before = total_count(IRQ_PIT);

	KT_ASSERT(irqs_enabled());
	atomic_set(&handled, 0);
	pit_program(PIT_CH0_RATE, PIT_HZ / TEST_HZ);
	KT_ASSERT_EQ(irq_request(IRQ_PIT, count_pit, "ktest-pit"), 0);
	KT_ASSERT(irq_name(IRQ_PIT) && strcmp(irq_name(IRQ_PIT), "ktest-pit") == 0);
	mdelay(100);
	/* Quiet the PIT first, so that no interrupt is still on its way when the line is freed. */
	pit_program(PIT_CH0_ONCE, 1);
	mdelay(5);
	irq_free(IRQ_PIT);
	KT_ASSERT(irq_name(IRQ_PIT) == NULL);
	KT_ASSERT(atomic_read(&handled) >= 10);
	KT_ASSERT_EQ(handled_irq, IRQ_PIT);
	/* Every interrupt the handler saw was counted, all on the boot CPU. */
	KT_ASSERT_EQ(total_count(IRQ_PIT) - before, atomic_read(&handled));
	KT_ASSERT_EQ(irq_count(IRQ_PIT, 0) - before, atomic_read(&handled));
}

KTEST(irq_request_rejects_bad_lines_and_doubles)
{
	KT_ASSERT_EQ(irq_request(-1, count_pit, "bad"), -EINVAL);
	KT_ASSERT_EQ(irq_request(NR_IRQS, count_pit, "bad"), -EINVAL);
	KT_ASSERT_EQ(irq_request(IRQ_PIT, NULL, "bad"), -EINVAL);
	/* The serial driver holds IRQ 4 from boot. */
	KT_ASSERT(irq_name(IRQ_SERIAL) != NULL);
	KT_ASSERT_EQ(irq_request(IRQ_SERIAL, count_pit, "thief"), -EBUSY);
	KT_ASSERT_EQ(irq_count(NR_IRQS, 0), 0);
	KT_ASSERT_EQ(irq_count(0, MAX_CPUS), 0);
}
