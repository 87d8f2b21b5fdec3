/* The BKL as a sleeping semaphore (era=2.6.8), for kernel/locking/bkl.c only. See kernel/locking/bkl_sem.c. */
#ifndef KERNEL_BKL_SEM_H
#define KERNEL_BKL_SEM_H

#include "kernel/locking/bkl.h"

/* The outermost lock_kernel() and unlock_kernel() of t (current): may sleep, and must be allowed to. */
void bkl_sem_lock(struct task *t, struct bkl_site *site);
void bkl_sem_unlock(struct task *t);
/* schedule()'s halves, as bkl_release_for_switch() and bkl_reacquire_after_switch(). */
void bkl_sem_release_for_switch(struct task *prev);
void bkl_sem_reacquire_after_switch(struct task *next);
void bkl_sem_get_state(struct bkl_state *st);

#endif
