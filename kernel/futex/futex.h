/* Futexes (kernel/futex/): what the rest of the kernel calls. The design is in docs/futex.md. */
#ifndef KERNEL_FUTEX_FUTEX_H
#define KERNEL_FUTEX_FUTEX_H

#include "kernel/types.h"

struct mm;
struct task;

/* The hash table's buckets and their locks. Boot CPU, once, before the first process. */
void futex_init(void);

/*
 * Wake up to nr (at least one) waiters of the futex at uaddr in mm, which must
 * be the current task's: CLONE_CHILD_CLEARTID at a thread's exit, after the tid
 * word has been cleared. Like Linux's mm_release() it wakes the SHARED futex
 * (waits made without FUTEX_PRIVATE_FLAG), which is what glibc's pthread_join
 * waits on. Returns how many woke, or -EINVAL / -EFAULT for a bad address.
 */
int futex_wake_uaddr(struct mm *mm, uint32_t uaddr, int nr);

/*
 * At the death of thread t (the current task, its mm still loaded): every
 * lock on its robust list (set_robust_list) that t still owns gets
 * FUTEX_OWNER_DIED, and one waiter of it is woken (kernel/futex/robust.c).
 */
void futex_exit_robust_list(struct task *t);

/* How many tasks wait on the futex at uaddr right now (for the ktests). */
int futex_nr_waiters(struct mm *mm, uint32_t uaddr, bool shared);

#endif
