/* What the firmware tables say about the machine: CPUs, local APIC, IOAPICs, ISA IRQ overrides. */
#ifndef KERNEL_X86_PLATFORM_H
#define KERNEL_X86_PLATFORM_H

#include "kernel/cpu.h"
#include "kernel/types.h"

#define MAX_IOAPICS    4
#define MAX_OVERRIDES  16
#define LAPIC_DEFAULT_PA  0xFEE00000u
#define IOAPIC_DEFAULT_PA 0xFEC00000u

/* Polarity and trigger of an interrupt source override, in MADT/MPS encoding (flags bits 0-1, 2-3). */
#define INTI_POLARITY_MASK 0x3
#define INTI_ACTIVE_HIGH   0x1
#define INTI_ACTIVE_LOW    0x3
#define INTI_TRIGGER_MASK  0xC
#define INTI_EDGE          0x4
#define INTI_LEVEL         0xC

struct platform_cpu {
	uint8_t apic_id;
	bool bsp;                       /* the MP table marks the boot CPU; the MADT does not */
};

struct platform_ioapic {
	uint8_t id;
	physaddr_t pa;
	uint32_t gsi_base;              /* first global system interrupt its pins carry */
};

/* "ISA IRQ isa_irq arrives on GSI gsi", e.g. the PIT's IRQ0 on GSI 2. */
struct platform_override {
	uint8_t isa_irq;
	uint32_t gsi;
	uint16_t flags;                 /* INTI_*: 0 means "conforms to the bus" (ISA: high, edge) */
};

struct platform {
	const char *source;             /* "MADT", "MP table" or "defaults" */
	physaddr_t lapic_pa;
	int ncpus;                      /* usable CPUs in cpu[] */
	int ndisabled;                  /* entries marked disabled by the firmware, skipped */
	uint8_t disabled_id[MAX_CPUS];  /* the APIC ids of the first MAX_CPUS of them */
	int nignored;                   /* usable entries beyond MAX_CPUS, skipped */
	struct platform_cpu cpu[MAX_CPUS];
	int nioapics;
	struct platform_ioapic ioapic[MAX_IOAPICS];
	int noverrides;
	struct platform_override override[MAX_OVERRIDES];
};

extern struct platform platform;

/*
 * Pure parsers over a table already in memory (host-tested in tools/test/hosttest/):
 * they check the checksum and every length before use and return 0 or -EINVAL.
 * On -EINVAL the result holds what was parsed before the damage.
 */
int madt_parse(const void *table, size_t len, struct platform *p);
/* An MP floating pointer ("_MP_") at fps: returns the config table's physical address, or -EINVAL/-ENOENT. */
int64_t mp_check_fps(const void *fps, size_t len);
int mp_parse_config(const void *table, size_t len, struct platform *p);

/* Used by both parsers: add an entry unless it is a duplicate or there is no room (counted in nignored). */
void platform_add_cpu(struct platform *p, uint8_t apic_id, bool bsp);
void platform_add_disabled_cpu(struct platform *p, uint8_t apic_id);
bool platform_cpu_disabled(const struct platform *p, uint8_t apic_id);
void platform_add_ioapic(struct platform *p, uint8_t id, physaddr_t pa, uint32_t gsi_base);
void platform_add_override(struct platform *p, uint8_t isa_irq, uint32_t gsi, uint16_t flags);

/* Find the tables (MADT, else MP table, else defaults) and fill `platform`. Prints what it found. */
void platform_discover(void);
/* The GSI and flags on which an ISA IRQ arrives, after the overrides. */
uint32_t platform_isa_gsi(int isa_irq, uint16_t *flags);

#endif
