/* panic(): report a kernel bug with registers and a symbolized backtrace, then stop every CPU. */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include "kernel/types.h"

struct trapframe;

void panic(const char *fmt, ...) __noreturn __printf(1, 2);
/* A panic caused by a CPU exception: also prints the trap frame. */
void panic_trap(struct trapframe *tf, const char *what) __noreturn;
/*
 * Print "Backtrace:" and one symbolized line per frame, following saved %ebp
 * within the current kernel stack only, up to a trap frame from user mode;
 * returns the number of frame lines printed.
 */
int dump_backtrace(uint32_t ebp);
int dump_backtrace_from(uint32_t eip, uint32_t ebp);
/* The same walk, the call sites kept in ips (up to max) for later: how many. And printing them. */
int save_backtrace(uint32_t ebp, uint32_t *ips, int max);
void print_saved_backtrace(const uint32_t *ips, int n);

/* Set by SMP code: stop every other CPU (NMI-like IPI). NULL before the APs are up. */
extern void (*panic_stop_other_cpus)(void);
extern volatile int panicking;

#define BUG_ON(cond) do { if (unlikely(cond)) panic("BUG_ON(%s) at %s:%d", #cond, __FILE__, __LINE__); } while (0)

#endif
