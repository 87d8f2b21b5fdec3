/* The Big Kernel Lock: recursive, per task, released while its holder sleeps. See kernel/locking/bkl.c. */
#ifndef KERNEL_BKL_H
#define KERNEL_BKL_H

#include "kernel/era.h"
#include "kernel/locking/mutex.h"     /* DEFINE_OWN_MUTEX, lock_kernel_or() without the BKL */
#include "kernel/uapi/errno.h"
#include "kernel/types.h"

/*
 * CONFIG_BKL: this kernel has the BKL. Linux 2.6.37 made it a config option
 * of that name, so that a kernel could be built without it; 2.6.39 removed it.
 * Every build has it but `make ERA=2.6.39` (-DCONFIG_NO_BKL, kernel/era.c),
 * where lock_kernel() does not exist and each of its sites takes a lock of its
 * own instead: lock_kernel_or() below says both at the site.
 */
#ifndef CONFIG_NO_BKL
#define CONFIG_BKL 1
#endif

struct task;

/* /proc/sys/kernel/bkl_timing's default and largest period (kernel/locking/bkl_hold.h). */
#define BKL_TIMING_DEFAULT 32
#define BKL_TIMING_MAX 1024

/*
 * One of these exists for every place in the source that calls lock_kernel():
 * the macro below plants a static one at the call site, in section .bkl_sites,
 * so the kernel can list every BKL site it contains (as "The Big Kernel Lock
 * lives on", 2004, did by hand for Linux 2.6.6) with what each one cost. The
 * counters are only changed by the task that holds the BKL, so the BKL itself
 * protects them.
 */
struct bkl_site {
	const char *file;
	int line;
	const char *function;
	uint64_t acquisitions;          /* outermost lock_kernel() calls here */
	uint64_t contended;             /* ... that found the lock taken and had to spin */
	uint64_t reacquisitions;        /* times its holder slept and took the lock back */
	uint64_t wait_cycles, wait_max; /* TSC cycles spent spinning for the lock */
	uint64_t hold_cycles, hold_max; /* TSC cycles held from here: an estimate unless every hold is timed (bkl_hold.h) */
	uint64_t timed_holds;           /* how many were timed: all of them with bkl_timing=1 */
} __attribute__((aligned(8)));          /* sizeof must be the stride between sites in the section */

#ifdef CONFIG_BKL
void lock_kernel_site(struct bkl_site *site);
void unlock_kernel_site(const char *file, int line);

#define lock_kernel()                                                                   \
	do {                                                                            \
		static struct bkl_site bkl_site_                                        \
			__attribute__((section(".bkl_sites"), aligned(8))) =             \
				{ __FILE__, __LINE__, __func__, 0, 0, 0, 0, 0, 0, 0, 0 };  \
		lock_kernel_site(&bkl_site_);                                           \
	} while (0)
#define unlock_kernel() unlock_kernel_site(__FILE__, __LINE__)

/* Does the current task hold the BKL? */
bool kernel_locked(void);
/* The BKL's lock class (lock_stat's line, the lock-order checker's node). */
struct lock_class *bkl_lock_class(void);

/* A snapshot for /proc/bkl, bklstat and tests. */
struct bkl_state {
	struct task *owner;             /* NULL when free */
	int owner_cpu;                  /* -1 when free */
	int owner_depth;                /* the owner's lock_depth */
	int waiting;                    /* tickets handed out but not yet served */
};
void bkl_get_state(struct bkl_state *st);
/* Every call site, whether or not it ever ran. */
struct bkl_site *bkl_sites_begin(void);
struct bkl_site *bkl_sites_end(void);
/* Zeroes the site counters and the blame table ("echo 0 > /proc/bkl"). */
void bkl_stats_reset(void);

/*
 * Who made whom wait: for each pair of sites, the contended acquisitions at
 * waiter during which holder held the lock (holder NULL: nobody, the lock
 * was being handed to the next ticket), and the TSC cycles waited while it did.
 */
