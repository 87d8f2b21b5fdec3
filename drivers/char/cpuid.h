/* /dev/cpu/N/cpuid: the CPUID instruction run on CPU N. */
#ifndef DRIVERS_CPUID_H
#define DRIVERS_CPUID_H

/* One node per online CPU (after SMP bring-up). */
void cpuid_devices_init(void);

#endif
