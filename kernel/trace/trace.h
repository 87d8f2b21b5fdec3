/* The event trace: a ring of events per CPU, off by default, read in /proc/trace. See kernel/trace/trace.c. */
#ifndef KERNEL_TRACE_TRACE_H
#define KERNEL_TRACE_TRACE_H

#include "kernel/cpu.h"
#include "kernel/types.h"

struct bkl_site;
struct spinlock;
struct task;

/* What happened. The names /proc/trace prints are in trace_type_name(). */
enum trace_type {
	TR_NONE,
	TR_SWITCH,              /* a: prev pid, b: next pid, c: prev's state, d: prev held the BKL; flag: why */
	TR_COMM,                /* the task's pid and name (a..d: name[16]): names the pids of other events */
	TR_SYSCALL_ENTER,       /* a: number; flag: called under the BKL */
	TR_SYSCALL_EXIT,        /* a: number, b: result */
	TR_BKL_CONTENDED,       /* a: site wanting it, b: site holding it, c: holder's CPU; spinning from here */
	TR_BKL_ACQUIRE,         /* a: site, b/c: cycles waited (low/high); flag: contended */
	TR_BKL_RELEASE,         /* a: site (the outermost unlock_kernel()) */
	TR_BKL_DROP,            /* a: site; its holder is switching away (sleep or yield) */
	TR_BKL_RETAKE,          /* a: site, b/c: cycles waited; flag: contended; after the switch back */
	TR_SPIN_CONTENDED,      /* a: lock, b: its name, c: file, d: line; spinning from here */
	TR_SPIN_ACQUIRED,       /* a: lock, b: its name, c/d: cycles waited (low/high) */
	TR_IOCTL_BEGIN,         /* a: driver name, b: cmd; flag: under the BKL */
	TR_IOCTL_END,           /* a: driver name, b: result; flag: under the BKL */
	TR_IRQ_ENTER,           /* a: vector; flag: from user mode */
	TR_IRQ_EXIT,            /* a: vector; flag: back to user mode (after any switch on the way out) */
	TR_NTYPES
};

/* Why a task was switched out (TR_SWITCH's flag). */
enum trace_switch_reason { TRS_SLEEP, TRS_PREEMPT, TRS_YIELD, TRS_EXIT };

/* One event: 32 bytes, so that a ring of 8192 is 256 KiB per CPU. */
struct trace_event {
	uint64_t tsc;
	uint8_t type;                   /* enum trace_type */
	uint8_t flag;                   /* a small argument, per type */
	uint16_t cpu;
	int32_t pid;                    /* the task on the CPU (0: an idle task) */
	uint32_t arg[4];
};

/*
 * Tracing on? Every trace point tests this and nothing else when it is
 * off: one load of a line nobody writes, one branch predicted not taken.
 */
extern bool trace_on;

void trace_record(unsigned type, unsigned flag, uint32_t a, uint32_t b, uint32_t c, uint32_t d);

static inline __attribute__((always_inline)) void trace_event(unsigned type, unsigned flag, uint32_t a,
							      uint32_t b, uint32_t c, uint32_t d)
{
	if (__builtin_expect(trace_on, 0))
		trace_record(type, flag, a, b, c, d);
}

/* ---- the trace points, one per event kind, named for the place they are called from ---- */

void trace_switch_slow(struct task *prev, struct task *next, unsigned reason);
static inline void trace_switch(struct task *prev, struct task *next, unsigned reason)
{
	if (__builtin_expect(trace_on, 0))
		trace_switch_slow(prev, next, reason);
}

void trace_comm_slow(struct task *t);
static inline void trace_comm(struct task *t)
{
	if (__builtin_expect(trace_on, 0))
		trace_comm_slow(t);
}

static inline void trace_syscall_enter(unsigned nr, bool bkl)
{
	trace_event(TR_SYSCALL_ENTER, bkl, nr, 0, 0, 0);
}

