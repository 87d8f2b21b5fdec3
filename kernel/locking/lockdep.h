/* The lock-order checker, Linux's lockdep for smpix's locks and the BKL: see kernel/locking/lockdep.c. */
#ifndef KERNEL_LOCKDEP_H
#define KERNEL_LOCKDEP_H

#include "kernel/locking/lock_stat.h"
#include "kernel/types.h"

struct task;

#define LOCKDEP_HELD_MAX 24     /* locks one task may hold at once while the checker watches */
#define LOCKDEP_SUBCLASSES 3    /* 0, and 1, 2 for *_lock_nested(): locks of one class nested on purpose */

/* lockdep_acquire()'s flags. */
#define LOCKDEP_TRYLOCK 1       /* it cannot wait, so cannot close a cycle: recorded, not checked */
#define LOCKDEP_NOEDGES 2       /* held from here, but no dependency on what is held (the BKL retaken) */

/* One lock a task holds, as the checker saw it taken. */
struct held_lock {
	struct lock_class *class;
	const void *lock;               /* the instance, to find it again at release */
	const char *file;               /* where it was taken: file:line, or NULL and ip */
	int line;
	uintptr_t ip;
	uint16_t node;                  /* its class's node in the checker's graph */
	uint8_t subclass;
	uint8_t irq;                    /* taken in an interrupt handler (on the interrupted task's stack) */
	uint8_t trylock;
};

/* Each task's held locks, newest last: Linux's current->held_locks. In struct task. */
struct lockdep_held {
	int depth;
	struct held_lock held[LOCKDEP_HELD_MAX];
};

/*
 * On? The boot word lockdep=1, which make test's boots pass. Off, the lock
 * paths pay one predictable branch on this flag. It goes off for good after
 * the first report (one bug, one report) or when a table fills up.
 */
extern bool lockdep_on;

/*
 * The current task takes lock (of class c, subclass): checked against every
 * lock it holds, then pushed on its held stack. Called BEFORE the lock is
 * waited for, so that an inversion is reported before it can hang.
 * file:line or ip: the place, for reports.
 */
void lockdep_acquire(struct lock_class *c, int subclass, const void *lock, const char *file, int line,
		     uintptr_t ip, unsigned flags);
/* The current task lets lock go (or gave up waiting for it). Unknown locks are ignored. */
void lockdep_release(const void *lock);
/* A held lock changes task: the run-queue lock that schedule() takes in prev and next lets go. */
void lockdep_handoff(const void *lock, struct task *from, struct task *to);

void lockdep_init(void);
/* Turn it on now (a test in a boot without lockdep=1): false if a report already turned it off. */
bool lockdep_start(void);

/* For tests and /proc/lockdep. */
int lockdep_reports(void);                      /* reports printed since boot (0 or 1) */
int lockdep_held_depth(const struct task *t);
/* Is there a recorded path from class a to class b (subclass 0 of each)? */
bool lockdep_depends(struct lock_class *a, struct lock_class *b);
struct lockdep_counts {
	int classes, classes_max, edges, edges_max, irq_safe, irq_unsafe;
};
void lockdep_get_counts(struct lockdep_counts *out);
/* The i-th class the checker knows (and its subclass, out-degree, usage char), or NULL past the end. */
struct lock_class *lockdep_class_at(int i, int *subclass, int *edges_out, char *usage);

#endif
