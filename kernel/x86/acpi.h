/* ACPI tables: find them (RSDP, RSDT/XSDT), verify their checksums, hand them out by signature. */
#ifndef KERNEL_X86_ACPI_H
#define KERNEL_X86_ACPI_H

#include "kernel/types.h"

struct acpi_header {
	char signature[4];
	uint32_t length;
	uint8_t revision;
	uint8_t checksum;
	char oem_id[6];
	char oem_table_id[8];
	uint32_t oem_revision;
	uint32_t creator_id;
	uint32_t creator_revision;
} __packed;

/* A generic address structure (FADT reset register). */
struct acpi_gas {
	uint8_t space;          /* 0 memory, 1 I/O port */
	uint8_t bit_width, bit_offset, access_size;
	uint64_t address;
} __packed;

/* Find and check the tables. Returns false (with a boot message) when there is no usable ACPI. */
bool acpi_init(void);
bool acpi_present(void);
/* The n-th table with this signature (n counts from 0), mapped and checksummed, or NULL. */
const struct acpi_header *acpi_find_table(const char *sig, int n);
/* Sum of bytes: 0 for a valid table. */
uint8_t acpi_checksum(const void *p, size_t len);

/* What power.c needs from the FADT and the DSDT. */
struct acpi_power {
	uint16_t pm1a_cnt, pm1b_cnt;    /* PM1 control ports, 0 if absent */
	uint16_t slp_typ_a, slp_typ_b;  /* sleep type values for S5 (soft off) */
	bool s5_found;
	bool reset_reg_valid;
	struct acpi_gas reset_reg;
	uint8_t reset_value;
};
extern struct acpi_power acpi_power;

#endif
