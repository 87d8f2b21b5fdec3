/*
 * ACPI table discovery. The firmware leaves a Root System Description Pointer
 * in the EBDA or in the BIOS area 0xE0000-0xFFFFF; it points to the RSDT (32-bit
 * pointers) or the XSDT (64-bit), which list every other table. Each table
 * carries a checksum; a table that fails it is ignored with a message.
 */
#include "kernel/x86/acpi.h"

#include "kernel/lib/bytes.h"
#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/vm.h"
#include "kernel/printk.h"

#define MAX_TABLES 32

struct rsdp {
	char signature[8];      /* "RSD PTR " */
	uint8_t checksum;       /* over the first 20 bytes */
	char oem_id[6];
	uint8_t revision;       /* 0: ACPI 1.0 (RSDT only); 2+: XSDT fields valid */
	uint32_t rsdt;
	uint32_t length;
	uint64_t xsdt;
	uint8_t ext_checksum;   /* over all `length` bytes */
	uint8_t reserved[3];
} __packed;

struct fadt {
	struct acpi_header h;
	uint32_t firmware_ctrl;
	uint32_t dsdt;
	uint8_t reserved0;
	uint8_t preferred_pm_profile;
	uint16_t sci_int;
	uint32_t smi_cmd;
	uint8_t acpi_enable, acpi_disable, s4bios_req, pstate_cnt;
	uint32_t pm1a_evt_blk, pm1b_evt_blk;
	uint32_t pm1a_cnt_blk, pm1b_cnt_blk;
	uint32_t pm2_cnt_blk, pm_tmr_blk, gpe0_blk, gpe1_blk;
	uint8_t pm1_evt_len, pm1_cnt_len, pm2_cnt_len, pm_tmr_len, gpe0_blk_len, gpe1_blk_len, gpe1_base,
		cst_cnt;
	uint16_t p_lvl2_lat, p_lvl3_lat, flush_size, flush_stride;
	uint8_t duty_offset, duty_width, day_alrm, mon_alrm, century;
	uint16_t iapc_boot_arch;
	uint8_t reserved1;
	uint32_t flags;
	struct acpi_gas reset_reg;
	uint8_t reset_value;
} __packed;

#define FADT_RESET_REG_SUP (1 << 10)

struct acpi_power acpi_power;
static const struct acpi_header *tables[MAX_TABLES];
static int ntables;

uint8_t acpi_checksum(const void *p, size_t len)
{
	return bytes_sum(p, len);
}

static const struct rsdp *scan_for_rsdp(physaddr_t start, size_t len)
{
	for (physaddr_t pa = start; pa + sizeof(struct rsdp) <= start + len; pa += 16) {
		const struct rsdp *r = P2V(pa);
		if (memcmp(r->signature, "RSD PTR ", 8) == 0 && acpi_checksum(r, 20) == 0)
			return r;
	}
	return NULL;
}

static const struct rsdp *find_rsdp(void)
{
	/* The BIOS data area at 0x40E holds the EBDA's segment; search its first KiB. */
	physaddr_t ebda = (physaddr_t)(*(uint16_t *)P2V(0x40E)) << 4;
	const struct rsdp *r = NULL;

	if (ebda >= 0x80000 && ebda < 0xA0000)
		r = scan_for_rsdp(ebda, 1024);
	return r ? r : scan_for_rsdp(0xE0000, 0x20000);
}

/* Map a table: first its header to learn the length, then all of it. */
static const struct acpi_header *map_table(uint64_t pa)
{
	const struct acpi_header *h;

	if (pa == 0 || pa >= 0x100000000ULL)
		return NULL;
	h = ioremap((physaddr_t)pa, sizeof(*h), false);
	if (h->length < sizeof(*h) || h->length > 0x100000)
		return NULL;
	return ioremap((physaddr_t)pa, h->length, false);
}

static void add_table(uint64_t pa)
{
	const struct acpi_header *h = map_table(pa);

	if (!h) {
		printk("acpi: table at %llx is unreadable, ignored\n", pa);
		return;
	}
	if (acpi_checksum(h, h->length) != 0) {
		printk("acpi: table %.4s at %llx has a bad checksum, ignored\n", h->signature, pa);
		return;
	}
	if (ntables < MAX_TABLES)
		tables[ntables++] = h;
}

