/* Lock statistics per lock class, Linux's /proc/lock_stat: see kernel/locking/lock_stat.c. */
#ifndef KERNEL_LOCK_STAT_H
#define KERNEL_LOCK_STAT_H

#include "kernel/types.h"

enum lock_kind { LOCK_SPIN, LOCK_MUTEX, LOCK_BKL };

#define LOCKSTAT_POINTS 4       /* contention points kept per class, as Linux */

/* A place in the code that waited for a class, or that held it while someone waited. */
struct lock_point {
	const char *file;       /* file:line, or NULL and ip (a mutex's caller, symbolized when printed) */
	int line;
	uintptr_t ip;
	const char *function;   /* known for BKL sites */
	uint64_t count;
};

/*
 * A lock class: every lock initialised at one place in the source (a
 * spin_lock_init(), mutex_init() or SPINLOCK_INIT) is of that place's class,
 * as in Linux's lockdep, so that the thousands of inode locks count as one
 * line. The init macros plant the class at their call site; it joins the
 * list /proc/lock_stat prints the first time one of its locks is taken with
 * lock_stat on.
 */
struct lock_class {
	const char *name;       /* the lock's expression (&inode->i_lock) or a static lock's name */
	const char *file;       /* where its locks are initialised */
	int line;
	int kind;               /* enum lock_kind */
	int index;              /* its row of statistics, 0 until registered */
	uint16_t dep_id[3];     /* its nodes in lockdep's graph, per subclass; 0 until first checked */
	struct lock_class *next;                /* on the list of registered classes */
	struct lock_point contention_point[LOCKSTAT_POINTS];   /* where waiters waited */
	struct lock_point contending_point[LOCKSTAT_POINTS];   /* where the holder took it meanwhile */
};

/* A class for a lock written out in full, here: at file scope a compound literal is static. */
#define LOCK_CLASS_HERE(n, k) (&(struct lock_class){ .name = (n), .file = __FILE__, .line = __LINE__, .kind = (k) })

/*
 * Collecting on? Linux's CONFIG_LOCK_STAT costs every lock two clock reads;
 * here the lock paths test this flag (its own cache line, written only by
 * the switch) and do nothing more while it is off. On: the boot word
 * lock_stat=1 or /proc/sys/kernel/lock_stat.
 */
extern bool lock_stat_on;

/* A waiter at file:line (or ip) waited `waited` TSC cycles for c, held meanwhile from hfile:hline (or hip). */
void lock_stat_contended(struct lock_class *c, int last_cpu, uint64_t waited, const struct lock_point *waiter,
			 const struct lock_point *holder);
/* An acquisition of c; last_cpu: the CPU that last held this lock (-1: none). */
void lock_stat_acquired(struct lock_class *c, int last_cpu);
/* A hold of c ended after `held` TSC cycles. */
void lock_stat_held(struct lock_class *c, uint64_t held);

void lock_stat_init(void);
void lock_stat_set(bool on);
void lock_stat_reset(void);

/* For /proc/lock_stat: each registered class, and its statistics summed over the CPUs. */
struct lock_class_stats {
	uint64_t con_bounces, contentions, wait_min, wait_max, wait_total;
	uint64_t acq_bounces, acquisitions, holds, hold_min, hold_max, hold_total;
};
struct lock_class *lock_stat_classes(void);
void lock_stat_sum(const struct lock_class *c, struct lock_class_stats *out);

#endif
