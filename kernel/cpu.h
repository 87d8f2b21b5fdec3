/*
 * Per-CPU data: one struct cpu per processor, found in O(1) through %gs.
 * In kernel/, not kernel/x86/: the scheduler, locks and statistics are per CPU on any machine.
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include "kernel/types.h"
#include "kernel/locking/atomic.h"
#include "kernel/time/cputime.h"
#include "kernel/x86/gdt.h"

#define MAX_CPUS 16
#define MAX_HELD_LOCKS 8

struct task;
struct spinlock;
struct mm;

struct cpu {
	struct cpu *self;               /* must stay first: this_cpu() reads %gs:0 */
	int id;                         /* logical number, index into cpus[] */
	uint32_t apic_id;               /* the local APIC's ID (not always equal to id) */
	volatile bool online;           /* set by the CPU itself once it can take work */
	struct task *curr;              /* the task running on this CPU (read it as `current`) */
	struct task *idle;              /* this CPU's idle task */
	/* The stack it booted on, which its idle task keeps: [stack_lo, stack_hi), for backtraces. */
	uint32_t stack_lo, stack_hi;
	int preempt_count;              /* >0: the scheduler must not switch away (spinlocks) */
	int irq_nesting;                /* >0 while this CPU is in an interrupt handler */
	volatile bool need_resched;     /* set by the tick or a wakeup IPI, checked on return */
	uint64_t ticks;                 /* timer ticks seen by this CPU */
	/*
	 * The ticks that found this CPU running since the one before: a tick that
	 * comes two periods or more after the last is the host resuming a vCPU it
	 * had stopped, and says nothing of how long this CPU ran (kernel/time/timer.c).
	 */
	uint64_t ran_ticks;
	/*
	 * The ran_ticks that did not find this CPU spinning for a lock. Waits
	 * for a CPU are counted in these (kernel/sched/runqueue.c): the
	 * scheduler's own lateness. A CPU held by a lock's waiter (preemption
	 * off) is the lock's delay, which the lockup watch judges; under QEMU a
	 * ticket lock's next owner may be a vCPU the host has stopped, and its
	 * waiters spin through no fault of the scheduler.
	 */
	uint64_t sched_ticks;
	uint64_t last_tick_tsc;
	/* Where this CPU's ticks went, for /proc/stat (kernel/time/cputime.c). */
	struct cpu_usage usage;
	uint64_t irq_cycles;            /* TSC cycles in interrupt handlers, exact (kernel/x86/trap.c) */
	uint64_t irq_cycles_charged;    /* of which charged to usage.irq, a tick at a time */
	volatile uint8_t spinning;      /* enum spinning: what a spin loop on this CPU waits for */
	atomic_t nr_iowait;             /* tasks that went to sleep here waiting for a disk */
	uint64_t nr_switches;           /* context switches: /proc/stat's ctxt */
	uint64_t resched_ipis;          /* reschedule IPIs received */
	/*
	 * Set while this CPU's idle task polls its run queue before halting
	 * (kernel/sched/sched.c, idle_poll()): a waker that sees it needs no
	 * IPI, the queue itself is what the CPU watches. Linux's
	 * TIF_POLLING_NRFLAG.
	 */
	volatile bool polling;
	uint64_t ipis_saved;            /* wakeups this CPU made of a polling CPU, without an IPI */
	/* Spinlocks held right now, for might_sleep() and lock reports. */
	int nlocks_held;
	struct spinlock *locks_held[MAX_HELD_LOCKS];
	int lockdep_recursion;          /* inside the lock-order checker: it does not check itself */
	uint64_t gdt[GDT_ENTRIES];
	struct tss tss;
	/*
	 * Where sysenter points the stack (kernel/x86/sysenter.c): a few words
	 * whose top one holds &tss.esp0, which the entry follows to the task's
	 * kernel stack; below it, room for the three words of a debug trap
	 * taken on the entry's first instruction (trapentry.S, debug_entry).
	 */
	uint32_t sysenter_stack[8];
	/*
	 * The address space whose page tables are in CR3 (NULL: kernel_pgdir).
	 * A kernel thread keeps the last process's loaded (tlb_lazy): this CPU
	 * stays in that mm's cpu_mask until a shootdown tells it to leave
	 * (kernel/mm/tlb.c). Changed by this CPU only, with interrupts off.
	 */
	struct mm *active_mm;
	bool tlb_lazy;
	uint64_t tlb_ipis;              /* TLB shootdown IPIs this CPU answered */
} __cacheline_aligned;          /* a CPU's fields never share a line with another CPU's */

extern struct cpu cpus[MAX_CPUS];
extern int ncpus;                       /* CPUs found (online or not) */

/* %gs holds a segment whose base is this CPU's struct cpu: one load, no lookup. */
static inline struct cpu *this_cpu(void)
{
	struct cpu *c;

	__asm__ volatile("movl %%gs:0, %0" : "=r"(c));
	return c;
}

static inline int cpu_id(void)
{
	return this_cpu()->id;
}

/*
 * One %gs-relative load: "find my CPU, then read its count" as two loads
 * could be preempted in between and read the CPU it has just left.
 */
static inline bool in_interrupt(void)
{
	int n;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(n) : "i"(offsetof(struct cpu, irq_nesting)));
	return n > 0;
}

#endif
