/* Turning the machine off and resetting it. */
#ifndef KERNEL_X86_POWER_H
#define KERNEL_X86_POWER_H

#include "kernel/types.h"

/*
 * What must happen before the power goes, set once at boot: the buffer cache
 * writes its dirty blocks (fs/flusher.c). power_off() calls it first, from the
 * task that asked, before interrupts go off.
 */
void power_off_set_prepare(void (*fn)(void));
/* ACPI S5 through the FADT's PM1 control ports: QEMU exits with status 0. */
void power_off(void) __noreturn;
/* ACPI reset register, then the 0xCF9 port, then the keyboard controller, then a triple fault. */
void power_reset(void) __noreturn;

#endif
