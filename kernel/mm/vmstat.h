/* Counters of memory and I/O events, per CPU, added up for /proc/vmstat (Linux's names and units). */
#ifndef KERNEL_MM_VMSTAT_H
#define KERNEL_MM_VMSTAT_H

#include "kernel/types.h"

enum vm_event {
	PGPGIN,                 /* KiB read from block devices */
	PGPGOUT,                /* KiB written to them */
	PGFAULT,                /* page faults on user addresses, from user mode or the kernel's user copies */
	NR_VM_EVENTS
};

void count_vm_events(enum vm_event e, uint32_t n);
static inline void count_vm_event(enum vm_event e)
{
	count_vm_events(e, 1);
}
/* The sum over every CPU. */
uint64_t vm_event_total(enum vm_event e);

#endif
