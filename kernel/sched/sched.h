/* The scheduler: per-CPU run queues, preemption on the tick, sleeping, affinity. */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include "kernel/sched/task.h"
#include "kernel/types.h"

#define HZ 100                          /* timer ticks per second on every CPU */

/* Set up the BSP's idle task and run queues; called once from kmain before smp_init(). */
void sched_init(void);
/* Each CPU ends its bring-up here and never returns: it becomes that CPU's idle task. */
void cpu_enter_scheduler(void) __noreturn;

/* Make t runnable (on a CPU its affinity allows). Returns false if it was not sleeping. */
bool wake_up_process(struct task *t);
/* Give up the CPU. The caller sets current->state first if it wants to sleep. */
void schedule(void);
/* Let another runnable task on this CPU run (sched_yield). */
void sched_yield(void);
/* Sleep for at least ns nanoseconds; returns early (-EINTR) when a signal is pending (nanosleep). */
int sched_sleep_ns(uint64_t ns);
/*
 * Sleep, already TASK_SLEEPING and queued where a waker finds us, until woken
 * or until clock_ns() reaches deadline (0: no deadline). The caller checks why.
 */
void schedule_until(uint64_t deadline);
/* How long an idle CPU polls its run queue before it halts, in us (boot word idle_poll_us=N). */
extern uint32_t idle_poll_us;
/* Called by the timer interrupt on each CPU. */
struct trapframe;
void sched_tick(const struct trapframe *tf);
struct trapframe;
/* Step 1 of every trap's way back (kernel/x86/trap.c): switch now if asked to and allowed. */
void sched_preempt_on_trap_exit(struct trapframe *tf);
/* Restrict t to the CPUs in mask (migrating it if needed). Returns -EINVAL for an empty mask. */
int sched_set_affinity(struct task *t, uint32_t mask);
uint32_t cpu_online_mask(void);

/* Kernel threads. fn runs in kernel mode; when it returns, the thread exits. */
struct task *kthread_create(int (*fn)(void *), void *arg, const char *name);
/* Create and bind to one CPU before it first runs. */
struct task *kthread_create_on_cpu(int (*fn)(void *), void *arg, const char *name, int cpu);
/* Start a task made by task_alloc(), once it is complete: on the least loaded CPU it may use. */
void wake_up_new_task(struct task *t);
/* End the current kernel thread (or, for a process, used by exit after cleanup). */
void task_exit_final(void) __noreturn;
/* Free zombie t, which nobody will reap, without waiting for its last switch to end. Needs proc_lock. */
void sched_free_zombie(struct task *t);

#endif
