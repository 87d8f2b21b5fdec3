/* The local APIC, reached through memory-mapped registers at the address the firmware gave. */
#include "kernel/x86/lapic.h"

#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define LAPIC_ID        0x020
#define LAPIC_VERSION   0x030
#define LAPIC_TPR       0x080
#define LAPIC_EOI       0x0B0
#define LAPIC_SVR       0x0F0
#define LAPIC_ESR       0x280
#define LAPIC_ICR_LO    0x300
#define LAPIC_ICR_HI    0x310
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_LINT1 0x360
#define LAPIC_LVT_ERROR 0x370
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CUR 0x390
#define LAPIC_TIMER_DIV 0x3E0

#define SVR_ENABLE      0x100
#define LVT_MASKED      0x10000
#define LVT_PERIODIC    0x20000
#define ICR_PENDING     0x1000
#define TIMER_DIV_16    0x3

static volatile uint32_t *lapic;

static uint32_t lapic_read(uint32_t reg)
{
	return lapic[reg / 4];
}

static void lapic_write(uint32_t reg, uint32_t v)
{
	lapic[reg / 4] = v;
	(void)lapic[LAPIC_ID / 4];      /* read back: the write has reached the APIC */
}

void lapic_map(physaddr_t pa)
{
	lapic = ioremap(pa, 0x1000, true);
}

bool lapic_present(void)
{
	uint32_t v = lapic_read(LAPIC_VERSION) & 0xFF;

	/* Integrated APICs report 0x10-0x1F; nothing there reads as 0x00 or 0xFF. */
	return v >= 0x10 && v <= 0x1F;
}

void lapic_init(void)
{
	lapic_write(LAPIC_SVR, SVR_ENABLE | T_SPURIOUS);
	lapic_write(LAPIC_TPR, 0);                      /* accept every priority */
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	/* The 8259s are off and every ISA interrupt goes through the IOAPIC: LINT0/1 unused. */
	lapic_write(LAPIC_LVT_LINT0, LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT1, LVT_MASKED);
	lapic_write(LAPIC_LVT_ERROR, T_LAPIC_ERROR);
	/* The error status register latches on a write; two writes clear it. */
	lapic_write(LAPIC_ESR, 0);
	lapic_write(LAPIC_ESR, 0);
	lapic_eoi();                                    /* anything left over from the firmware */
}

uint32_t lapic_error_status(void)
{
	lapic_write(LAPIC_ESR, 0);      /* latch the errors seen so far into the register */
	return lapic_read(LAPIC_ESR);
}

uint32_t lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

void lapic_eoi(void)
{
	lapic[LAPIC_EOI / 4] = 0;
}

void lapic_send_ipi(uint32_t dest_apic_id, uint32_t icr_low)
{
	uint32_t flags = irq_save();

	/* One ICR per CPU: wait until the previous IPI left, and let no interrupt split the two writes. */
	while (lapic_read(LAPIC_ICR_LO) & ICR_PENDING)
		cpu_relax();
	lapic_write(LAPIC_ICR_HI, dest_apic_id << 24);
	lapic_write(LAPIC_ICR_LO, icr_low);
	while (lapic_read(LAPIC_ICR_LO) & ICR_PENDING)
		cpu_relax();
	irq_restore(flags);
}

void lapic_timer_periodic(uint32_t count, int vector)
{
	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, LVT_PERIODIC | (uint32_t)vector);
	lapic_write(LAPIC_TIMER_INIT, count);
}

void lapic_timer_oneshot(uint32_t count)
{
	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	lapic_write(LAPIC_TIMER_INIT, count);
}

uint32_t lapic_timer_current(void)
{
	return lapic_read(LAPIC_TIMER_CUR);
}

void lapic_timer_stop(void)
{
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	lapic_write(LAPIC_TIMER_INIT, 0);
}
