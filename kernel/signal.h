/* Signals, default actions only: terminate (most), ignore (SIGCHLD); and deaths by CPU fault. */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include "kernel/types.h"

struct task;
struct trapframe;

/* Send sig to t: a terminating signal marks t killed and wakes it; ignored ones are dropped. */
void signal_send(struct task *t, int sig);
/* The signal that killed t (SIGKILL first, then the lowest pending). */
int signal_fatal_pending(struct task *t);
/*
 * trap_user_fault_hook: resolve a page fault (kernel/mm/fault.c), or else log the fault
 * and kill the current process with the matching signal.
 */
void signal_user_fault(struct trapframe *tf);

#endif