static bool load_root_table(const struct rsdp *r)
{
	bool use_xsdt = r->revision >= 2 && r->xsdt && acpi_checksum(r, r->length) == 0;
	const struct acpi_header *root = map_table(use_xsdt ? r->xsdt : r->rsdt);
	size_t entry_size = use_xsdt ? 8 : 4;
	size_t n;

	if (!root || acpi_checksum(root, root->length) != 0 ||
	    memcmp(root->signature, use_xsdt ? "XSDT" : "RSDT", 4) != 0) {
		printk("acpi: %s is missing or corrupt\n", use_xsdt ? "XSDT" : "RSDT");
		return false;
	}
	n = (root->length - sizeof(*root)) / entry_size;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *e = (const uint8_t *)(root + 1) + i * entry_size;
		uint64_t pa = use_xsdt ? *(const uint64_t *)e : *(const uint32_t *)e;
		add_table(pa);
	}
	printk("acpi: %s rev %u (%.6s) lists %u tables:", use_xsdt ? "XSDT" : "RSDT",
	       r->revision, r->oem_id, (unsigned)n);
	for (int i = 0; i < ntables; i++)
		printk(" %.4s", tables[i]->signature);
	printk("\n");
	return true;
}

/*
 * \_S5 is a package in the DSDT's AML: Name(_S5_, Package(){a, b, ...}).
 * We do not interpret AML; like most small kernels we find the bytes
 * "_S5_" 0x12 (PackageOp) and read the first two small integers after it.
 */
static int aml_small_int(const uint8_t **p)
{
	int v;

	if (**p == 0x0A) {              /* BytePrefix */
		v = (*p)[1];
		*p += 2;
	} else {                        /* ZeroOp, OneOp or a raw byte constant */
		v = **p == 0x01 ? 1 : (**p == 0xFF ? 0 : **p);
		*p += 1;
	}
	return v;
}

static void find_s5(const struct acpi_header *dsdt)
{
	const uint8_t *aml = (const uint8_t *)dsdt;

	for (uint32_t i = sizeof(*dsdt); i + 8 < dsdt->length; i++) {
		const uint8_t *p = aml + i;
		if (memcmp(p, "_S5_", 4) != 0 || p[4] != 0x12)
			continue;
		p += 5;
		p += ((*p & 0xC0) >> 6) + 1;    /* PkgLength: 1 to 4 bytes */
		p++;                            /* NumElements */
		acpi_power.slp_typ_a = aml_small_int(&p);
		acpi_power.slp_typ_b = aml_small_int(&p);
		acpi_power.s5_found = true;
		return;
	}
}

static void parse_fadt(void)
{
	const struct fadt *f = (const struct fadt *)acpi_find_table("FACP", 0);
	const struct acpi_header *dsdt;

	if (!f)
		return;
	acpi_power.pm1a_cnt = (uint16_t)f->pm1a_cnt_blk;
	acpi_power.pm1b_cnt = (uint16_t)f->pm1b_cnt_blk;
	if (f->h.length >= offsetof(struct fadt, reset_value) + 1 && (f->flags & FADT_RESET_REG_SUP)) {
		acpi_power.reset_reg_valid = true;
		acpi_power.reset_reg = f->reset_reg;
		acpi_power.reset_value = f->reset_value;
	}
	dsdt = map_table(f->dsdt);
	if (dsdt && acpi_checksum(dsdt, dsdt->length) == 0)
		find_s5(dsdt);
}

bool acpi_init(void)
{
	const struct rsdp *r = find_rsdp();

	if (!r) {
		printk("acpi: no RSDP found (ACPI off?)\n");
		return false;
	}
	if (!load_root_table(r))
		return false;
	parse_fadt();
	return true;
}

bool acpi_present(void)
{
	return ntables > 0;
}

const struct acpi_header *acpi_find_table(const char *sig, int n)
{
	for (int i = 0; i < ntables; i++)
		if (memcmp(tables[i]->signature, sig, 4) == 0 && n-- == 0)
			return tables[i];
	return NULL;
}
