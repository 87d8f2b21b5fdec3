/* The IOAPIC: routes device interrupt lines (GSIs) to a vector on a chosen CPU. */
#ifndef KERNEL_X86_IOAPIC_H
#define KERNEL_X86_IOAPIC_H

/* Map every IOAPIC the platform lists and mask all their pins (BSP, boot time). */
void ioapic_init(void);
/*
 * Deliver ISA IRQ isa_irq as vector on CPU dest_cpu (an index into cpus[]),
 * honouring the firmware's overrides (e.g. IRQ0 on GSI 2). Returns 0 or -EINVAL.
 */
int ioapic_route_irq(int isa_irq, int vector, int dest_cpu);
void ioapic_mask_irq(int isa_irq);

#endif
