/*
 * The IRQ layer between drivers and the interrupt controllers. It sits in
 * kernel/, not kernel/x86/, because its interface is the one every driver
 * uses; only its body knows that a PC routes lines through the IOAPIC and
 * acknowledges them at the local APIC.
 */
#include "kernel/irq.h"

#include "kernel/locking/atomic.h"
#include "kernel/cpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/ioapic.h"
#include "kernel/x86/lapic.h"
#include "kernel/x86/trap.h"

#define IRQ_TARGET_CPU 0        /* every device line goes to the boot CPU */

struct irq_line {
	irq_handler_t handler;
	const char *name;
};

/* Protects lines[] against two drivers requesting one line; the dispatcher reads it without a lock. */
static spinlock_t irq_lock = SPINLOCK_INIT("irq table");
static struct irq_line lines[NR_IRQS];
/* Written only by the CPU that takes the interrupt, so no lock: each CPU owns its row.
 * A reader on another CPU may see a torn 64-bit value; these are statistics. */
static uint64_t counts[MAX_CPUS][NR_IRQS];

static void irq_dispatch(struct trapframe *tf)
{
	int irq = (int)tf->trapno - T_IRQ0;
	irq_handler_t h = READ_ONCE(lines[irq].handler);

	counts[cpu_id()][irq]++;
	if (h)
		h(irq);
	else
		printk("irq: IRQ %d arrived on CPU %d with no handler\n", irq, cpu_id());
	lapic_eoi();
}

int irq_request(int irq, irq_handler_t handler, const char *name)
{
	uint32_t flags;
	int r;

	if (irq < 0 || irq >= NR_IRQS || !handler)
		return -EINVAL;
	spin_lock_irqsave(&irq_lock, flags);
	if (lines[irq].handler) {
		spin_unlock_irqrestore(&irq_lock, flags);
		return -EBUSY;
	}
	lines[irq].name = name;
	WRITE_ONCE(lines[irq].handler, handler);
	spin_unlock_irqrestore(&irq_lock, flags);

	trap_set_handler(T_IRQ0 + irq, irq_dispatch);
	r = ioapic_route_irq(irq, T_IRQ0 + irq, IRQ_TARGET_CPU);
	if (r < 0)
		irq_free(irq);
	return r;
}

int irq_set_affinity(int irq, int cpu)
{
	if (irq < 0 || irq >= NR_IRQS || !READ_ONCE(lines[irq].handler) || cpu < 0 || cpu >= MAX_CPUS ||
	    !(cpu_online_mask() & (1u << cpu)))
		return -EINVAL;
	return ioapic_route_irq(irq, T_IRQ0 + irq, cpu);
}

void irq_free(int irq)
{
	uint32_t flags;

	if (irq < 0 || irq >= NR_IRQS)
		return;
	ioapic_mask_irq(irq);
	spin_lock_irqsave(&irq_lock, flags);
	WRITE_ONCE(lines[irq].handler, NULL);
	lines[irq].name = NULL;
	spin_unlock_irqrestore(&irq_lock, flags);
}

uint64_t irq_count(int irq, int cpu)
{
	if (irq < 0 || irq >= NR_IRQS || cpu < 0 || cpu >= MAX_CPUS)
		return 0;
	return READ_ONCE(counts[cpu][irq]);
}

const char *irq_name(int irq)
{
	if (irq < 0 || irq >= NR_IRQS)
		return NULL;
	return READ_ONCE(lines[irq].name);
}
