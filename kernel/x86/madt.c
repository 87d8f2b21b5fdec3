/* The ACPI MADT ("APIC" table): local APICs, IOAPICs and interrupt overrides, parsed without trusting it. */
#include "kernel/x86/platform.h"

#include "kernel/lib/bytes.h"
#include "kernel/lib/string.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/acpi.h"

#define MADT_LAPIC          0
#define MADT_IOAPIC         1
#define MADT_OVERRIDE       2
#define MADT_LAPIC_ADDR     5
#define MADT_LAPIC_ENABLED        0x1
#define MADT_LAPIC_ONLINE_CAPABLE 0x2   /* ACPI 6.3: off now, may be started later; we skip it */

struct madt {
	struct acpi_header h;
	uint32_t lapic_pa;
	uint32_t flags;
} __packed;

void platform_add_cpu(struct platform *p, uint8_t apic_id, bool bsp)
{
	for (int i = 0; i < p->ncpus; i++)
		if (p->cpu[i].apic_id == apic_id)
			return;
	if (p->ncpus == MAX_CPUS) {
		p->nignored++;
		return;
	}
	p->cpu[p->ncpus].apic_id = apic_id;
	p->cpu[p->ncpus].bsp = bsp;
	p->ncpus++;
}

void platform_add_disabled_cpu(struct platform *p, uint8_t apic_id)
{
	if (p->ndisabled < MAX_CPUS)
		p->disabled_id[p->ndisabled] = apic_id;
	p->ndisabled++;
}

bool platform_cpu_disabled(const struct platform *p, uint8_t apic_id)
{
	for (int i = 0; i < MIN(p->ndisabled, MAX_CPUS); i++)
		if (p->disabled_id[i] == apic_id)
			return true;
	return false;
}

void platform_add_ioapic(struct platform *p, uint8_t id, physaddr_t pa, uint32_t gsi_base)
{
	if (p->nioapics == MAX_IOAPICS)
		return;
	p->ioapic[p->nioapics].id = id;
	p->ioapic[p->nioapics].pa = pa;
	p->ioapic[p->nioapics].gsi_base = gsi_base;
	p->nioapics++;
}

void platform_add_override(struct platform *p, uint8_t isa_irq, uint32_t gsi, uint16_t flags)
{
	if (isa_irq >= 16 || p->noverrides == MAX_OVERRIDES)
		return;
	p->override[p->noverrides].isa_irq = isa_irq;
	p->override[p->noverrides].gsi = gsi;
	p->override[p->noverrides].flags = flags;
	p->noverrides++;
}

/* One entry of the MADT's list; e[1] (its length) was checked by the caller. */
static void madt_entry(const uint8_t *e, struct platform *p)
{
	switch (e[0]) {
	case MADT_LAPIC:
		if (e[1] < 8)
			break;
		if (get_le32(e + 4) & MADT_LAPIC_ENABLED)
			platform_add_cpu(p, e[3], false);
		else
			platform_add_disabled_cpu(p, e[3]);
		break;
	case MADT_IOAPIC:
		if (e[1] >= 12)
			platform_add_ioapic(p, e[2], get_le32(e + 4), get_le32(e + 8));
		break;
	case MADT_OVERRIDE:
		/* bus 0 = ISA is the only bus ACPI defines here */
		if (e[1] >= 10 && e[2] == 0)
			platform_add_override(p, e[3], get_le32(e + 4), get_le16(e + 8));
		break;
	case MADT_LAPIC_ADDR:
		/* A 64-bit address; we can only reach one below 4 GiB. */
		if (e[1] >= 12 && get_le32(e + 8) == 0)
			p->lapic_pa = get_le32(e + 4);
		break;
	}
}

int madt_parse(const void *table, size_t len, struct platform *p)
{
	const uint8_t *b = table;
	const struct madt *m = table;
	size_t off;

	memset(p, 0, sizeof(*p));
	p->source = "MADT";
	if (len < sizeof(*m) || memcmp(m->h.signature, "APIC", 4) != 0)
		return -EINVAL;
	if (m->h.length < sizeof(*m) || m->h.length > len || bytes_sum(b, m->h.length) != 0)
		return -EINVAL;
	p->lapic_pa = m->lapic_pa;
	/* Every entry starts with (type, length): a length under 2 or past the end ends the walk. */
	for (off = sizeof(*m); off + 2 <= m->h.length; off += b[off + 1]) {
		if (b[off + 1] < 2 || off + b[off + 1] > m->h.length)
			return -EINVAL;
		madt_entry(b + off, p);
	}
	return 0;
}
