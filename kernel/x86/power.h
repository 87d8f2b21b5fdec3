/* Turning the machine off and resetting it. */
#ifndef KERNEL_X86_POWER_H
#define KERNEL_X86_POWER_H

#include "kernel/types.h"

/* ACPI S5 through the FADT's PM1 control ports: QEMU exits with status 0. */
void power_off(void) __noreturn;
/* ACPI reset register, then the 0xCF9 port, then the keyboard controller, then a triple fault. */
void power_reset(void) __noreturn;

#endif
