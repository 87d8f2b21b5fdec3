/* The Intel MultiProcessor table (MPS 1.4): the pre-ACPI way to list CPUs, IOAPICs and IRQ wiring. */
#include "kernel/x86/platform.h"

#include "kernel/lib/bytes.h"
#include "kernel/lib/string.h"
#include "kernel/uapi/errno.h"

#define MP_PROCESSOR 0
#define MP_BUS       1
#define MP_IOAPIC    2
#define MP_IOINTR    3
#define MP_LINTR     4
#define MP_CPU_EN    0x1
#define MP_CPU_BP    0x2
#define MP_IOAPIC_EN 0x1
#define MP_INT_INT   0              /* an ordinary vectored interrupt (not NMI/SMI/ExtINT) */
#define IOAPIC_PINS  24             /* assumed per IOAPIC: the MP table does not say */

struct mp_fps {
	char signature[4];              /* "_MP_" */
	uint32_t config_pa;
	uint8_t length;                 /* in 16-byte units: 1 */
	uint8_t spec_rev;
	uint8_t checksum;
	uint8_t feature[5];             /* feature[0] != 0: a default configuration, no table */
} __packed;

struct mp_config {
	char signature[4];              /* "PCMP" */
	uint16_t base_length;
	uint8_t spec_rev;
	uint8_t checksum;
	char oem_id[8];
	char product_id[12];
	uint32_t oem_table_pa;
	uint16_t oem_table_size;
	uint16_t entry_count;
	uint32_t lapic_pa;
	uint16_t ext_length;
	uint8_t ext_checksum;
	uint8_t reserved;
} __packed;

int64_t mp_check_fps(const void *fps, size_t len)
{
	const struct mp_fps *f = fps;

	if (len < sizeof(*f) || memcmp(f->signature, "_MP_", 4) != 0)
		return -ENOENT;
	if (f->length != 1 || bytes_sum(fps, sizeof(*f)) != 0)
		return -EINVAL;
	/* Default configurations (no table) are pre-1995 two-CPU boards: not supported. */
	if (f->feature[0] != 0 || f->config_pa == 0)
		return -ENOENT;
	return f->config_pa;
}

/* Entries are fixed-size by type: 20 bytes for a processor, 8 for the rest. Unknown types have no size. */
static int entry_size(uint8_t type)
{
	if (type == MP_PROCESSOR)
		return 20;
	if (type <= MP_LINTR)
		return 8;
	return -EINVAL;
}

/* The GSI of an IOAPIC pin: IOAPICs are numbered in table order, IOAPIC_PINS pins each. */
static int ioapic_gsi(const struct platform *p, uint8_t ioapic_id, uint8_t pin, uint32_t *gsi)
{
	for (int i = 0; i < p->nioapics; i++) {
		if (p->ioapic[i].id == ioapic_id || ioapic_id == 0xFF) {
			*gsi = p->ioapic[i].gsi_base + pin;
			return 0;
		}
	}
	return -ENOENT;
}

/* Bus ids (0..255) that name an ISA bus, as a bitmap filled from the bus entries. */
struct isa_buses {
	uint32_t bits[8];
};

static void mp_entry(const uint8_t *e, struct platform *p, struct isa_buses *isa)
{
	uint32_t gsi;

	switch (e[0]) {
	case MP_PROCESSOR:
		if (e[3] & MP_CPU_EN)
			platform_add_cpu(p, e[1], e[3] & MP_CPU_BP);
		else
			platform_add_disabled_cpu(p, e[1]);
		break;
	case MP_BUS:
		if (memcmp(e + 2, "ISA", 3) == 0)
			isa->bits[e[1] / 32] |= 1u << (e[1] % 32);
		break;
	case MP_IOAPIC:
		if (e[3] & MP_IOAPIC_EN)
			platform_add_ioapic(p, e[1], get_le32(e + 4), (uint32_t)p->nioapics * IOAPIC_PINS);
		break;
	case MP_IOINTR:
		/* ISA IRQ (e[5]) wired to pin e[7] of IOAPIC e[6]: an override when they differ. */
		if (e[1] != MP_INT_INT || !(isa->bits[e[4] / 32] & (1u << (e[4] % 32))))
			break;
		if (ioapic_gsi(p, e[6], e[7], &gsi) == 0 && (gsi != e[5] || (e[2] | e[3] << 8) != 0))
			platform_add_override(p, e[5], gsi, (uint16_t)(e[2] | e[3] << 8));
		break;
	}
}

int mp_parse_config(const void *table, size_t len, struct platform *p)
{
	const struct mp_config *c = table;
	const uint8_t *b = table;
	struct isa_buses isa;
	size_t off = sizeof(*c);

	memset(p, 0, sizeof(*p));
	memset(&isa, 0, sizeof(isa));
	p->source = "MP table";
	if (len < sizeof(*c) || memcmp(c->signature, "PCMP", 4) != 0)
		return -EINVAL;
	if (c->base_length < sizeof(*c) || c->base_length > len || bytes_sum(b, c->base_length) != 0)
		return -EINVAL;
	p->lapic_pa = c->lapic_pa;
	for (int i = 0; i < c->entry_count; i++) {
		int size;

		if (off >= c->base_length)
			return -EINVAL;
		size = entry_size(b[off]);
		if (size < 0 || off + size > c->base_length)
			return -EINVAL;
		mp_entry(b + off, p, &isa);
		off += size;
	}
	return 0;
}
