/* IOAPIC programming: one redirection entry per interrupt pin, reached through an index/data pair. */
#include "kernel/x86/ioapic.h"

#include "kernel/cpu.h"
#include "kernel/mm/vm.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/platform.h"

#define IOREGSEL      0x00
#define IOWIN         0x10
#define IOAPIC_VER    0x01
#define IOAPIC_REDTBL 0x10
#define RTE_MASKED     0x10000
#define RTE_LEVEL      0x08000
#define RTE_ACTIVE_LOW 0x02000

struct ioapic {
	volatile uint32_t *regs;
	uint32_t gsi_base;
	int npins;
};

static struct ioapic ioapics[MAX_IOAPICS];
static int nioapics;
/* Protects the IOREGSEL/IOWIN pair of every IOAPIC: select-then-access must not interleave. */
static spinlock_t ioapic_lock = SPINLOCK_INIT("ioapic");

static uint32_t ioapic_read(struct ioapic *io, uint32_t reg)
{
	io->regs[IOREGSEL / 4] = reg;
	return io->regs[IOWIN / 4];
}

static void ioapic_write(struct ioapic *io, uint32_t reg, uint32_t v)
{
	io->regs[IOREGSEL / 4] = reg;
	io->regs[IOWIN / 4] = v;
}

static void set_entry(struct ioapic *io, int pin, uint32_t low, uint32_t high)
{
	uint32_t flags;

	spin_lock_irqsave(&ioapic_lock, flags);
	/* Mask first so the pin never fires with half an entry written. */
	ioapic_write(io, IOAPIC_REDTBL + 2 * pin, RTE_MASKED);
	ioapic_write(io, IOAPIC_REDTBL + 2 * pin + 1, high);
	ioapic_write(io, IOAPIC_REDTBL + 2 * pin, low);
	spin_unlock_irqrestore(&ioapic_lock, flags);
}

void ioapic_init(void)
{
	for (int i = 0; i < platform.nioapics; i++) {
		struct ioapic *io = &ioapics[nioapics];

		io->regs = ioremap(platform.ioapic[i].pa, 0x20, true);
		io->gsi_base = platform.ioapic[i].gsi_base;
		io->npins = ((ioapic_read(io, IOAPIC_VER) >> 16) & 0xFF) + 1;
		if (io->npins <= 1 || io->npins > 240) {
			printk("ioapic: no IOAPIC answers at %08x, ignored\n", platform.ioapic[i].pa);
			continue;
		}
		for (int pin = 0; pin < io->npins; pin++)
			set_entry(io, pin, RTE_MASKED, 0);
		nioapics++;
	}
}

static struct ioapic *find_gsi(uint32_t gsi, int *pin)
{
	for (int i = 0; i < nioapics; i++) {
		if (gsi >= ioapics[i].gsi_base && gsi < ioapics[i].gsi_base + (uint32_t)ioapics[i].npins) {
			*pin = (int)(gsi - ioapics[i].gsi_base);
			return &ioapics[i];
		}
	}
	return NULL;
}

/* An override's flags, or ISA's default (active high, edge) where it says "conforms to the bus". */
static uint32_t rte_mode(uint16_t flags)
{
	uint32_t mode = 0;

	if ((flags & INTI_POLARITY_MASK) == INTI_ACTIVE_LOW)
		mode |= RTE_ACTIVE_LOW;
	if ((flags & INTI_TRIGGER_MASK) == INTI_LEVEL)
		mode |= RTE_LEVEL;
	return mode;
}

int ioapic_route_irq(int isa_irq, int vector, int dest_cpu)
{
	uint16_t flags;
	uint32_t gsi = platform_isa_gsi(isa_irq, &flags);
	struct ioapic *io;
	int pin;

	if (dest_cpu < 0 || dest_cpu >= MAX_CPUS || vector < 32 || vector > 0xFE)
		return -EINVAL;
	io = find_gsi(gsi, &pin);
	if (!io) {
		printk("ioapic: no IOAPIC carries GSI %u (ISA IRQ %d)\n", gsi, isa_irq);
		return -EINVAL;
	}
	/* Fixed delivery, physical destination: the CPU's APIC id in bits 56-63. */
	set_entry(io, pin, (uint32_t)vector | rte_mode(flags), cpus[dest_cpu].apic_id << 24);
	return 0;
}

void ioapic_mask_irq(int isa_irq)
{
	uint16_t flags;
	int pin;
	struct ioapic *io = find_gsi(platform_isa_gsi(isa_irq, &flags), &pin);

	if (io)
		set_entry(io, pin, RTE_MASKED, 0);
}
