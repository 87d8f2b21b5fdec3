/* Memory bring-up: hand the usable RAM to the frame allocator, minus what is already in use. */
#include "kernel/mm/meminit.h"

#include "kernel/mm/kheap.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vm.h"
#include "kernel/multiboot.h"
#include "kernel/printk.h"

extern char kernel_start[], kernel_end[];

void mem_init(void)
{
	pmm_reset();
	for (int i = 0; i < boot_info.nregions; i++)
		if (boot_info.regions[i].type == MMAP_USABLE)
			pmm_add_usable(boot_info.regions[i].start, boot_info.regions[i].end);

	/* The first MiB: BIOS data, EBDA, the AP trampoline page. Never hand it out. */
	pmm_reserve(0, 0x100000);
	pmm_reserve(V2P(kernel_start), V2P(kernel_end));
	for (int i = 0; i < boot_info.nmodules; i++)
		pmm_reserve(boot_info.modules[i].start, boot_info.modules[i].end);

	vm_init();
	kheap_init();

	printk("mem: %u KiB usable, %u KiB free, kernel image %u KiB",
	       pmm_usable_count() * 4, pmm_free_count() * 4,
	       (unsigned)(kernel_end - kernel_start) / 1024);
	if (pmm_highmem_bytes())
		printk(", %llu MiB above 768 MiB not mapped (unused)", pmm_highmem_bytes() >> 20);
	printk("\n");
}
