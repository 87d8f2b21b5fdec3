/* The local APIC: each CPU's interrupt controller, timer and IPI sender. */
#ifndef KERNEL_X86_LAPIC_H
#define KERNEL_X86_LAPIC_H

#include "kernel/types.h"

/* ICR delivery modes and destination shorthands (Intel SDM vol. 3, 10.6.1). */
#define ICR_FIXED        0x00000
#define ICR_NMI          0x00400
#define ICR_INIT         0x00500
#define ICR_STARTUP      0x00600
#define ICR_LEVEL_ASSERT 0x04000
#define ICR_TRIGGER_LEVEL 0x08000
#define ICR_SELF         0x40000
#define ICR_ALL          0x80000
#define ICR_ALL_BUT_SELF 0xC0000

/* Map the registers (once, on the BSP, before any AP starts: ioremap is boot-time only). */
void lapic_map(physaddr_t pa);
/* Does a local APIC answer at the mapped address (its version register makes sense)? */
bool lapic_present(void);
/* Enable this CPU's local APIC: spurious vector, error vector, LINT pins masked, timer off. */
void lapic_init(void);
uint32_t lapic_id(void);
/* The error status register (SDM vol. 3, 10.5.3): which delivery errors happened since the last read. */
uint32_t lapic_error_status(void);
/* End of interrupt: every LAPIC-delivered interrupt handler must send one. */
void lapic_eoi(void);
/* Send an IPI: icr_low is a vector or a delivery mode, plus ICR_* flags; dest is ignored with a shorthand. */
void lapic_send_ipi(uint32_t dest_apic_id, uint32_t icr_low);

/* The timer: a 32-bit down-counter at the bus clock divided by 16. */
void lapic_timer_periodic(uint32_t count, int vector);
void lapic_timer_oneshot(uint32_t count);      /* masked, for calibration */
uint32_t lapic_timer_current(void);
void lapic_timer_stop(void);

#endif
