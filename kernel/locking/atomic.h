/* Atomic operations and memory barriers: everything lock-free in smpix goes through here. */
#ifndef KERNEL_ATOMIC_H
#define KERNEL_ATOMIC_H

#include "kernel/types.h"

typedef struct { volatile int value; } atomic_t;

/* Stop the compiler from moving memory accesses across this point. */
#define barrier() __asm__ volatile("" ::: "memory")
/*
 * x86 keeps loads and stores in order except that a later load may pass an
 * earlier store to another address; only smp_mb() (a locked instruction) forbids that.
 */
#define smp_mb() __asm__ volatile("lock; addl $0, 0(%%esp)" ::: "memory", "cc")
#define smp_rmb() barrier()
#define smp_wmb() barrier()

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

static inline int atomic_read(const atomic_t *a) { return READ_ONCE(a->value); }
static inline void atomic_set(atomic_t *a, int v) { WRITE_ONCE(a->value, v); }

/* Add and return the new value. */
static inline int atomic_add_return(atomic_t *a, int v)
{
	return __atomic_add_fetch(&a->value, v, __ATOMIC_SEQ_CST);
}

static inline void atomic_inc(atomic_t *a) { atomic_add_return(a, 1); }
static inline void atomic_dec(atomic_t *a) { atomic_add_return(a, -1); }
static inline bool atomic_dec_and_test(atomic_t *a) { return atomic_add_return(a, -1) == 0; }

/* If *a == old, set it to new; returns the value found. */
static inline int atomic_cmpxchg(atomic_t *a, int old, int new)
{
	__atomic_compare_exchange_n(&a->value, &old, new, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

static inline int atomic_xchg(atomic_t *a, int v)
{
	return __atomic_exchange_n(&a->value, v, __ATOMIC_SEQ_CST);
}

#endif
