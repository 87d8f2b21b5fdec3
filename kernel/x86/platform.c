/*
 * Platform discovery: which CPUs, local APIC and IOAPICs the firmware
 * describes. The ACPI MADT comes first; without ACPI (qemu -machine
 * pc,acpi=off) the Intel MP table; without either, a single CPU and the
 * standard PC addresses. The boot word smptables=madt|mp|none forces a path
 * (for tests and for broken firmware).
 */
#include "kernel/x86/platform.h"

#include "kernel/cmdline.h"
#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/vm.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/acpi.h"

#define MP_CONFIG_MAX 0x10000           /* base_length is 16 bits */

struct platform platform;

static const char *forced_source(void)
{
	const char *v = cmdline_get("smptables");

	return v ? v : "auto";
}

static int try_madt(struct platform *p)
{
	const struct acpi_header *h = acpi_find_table("APIC", 0);
	int err;

	if (!h) {
		printk("platform: no ACPI MADT\n");
		return -ENOENT;
	}
	err = madt_parse(h, h->length, p);
	if (err)
		printk("platform: the MADT is malformed (error %d), not used\n", err);
	return err;
}

/* The floating pointer lies on a 16-byte boundary in one of three places (MPS 1.4, 4.1). */
static const void *scan_for_fps(physaddr_t start, size_t len)
{
	for (physaddr_t pa = start; pa + 16 <= start + len; pa += 16)
		if (memcmp(P2V(pa), "_MP_", 4) == 0 && mp_check_fps(P2V(pa), 16) > 0)
			return P2V(pa);
	return NULL;
}

static const void *find_fps(void)
{
	physaddr_t ebda = (physaddr_t)(*(uint16_t *)P2V(0x40E)) << 4;
	physaddr_t base_top = (physaddr_t)(*(uint16_t *)P2V(0x413)) * 1024;
	const void *f = NULL;

	if (ebda >= 0x80000 && ebda < 0xA0000)
		f = scan_for_fps(ebda, 1024);
	if (!f && base_top >= 0x80000 && base_top <= 0xA0000)
		f = scan_for_fps(base_top - 1024, 1024);
	return f ? f : scan_for_fps(0xF0000, 0x10000);
}

static int try_mptable(struct platform *p)
{
	const void *fps = find_fps();
	int64_t pa;
	const uint8_t *cfg;
	int err;

	if (!fps) {
		printk("platform: no MP floating pointer\n");
		return -ENOENT;
	}
	pa = mp_check_fps(fps, 16);
	if (pa <= 0 || pa >= 0x100000000LL)
		return -EINVAL;
	/* Map the header to learn the length, as for ACPI tables. */
	cfg = ioremap((physaddr_t)pa, 8, false);
	err = mp_parse_config(ioremap((physaddr_t)pa, MAX(8, cfg[4] | cfg[5] << 8), false),
			      cfg[4] | cfg[5] << 8, p);
	if (err)
		printk("platform: the MP configuration table at %08x is malformed (error %d), not used\n",
		       (physaddr_t)pa, err);
	return err;
}

static void use_defaults(struct platform *p)
{
	memset(p, 0, sizeof(*p));
	p->source = "defaults";
	p->lapic_pa = LAPIC_DEFAULT_PA;
	platform_add_ioapic(p, 0, IOAPIC_DEFAULT_PA, 0);
	printk("platform: no usable MADT or MP table: one CPU, LAPIC and IOAPIC at the PC defaults\n");
}

void platform_discover(void)
{
	const char *force = forced_source();
	struct platform *p = &platform;
	int err = -ENOENT;

	if (strcmp(force, "auto") == 0 || strcmp(force, "madt") == 0)
		err = try_madt(p);
	if (err && (strcmp(force, "auto") == 0 || strcmp(force, "mp") == 0))
		err = try_mptable(p);
	if (err == 0 && p->nioapics == 0) {
		printk("platform: the %s lists no IOAPIC; assuming one at %08x\n", p->source, IOAPIC_DEFAULT_PA);
		platform_add_ioapic(p, 0, IOAPIC_DEFAULT_PA, 0);
	}
	if (err)
		use_defaults(p);
	if (p->lapic_pa == 0)
		p->lapic_pa = LAPIC_DEFAULT_PA;
	printk("platform: %s: %d CPU%s listed (%d disabled, %d beyond %d ignored), LAPIC at %08x\n",
	       p->source, p->ncpus, p->ncpus == 1 ? "" : "s", p->ndisabled, p->nignored, MAX_CPUS,
	       p->lapic_pa);
	for (int i = 0; i < p->nioapics; i++)
		printk("platform: IOAPIC id %u at %08x, GSI base %u\n", p->ioapic[i].id, p->ioapic[i].pa,
		       p->ioapic[i].gsi_base);
	for (int i = 0; i < p->noverrides; i++)
		printk("platform: ISA IRQ %u -> GSI %u (flags %x)\n", p->override[i].isa_irq,
		       p->override[i].gsi, p->override[i].flags);
}

uint32_t platform_isa_gsi(int isa_irq, uint16_t *flags)
{
	for (int i = 0; i < platform.noverrides; i++) {
		if (platform.override[i].isa_irq == isa_irq) {
			*flags = platform.override[i].flags;
			return platform.override[i].gsi;
		}
	}
	*flags = 0;
	return (uint32_t)isa_irq;
}
