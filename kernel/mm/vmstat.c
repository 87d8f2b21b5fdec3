/*
 * Event counters for /proc/vmstat. Each CPU counts in its own row, with
 * preemption off for the increment: no lock and no shared cache line on
 * the page-fault path. A reader adds the rows up, as Linux's
 * all_vm_events() does; a count read mid-increment on another CPU is one
 * behind, no worse.
 */
#include "kernel/mm/vmstat.h"

#include "kernel/cpu.h"
#include "kernel/locking/spinlock.h"

static struct {
	uint64_t n[NR_VM_EVENTS];
} __cacheline_aligned events[MAX_CPUS];

void count_vm_events(enum vm_event e, uint32_t n)
{
	preempt_disable();
	events[cpu_id()].n[e] += n;
	preempt_enable();
}

uint64_t vm_event_total(enum vm_event e)
{
	uint64_t sum = 0;

	for (int i = 0; i < MAX_CPUS; i++)
		sum += READ_ONCE(events[i].n[e]);
	return sum;
}
