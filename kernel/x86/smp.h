/* SMP bring-up: find the CPUs, program the interrupt controllers and timers, start the APs. */
#ifndef KERNEL_X86_SMP_H
#define KERNEL_X86_SMP_H

#include "kernel/types.h"

/*
 * Called once by kmain on the BSP after acpi_init() (and sched_init()).
 * Afterwards ncpus CPUs exist, cpus[i].online says which run, every online CPU
 * ticks at HZ, and serial input arrives by interrupt. Interrupts on the BSP
 * stay off: kmain enables them.
 */
void smp_init(void);
/* How many CPUs are online now. */
int smp_online_count(void);
/* The APIC id the firmware tables (or the probe) gave for CPU i, for checks. */
uint32_t smp_table_apic_id(int cpu);

#endif
