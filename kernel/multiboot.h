/* What the Multiboot v1 loader tells us: memory map, command line, modules (the initrd). */
#ifndef KERNEL_MULTIBOOT_H
#define KERNEL_MULTIBOOT_H

#include "kernel/types.h"

#define MULTIBOOT_LOADER_MAGIC 0x2BADB002

#define MBI_FLAG_MEM     (1 << 0)
#define MBI_FLAG_CMDLINE (1 << 2)
#define MBI_FLAG_MODS    (1 << 3)
#define MBI_FLAG_MMAP    (1 << 6)
#define MBI_FLAG_LOADER  (1 << 9)

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;          /* KiB below 1 MiB, KiB above 1 MiB */
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
} __packed;

struct multiboot_mmap_entry {
	uint32_t size;                          /* of the rest of the entry, not counting this field */
	uint64_t addr;
	uint64_t len;
	uint32_t type;                          /* 1 usable, 3 ACPI reclaimable, 4 ACPI NVS, 5 bad */
} __packed;

struct multiboot_module {
	uint32_t start, end;
	uint32_t string;
	uint32_t reserved;
} __packed;

#define MMAP_USABLE 1

/* The boot facts we keep after parsing (the loader's structures may be overwritten later). */
#define BOOT_MAX_REGIONS 32
#define BOOT_MAX_MODULES 4

struct mem_region {
	uint64_t start, end;                    /* [start, end) */
	uint32_t type;
};

struct boot_module {
	physaddr_t start, end;
	char name[64];
};

struct boot_info {
	char loader[48];
	char cmdline[512];                      /* as the loader gave it */
	int nregions;
	struct mem_region regions[BOOT_MAX_REGIONS];
	int nmodules;
	struct boot_module modules[BOOT_MAX_MODULES];
	physaddr_t info_start, info_end;        /* where the loader put its own structures */
};

extern struct boot_info boot_info;

/* Copy what we need out of the loader's structures; panics on a bad magic. */
void multiboot_parse(uint32_t magic, physaddr_t mbi_phys);
void multiboot_print_memory_map(void);

#endif
