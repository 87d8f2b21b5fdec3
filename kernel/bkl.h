/* The Big Kernel Lock: recursive, per task, released while its holder sleeps. See kernel/bkl.c. */
#ifndef KERNEL_BKL_H
#define KERNEL_BKL_H

#include "kernel/types.h"

struct task;

void lock_kernel_at(const char *file, int line);
void unlock_kernel_at(const char *file, int line);
/* Each call site is counted separately in the statistics, so the macros pass file:line. */
#define lock_kernel() lock_kernel_at(__FILE__, __LINE__)
#define unlock_kernel() unlock_kernel_at(__FILE__, __LINE__)
/* Does the current task hold the BKL? */
bool kernel_locked(void);

/* Used only by schedule(): drop the lock for a sleeping holder, take it back on return. */
void bkl_release_for_switch(struct task *prev);
void bkl_reacquire_after_switch(struct task *next);

#endif