static inline void trace_syscall_exit(unsigned nr, long r)
{
	trace_event(TR_SYSCALL_EXIT, 0, nr, (uint32_t)r, 0, 0);
}

static inline void trace_bkl_contended(const struct bkl_site *site, const struct bkl_site *holder, int holder_cpu)
{
	trace_event(TR_BKL_CONTENDED, 0, (uint32_t)site, (uint32_t)holder, (uint32_t)holder_cpu, 0);
}

static inline void trace_bkl_acquire(const struct bkl_site *site, bool reacquire, bool contended, uint64_t waited)
{
	trace_event(reacquire ? TR_BKL_RETAKE : TR_BKL_ACQUIRE, contended, (uint32_t)site, (uint32_t)waited,
		    (uint32_t)(waited >> 32), 0);
}

static inline void trace_bkl_release(const struct bkl_site *site, bool for_switch)
{
	trace_event(for_switch ? TR_BKL_DROP : TR_BKL_RELEASE, 0, (uint32_t)site, 0, 0, 0);
}

static inline void trace_spin_contended(const struct spinlock *l, const char *name, const char *file, int line)
{
	trace_event(TR_SPIN_CONTENDED, 0, (uint32_t)l, (uint32_t)name, (uint32_t)file, (uint32_t)line);
}

static inline void trace_spin_acquired(const struct spinlock *l, const char *name, uint64_t waited)
{
	trace_event(TR_SPIN_ACQUIRED, 0, (uint32_t)l, (uint32_t)name, (uint32_t)waited, (uint32_t)(waited >> 32));
}

static inline void trace_ioctl_begin(const char *driver, unsigned cmd, bool bkl)
{
	trace_event(TR_IOCTL_BEGIN, bkl, (uint32_t)driver, cmd, 0, 0);
}

static inline void trace_ioctl_end(const char *driver, long r, bool bkl)
{
	trace_event(TR_IOCTL_END, bkl, (uint32_t)driver, (uint32_t)r, 0, 0);
}

static inline void trace_irq_enter(unsigned vector, bool from_user)
{
	trace_event(TR_IRQ_ENTER, from_user, vector, 0, 0, 0);
}

static inline void trace_irq_exit(unsigned vector, bool to_user)
{
	trace_event(TR_IRQ_EXIT, to_user, vector, 0, 0, 0);
}

/* ---- switching it, reading it --------------------------------------------------------- */

/* The boot word trace=1 (and trace_buf=N events per CPU). After smp_init(): every CPU is known. */
void trace_init(void);
/* Turn tracing on (emptying the rings first, if it was off) or off. 0 or -ENOMEM. */
int trace_set(bool on);
bool trace_get(void);
/* Events each CPU's ring holds; events all the rings hold now. */
uint32_t trace_ring_events(void);
uint32_t trace_events_held(void);
/* Empty every ring ("echo 0 > /proc/trace"). */
void trace_clear(void);

/*
 * A copy of every CPU's ring, oldest event first, taken without stopping
 * the writers: events overwritten while it was copied are left out.
 */
struct trace_snapshot {
	int ncpus;
	uint32_t per_cpu;               /* ring size, events */
	struct trace_event *ev[MAX_CPUS];
	uint32_t n[MAX_CPUS];           /* events copied from each CPU */
	uint32_t lost[MAX_CPUS];        /* events recorded on it and since overwritten */
};
int trace_snapshot_take(struct trace_snapshot *s);
void trace_snapshot_free(struct trace_snapshot *s);
/* The next event in time order over all CPUs, or NULL; pos[] (zeroed first) says how far each CPU is. */
const struct trace_event *trace_snapshot_next(const struct trace_snapshot *s, uint32_t pos[MAX_CPUS]);

/* The names recorded since tracing started (at most the last 512): how many, in *out. */
struct trace_name {
	int pid;
	char name[16];
};
int trace_names(const struct trace_name **out);

const char *trace_type_name(unsigned type);
const char *trace_switch_reason_name(unsigned reason);

#endif
