/* Kernel threads: create one with kthread_create() (declared in kernel/sched/sched.h). */
#ifndef KERNEL_KTHREAD_H
#define KERNEL_KTHREAD_H

#include "kernel/sched/task.h"

/* Ends the calling kernel thread with an exit code (also what returning from fn does). */
void kthread_exit(int code) __noreturn;

#endif
