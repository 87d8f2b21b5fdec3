/* Read the Multiboot v1 information into boot_info and the kernel command line. */
#include "kernel/multiboot.h"

#include "kernel/cmdline.h"
#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

struct boot_info boot_info;

static const char *region_type_name(uint32_t type)
{
	switch (type) {
	case 1: return "usable";
	case 2: return "reserved";
	case 3: return "ACPI reclaimable";
	case 4: return "ACPI NVS";
	case 5: return "bad memory";
	default: return "unknown";
	}
}

/* Loader structures live below the direct-map limit in practice; refuse anything else. */
static const void *boot_ptr(physaddr_t pa)
{
	if (pa >= DIRECT_MAP_MAX)
		panic("multiboot: structure at %08x is beyond the direct map", pa);
	return P2V(pa);
}

static void note_info_extent(physaddr_t start, uint32_t len)
{
	if (!boot_info.info_end || start < boot_info.info_start)
		boot_info.info_start = start;
	if (start + len > boot_info.info_end)
		boot_info.info_end = start + len;
}

/* Without a memory map, the two legacy counters describe low and upper memory. */
static void parse_mem_counters(const struct multiboot_info *mbi)
{
	boot_info.regions[0] = (struct mem_region){ 0, (uint64_t)mbi->mem_lower * 1024, MMAP_USABLE };
	boot_info.regions[1] = (struct mem_region){ 0x100000, 0x100000 + (uint64_t)mbi->mem_upper * 1024,
						    MMAP_USABLE };
	boot_info.nregions = 2;
}

/*
 * The loader's memory map: mmap_length bytes of entries at mmap_addr. Each
 * entry starts with its own size, which does not count the size field
 * itself, so the next entry is size + 4 bytes further on (Multiboot 0.6.96,
 * section 3.3).
 */
static void parse_mmap(const struct multiboot_info *mbi)
{
	/* LAB1: BEGIN mmap-walk */
	uint32_t off = 0;

	note_info_extent(mbi->mmap_addr, mbi->mmap_length);
	while (off + 4 <= mbi->mmap_length && boot_info.nregions < BOOT_MAX_REGIONS) {
		const struct multiboot_mmap_entry *e = boot_ptr(mbi->mmap_addr + off);
		struct mem_region *r = &boot_info.regions[boot_info.nregions++];

		r->start = e->addr;
		r->end = e->addr + e->len;
		r->type = e->type;
		off += e->size + 4;
	}
	/* LAB1: END */
}

static void parse_modules(const struct multiboot_info *mbi)
{
	const struct multiboot_module *mods = boot_ptr(mbi->mods_addr);

	note_info_extent(mbi->mods_addr, mbi->mods_count * sizeof(*mods));
	for (uint32_t i = 0; i < mbi->mods_count && i < BOOT_MAX_MODULES; i++) {
		struct boot_module *m = &boot_info.modules[boot_info.nmodules++];

		m->start = mods[i].start;
		m->end = mods[i].end;
		strlcpy(m->name, mods[i].string ? boot_ptr(mods[i].string) : "", sizeof(m->name));
	}
}

void multiboot_parse(uint32_t magic, physaddr_t mbi_phys)
{
	const struct multiboot_info *mbi;

	if (magic != MULTIBOOT_LOADER_MAGIC)
		panic("not started by a Multiboot loader (eax=%08x)", magic);
	mbi = boot_ptr(mbi_phys);
	note_info_extent(mbi_phys, sizeof(*mbi));

	if (mbi->flags & MBI_FLAG_LOADER)
		strlcpy(boot_info.loader, boot_ptr(mbi->boot_loader_name), sizeof(boot_info.loader));
	if (mbi->flags & MBI_FLAG_CMDLINE)
		strlcpy(boot_info.cmdline, boot_ptr(mbi->cmdline), sizeof(boot_info.cmdline));
	cmdline_parse(&kernel_cmdline, boot_info.cmdline);
	if (mbi->flags & MBI_FLAG_MMAP)
		parse_mmap(mbi);
	else if (mbi->flags & MBI_FLAG_MEM)
		parse_mem_counters(mbi);
	else
		panic("multiboot: the loader gave no memory information");
	if (mbi->flags & MBI_FLAG_MODS)
		parse_modules(mbi);
}

void multiboot_print_memory_map(void)
{
	printk("memory map (from %s):\n", boot_info.loader[0] ? boot_info.loader : "the loader");
	for (int i = 0; i < boot_info.nregions; i++) {
		const struct mem_region *r = &boot_info.regions[i];
		printk("  [%08llx-%08llx) %6llu KiB %s\n", r->start, r->end,
		       (r->end - r->start) / 1024, region_type_name(r->type));
	}
	for (int i = 0; i < boot_info.nmodules; i++)
		printk("module %d: [%08x-%08x) %u bytes '%s'\n", i, boot_info.modules[i].start,
		       boot_info.modules[i].end, boot_info.modules[i].end - boot_info.modules[i].start,
		       boot_info.modules[i].name);
}
