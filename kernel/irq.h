/*
 * Device interrupts as drivers see them: ISA IRQ numbers, one handler each.
 * The dispatcher routes the line, acknowledges the interrupt controller and
 * counts every interrupt per CPU (for /proc/interrupts); a driver never
 * touches the 8259, the LAPIC or the IOAPIC.
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include "kernel/types.h"

#define NR_IRQS 16              /* the ISA lines, 0..15 */
#define IRQ_PIT     0           /* the 8254 timer, channel 0 */
#define IRQ_SERIAL  4           /* COM1 */

/* Runs with interrupts off, on the CPU the line is routed to; the EOI follows it. */
typedef void (*irq_handler_t)(int irq);

/*
 * Call handler for every interrupt on ISA line irq, from now on. name shows
 * in /proc/interrupts. Returns 0, -EINVAL (no such line, or the machine
 * cannot route it) or -EBUSY (the line has a handler already).
 */
int irq_request(int irq, irq_handler_t handler, const char *name);
/*
 * Deliver line irq (which has a handler) to CPU cpu from now on, as Linux's
 * /proc/irq/N/smp_affinity does; the IDE driver spreads its two channels
 * this way. 0, or -EINVAL for a free line or an offline CPU.
 */
int irq_set_affinity(int irq, int cpu);
/* Mask the line and forget its handler. */
void irq_free(int irq);

/* Interrupts taken on line irq by CPU cpu since boot (0 for a bad number). */
uint64_t irq_count(int irq, int cpu);
/* The name given to irq_request(), or NULL for a free line. */
const char *irq_name(int irq);

#endif
