/* Power off (ACPI S5) and reset, each with fallbacks for machines without ACPI. */
#include "kernel/x86/power.h"

#include "kernel/printk.h"
#include "kernel/time/timer.h"
#include "kernel/x86/acpi.h"
#include "kernel/x86/x86.h"

#define SLP_EN (1 << 13)
#define SLP_TYP_SHIFT 10
#define ACPI_SPACE_IO 1

/* Set once at boot, before any task can power off; read-only after. */
static void (*prepare_off)(void);

void power_off_set_prepare(void (*fn)(void))
{
	prepare_off = fn;
}

void power_off(void)
{
	if (prepare_off)
		prepare_off();          /* dirty disk blocks first: nothing written after this */
	printk("power: off\n");
	cli();
	if (acpi_power.pm1a_cnt && acpi_power.s5_found) {
		outw(acpi_power.pm1a_cnt, (acpi_power.slp_typ_a << SLP_TYP_SHIFT) | SLP_EN);
		if (acpi_power.pm1b_cnt)
			outw(acpi_power.pm1b_cnt, (acpi_power.slp_typ_b << SLP_TYP_SHIFT) | SLP_EN);
	}
	/* Without ACPI (acpi=off), QEMU's PIIX4 still answers at its usual port. */
	outw(0x604, 0x2000);
	mdelay(500);            /* the machine takes a moment to go: do not claim failure early */
	printk("power: the machine did not turn off; halting\n");
	for (;;)
		hlt();
}

void power_reset(void)
{
	struct { uint16_t limit; uint32_t base; } __packed no_idt = { 0, 0 };

	printk("power: reset\n");
	cli();
	if (acpi_power.reset_reg_valid && acpi_power.reset_reg.space == ACPI_SPACE_IO)
		outb((uint16_t)acpi_power.reset_reg.address, acpi_power.reset_value);
	outb(0xCF9, 0x06);              /* PCI reset control: full reset */
	for (int i = 0; i < 100000 && (inb(0x64) & 2); i++)
		cpu_relax();
	outb(0x64, 0xFE);               /* keyboard controller: pulse the reset line */
	/* Last resort: an interrupt with no IDT is a triple fault, which resets the CPU. */
	__asm__ volatile("lidt %0; int3" : : "m"(no_idt));
	for (;;)
		hlt();
}
