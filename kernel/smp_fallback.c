/* Temporary stand-ins until the SMP branch (timer, IPIs) is merged. */
#include "kernel/types.h"
#include "kernel/x86.h"

__attribute__((weak)) uint64_t clock_ns(void)
{
	return rdtsc() / 2;     /* pretend 2 GHz */
}

__attribute__((weak)) void smp_send_reschedule(int cpu)
{
	(void)cpu;
}
