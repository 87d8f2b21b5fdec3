/* IOAPIC routing self-test: the PIT's IRQ 0 must arrive where we route it, through the firmware's override. */
#include "kernel/locking/atomic.h"
#include "kernel/cpu.h"
#include "kernel/irq.h"
#include "kernel/ktest.h"
#include "kernel/time/timer.h"
#include "kernel/x86/ioapic.h"
#include "kernel/x86/lapic.h"
#include "kernel/x86/platform.h"
#include "kernel/x86/smp.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define PIT_CH0       0x40
#define PIT_CMD       0x43
#define PIT_CH0_RATE  0x34      /* channel 0, lobyte/hibyte, mode 2 (rate generator) */
#define PIT_CH0_ONCE  0x30      /* channel 0, mode 0: one terminal count, then quiet */
#define PIT_HZ        1193182u
#define TEST_HZ       1000

static atomic_t pit_irqs;
static volatile int pit_irq_cpu = -1;

static void pit_interrupt(struct trapframe *tf)
{
	atomic_inc(&pit_irqs);
	pit_irq_cpu = cpu_id();
	lapic_eoi();
}

static void pit_program(uint8_t mode, uint16_t count)
{
	outb(PIT_CMD, mode);
	outb(PIT_CH0, count & 0xFF);
	outb(PIT_CH0, count >> 8);
}

/*
 * On QEMU's PC the PIT drives IOAPIC pin 2, not pin 0: only a router that
 * applies the ISA IRQ 0 -> GSI 2 override sees these interrupts. Route them
 * to the last online CPU to check the destination too.
 */
KTEST(ioapic_routes_pit_irq0_through_override)
{
	int dest = 0;
	uint16_t flags;

	for (int i = 0; i < ncpus; i++)
		if (cpus[i].online)
			dest = i;
	KT_ASSERT(irqs_enabled());
	atomic_set(&pit_irqs, 0);
	trap_set_handler(T_IRQ0 + IRQ_PIT, pit_interrupt);
	pit_program(PIT_CH0_RATE, PIT_HZ / TEST_HZ);
	KT_ASSERT_EQ(ioapic_route_irq(IRQ_PIT, T_IRQ0 + IRQ_PIT, dest), 0);
	/*
	 * About 100 come in 100 ms; a busy host that does not run the
	 * destination's vCPU merges them, so wait for ten, for up to 3 s: the
	 * routing is what is tested, not the host's punctuality.
	 */
	for (int ms = 0; ms < 3000 && atomic_read(&pit_irqs) < 10; ms += 10)
		mdelay(10);
	ioapic_mask_irq(IRQ_PIT);
	pit_program(PIT_CH0_ONCE, 1);
	mdelay(5);
	trap_set_handler(T_IRQ0 + IRQ_PIT, NULL);
	if (atomic_read(&pit_irqs) < 10) {
		ktest_fail(__FILE__, __LINE__, "%d PIT interrupts in 3 s on GSI %u (expected 10 at least)",
			   atomic_read(&pit_irqs), platform_isa_gsi(IRQ_PIT, &flags));
		return;
	}
	KT_ASSERT_EQ(pit_irq_cpu, dest);
}