#define BKL_BLAME_MAX 128       /* pairs kept; more are counted as lost */
struct bkl_blame {
	struct bkl_site *waiter, *holder;
	uint64_t count, cycles;
};
/* The table (call with the BKL held: it protects it); *lost: charges that found it full. */
int bkl_blame_table(const struct bkl_blame **out, uint64_t *lost);
/*
 * Which BKL holds are timed (/proc/sys/kernel/bkl_timing, boot word
 * bkl_timing=): 0 none, 1 every one, N (a power of two up to
 * BKL_TIMING_MAX) one in N at random. See kernel/locking/bkl_hold.h.
 */
uint32_t bkl_timing_get(void);
int bkl_timing_set(uint32_t period);    /* -EINVAL unless 0 or a power of two <= BKL_TIMING_MAX */
void bkl_timing_init(void);

/*
 * era=2.6.8: the BKL is a sleeping semaphore (kernel/locking/bkl_sem.c), so
 * its holder may be preempted and its waiters sleep. Fixed at boot. Inline:
 * every lock_kernel() asks.
 */
static inline bool bkl_is_semaphore(void)
{
	return era_now() == ERA_2_6_8;
}

/* Used only by schedule(): drop the lock for a sleeping holder, take it back on return. */
void bkl_release_for_switch(struct task *prev);
void bkl_reacquire_after_switch(struct task *next);

#else /* !CONFIG_BKL */

/*
 * A kernel without the BKL (make ERA=2.6.39): no lock_kernel(), so a call
 * left anywhere fails to build, as in Linux 2.6.39 after "BKL: That's all,
 * folks" (4ba8216cd905). What the rest of the kernel asks about the BKL has
 * one answer: nobody holds it, nobody waits, it has no sites. lock_depth
 * stays -1 in every task.
 */
struct bkl_state {
	struct task *owner;
	int owner_cpu;
	int owner_depth;
	int waiting;
};
static inline bool kernel_locked(void) { return false; }
static inline void bkl_get_state(struct bkl_state *st)
{
	st->owner = NULL;
	st->owner_cpu = st->owner_depth = -1;
	st->waiting = 0;
}
static inline struct bkl_site *bkl_sites_begin(void) { return NULL; }
static inline struct bkl_site *bkl_sites_end(void) { return NULL; }
static inline void bkl_stats_reset(void) { }
static inline uint32_t bkl_timing_get(void) { return 0; }
static inline int bkl_timing_set(uint32_t period) { return period ? -EINVAL : 0; }
static inline void bkl_timing_init(void) { }
static inline bool bkl_is_semaphore(void) { return false; }
static inline void bkl_release_for_switch(struct task *prev) { }
static inline void bkl_reacquire_after_switch(struct task *next) { }

#endif /* CONFIG_BKL */

/*
 * A BKL site, told in both stories at once. The 2010 pushdown that ended the
 * BKL went site by site and gave each lock_kernel() a lock of its own, most
 * often a mutex that serializes what the BKL serialized there and nothing
 * else ("autoconvert trivial BKL users to private mutex"). So a site says:
 *
 *	DEFINE_OWN_MUTEX(flock_mutex);          (once, at file level)
 *	lock_kernel_or(&flock_mutex);           the BKL; in 2.6.39, flock_mutex
 *	...
 *	unlock_kernel_or(&flock_mutex);
 *
 * With the BKL, lock_kernel_or(m) is lock_kernel() and nothing else: it is
 * still a site of its own in /proc/bkl and tools/build/bklsurvey, named by the line
 * and function it is written in, and m is not evaluated. Without it (make
 * ERA=2.6.39) it is mutex_lock(m). The two locks differ where it matters: the
 * BKL is recursive and let go while its holder sleeps; the mutex is neither.
 *
 * DEFINE_OWN_MUTEX(m) defines the static mutex m in the build that takes it,
 * and in the build with the BKL only declares it, so that the BKL kernel
 * carries no mutex (and no /proc/lock_stat line) it never takes, and any use
 * of it there fails to link. A site may also name a mutex that exists in both
 * builds, such as an inode's i_mutex.
 */
#ifdef CONFIG_BKL
#define DEFINE_OWN_MUTEX(m)     extern struct mutex m
#define lock_kernel_or(m)       lock_kernel()
#define unlock_kernel_or(m)     unlock_kernel()
#else
#define DEFINE_OWN_MUTEX(m)     static DEFINE_MUTEX(m)
#define lock_kernel_or(m)       mutex_lock(m)
#define unlock_kernel_or(m)     mutex_unlock(m)
#endif

#endif
