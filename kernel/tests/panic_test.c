/* Deliberate crashes, run only when named (test=panic_fault): the harness checks the report's shape. */
#include "kernel/ktest.h"
#include "kernel/panic.h"
#include "kernel/x86/power.h"

/* noinline: the backtrace must show this frame and its caller. */
__attribute__((noinline)) static int panic_fault_helper(volatile int *p)
{
	return *p + 1;
}

KTEST_CRASH(panic_fault)
{
	/* 0xDEADBEEF is in the ioremap window, which maps nothing there: a kernel page fault. */
	panic_fault_helper((volatile int *)0xDEADBEEF);
}

KTEST_CRASH(panic_call)
{
	panic("deliberate panic from a ktest");
}

/* The reset path: with QEMU's -no-reboot, a reset ends QEMU; the harness checks it happened. */
KTEST_CRASH(power_reset_now)
{
	power_reset();
}

/*
 * A panic whose own report faults (here its message, through a bad pointer):
 * the fault is reported once, without the backtrace that might fault again,
 * and the kernel stops instead of nesting panic in panic.
 */
KTEST_CRASH(panic_fault_while_panicking)
{
	panic("deliberate panic with a bad message: %s", (const char *)0xDEADBEEF);
}
