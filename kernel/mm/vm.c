/*
 * The kernel's half of every address space. Physical memory up to 768 MiB is
 * mapped once at KERNEL_BASE with 4 MiB pages (the "direct map"), so P2V()
 * and V2P() are additions. Device registers and firmware tables above that go
 * through ioremap(), also with 4 MiB pages. Kernel page-directory entries are
 * all set up at boot and then frozen: every process copies them when created.
 */
#include "kernel/mm/vm.h"

#include "kernel/mm/memlayout.h"
#include "kernel/multiboot.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/x86/vdso.h"
#include "kernel/x86/x86.h"

#define CR4_PSE 0x10
#define CR4_PGE 0x80

pde_t kernel_pgdir[1024] __aligned(PAGE_SIZE);
physaddr_t direct_map_end;
static uintptr_t ioremap_next = IOREMAP_BASE;
static bool kernel_half_frozen;

/* The direct map covers every RAM or firmware region below the 768 MiB limit. */
static physaddr_t compute_direct_map_end(void)
{
	uint64_t top = BOOT_IDENTITY_MAP;

	for (int i = 0; i < boot_info.nregions; i++) {
		const struct mem_region *r = &boot_info.regions[i];
		if (r->type == 2 || r->end > 0x100000000ULL)
			continue;
		if (r->end > top)
			top = r->end;
	}
	if (top > DIRECT_MAP_MAX)
		top = DIRECT_MAP_MAX;
	return (physaddr_t)ALIGN_UP(top, (uint64_t)BIG_PAGE_SIZE);
}

static bool cpu_has_pge(void)
{
	uint32_t a, b, c, d;

	cpuid(1, &a, &b, &c, &d);
	return d & (1 << 13);
}

void vm_init_ap(void)
{
	uint32_t cr4 = read_cr4() | CR4_PSE;

	if (cpu_has_pge())
		cr4 |= CR4_PGE;
	write_cr4(cr4);
	write_cr3(V2P(kernel_pgdir));
}

void vm_init(void)
{
	uint32_t global = cpu_has_pge() ? PTE_G : 0;

	direct_map_end = compute_direct_map_end();
	for (physaddr_t pa = 0; pa < direct_map_end; pa += BIG_PAGE_SIZE)
		kernel_pgdir[PDX(KERNEL_BASE + pa)] = pa | PTE_P | PTE_W | PTE_PS | global;
	vdso_map();                     /* the vsyscall page: in the kernel half every process copies */
	vm_init_ap();
	printk("vm: direct map of %u MiB at %08x, ioremap window at %08x\n",
	       direct_map_end >> 20, KERNEL_BASE, IOREMAP_BASE);
}

/* An existing ioremap window that already covers [pa, pa+size)? */
static void *find_existing(physaddr_t pa, size_t size)
{
	for (uintptr_t va = IOREMAP_BASE; va < ioremap_next; va += BIG_PAGE_SIZE) {
		physaddr_t base = PTE_ADDR(kernel_pgdir[PDX(va)]) & ~(BIG_PAGE_SIZE - 1);
		uint64_t run_end = base;
		uintptr_t v = va;

		/* Follow consecutive windows that map consecutive physical memory. */
		while (v < ioremap_next &&
		       (PTE_ADDR(kernel_pgdir[PDX(v)]) & ~(BIG_PAGE_SIZE - 1)) == run_end) {
			run_end += BIG_PAGE_SIZE;
			v += BIG_PAGE_SIZE;
		}
		if (pa >= base && (uint64_t)pa + size <= run_end)
			return (void *)(va + (pa - base));
	}
	return NULL;
}

void *ioremap(physaddr_t pa, size_t size, bool uncached)
{
	physaddr_t first = ALIGN_DOWN(pa, BIG_PAGE_SIZE);
	uint64_t last = ALIGN_UP((uint64_t)pa + size, (uint64_t)BIG_PAGE_SIZE);
	uint32_t flags = PTE_P | PTE_W | PTE_PS | (uncached ? PTE_PCD | PTE_PWT : 0);
	uintptr_t va;
	void *found;

	if (!uncached && (uint64_t)pa + size <= direct_map_end)
		return P2V(pa);
	found = find_existing(pa, size);
	if (found)
		return found;
	if (kernel_half_frozen)
		panic("ioremap(%08x) after the kernel half was frozen", pa);
	if (ioremap_next + (last - first) > IOREMAP_END)
		panic("ioremap: window full mapping %08x (+%u)", pa, (unsigned)size);
	va = ioremap_next;
	for (uint64_t p = first; p < last; p += BIG_PAGE_SIZE) {
		kernel_pgdir[PDX(ioremap_next)] = (uint32_t)p | flags;
		invlpg(ioremap_next);
		ioremap_next += BIG_PAGE_SIZE;
	}
	return (void *)(va + (pa - first));
}

void vm_freeze_kernel_half(void)
{
	kernel_half_frozen = true;
}
