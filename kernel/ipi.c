/*
 * IPIs. Each CPU has one call slot: a caller fills it (under the slot's
 * lock, once the previous call has been picked up) and sends T_IPI_CALL; the
 * target copies fn and arg out, frees the slot, runs fn and publishes the
 * sequence number of the call it finished, which is what a waiting caller
 * watches. The stop IPI halts every other CPU when one panics.
 * In kernel/, not kernel/x86/: "run this on that CPU" is a core SMP concept;
 * only lapic_send_ipi() and lapic_eoi() are the PC's way of doing it.
 */
#include "kernel/ipi.h"

#include "kernel/locking/atomic.h"
#include "kernel/cpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/mm/tlb.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/lapic.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define STOP_IPI_WAIT_MS 100           /* CPUs with interrupts on answer at once */
#define STOP_NMI_WAIT_MS 1000          /* last chance; generous for vCPUs the host is not running */

struct call_slot {
	spinlock_t lock;                /* protects the writers' side: fn, arg, seq_queued, full */
	void (*fn)(void *);
	void *arg;
	volatile bool full;             /* a call is waiting to be picked up */
	volatile uint32_t seq_queued;   /* number of the last call queued */
	volatile uint32_t seq_done;     /* number of the last call the target finished */
};

static struct call_slot slots[MAX_CPUS];
enum { RUNNING, STOPPED_BY_IPI, STOPPED_BY_NMI };
static volatile int stopped[MAX_CPUS];         /* how each CPU was stopped for a panic */

static void resched_interrupt(struct trapframe *tf)
{
	lapic_eoi();
	this_cpu()->resched_ipis++;
	this_cpu()->need_resched = true;        /* acted on as the interrupt returns */
}

void smp_send_reschedule(int cpu)
{
	if (cpu < 0 || cpu >= ncpus || !cpus[cpu].online)
		return;
	lapic_send_ipi(cpus[cpu].apic_id, T_IPI_RESCHED);
}

static void call_interrupt(struct trapframe *tf)
{
	struct call_slot *s = &slots[cpu_id()];
	void (*fn)(void *);
	void *arg;
	uint32_t seq;

	lapic_eoi();
	/* One IPI may stand for a call queued while we ran the previous one: loop until empty. */
	while (READ_ONCE(s->full)) {
		fn = s->fn;
		arg = s->arg;
		seq = s->seq_queued;
		smp_mb();
		WRITE_ONCE(s->full, false);     /* the slot is free for the next caller now */
		fn(arg);
		smp_mb();
		WRITE_ONCE(s->seq_done, seq);
	}
}

int smp_call_function(int cpu, void (*fn)(void *), void *arg, bool wait)
{
	struct call_slot *s;
	uint32_t seq, flags;

	if (cpu < 0 || cpu >= ncpus || !cpus[cpu].online)
		return -EINVAL;
	preempt_disable();              /* "this CPU" must stay this CPU until the call is queued */
	if (cpu == cpu_id()) {
		flags = irq_save();
		fn(arg);
		irq_restore(flags);
		preempt_enable();
		return 0;
	}
	s = &slots[cpu];
	spin_lock(&s->lock);
	while (READ_ONCE(s->full))
		cpu_relax();
	s->fn = fn;
	s->arg = arg;
	seq = ++s->seq_queued;
	smp_mb();
	WRITE_ONCE(s->full, true);
	spin_unlock(&s->lock);
	lapic_send_ipi(cpus[cpu].apic_id, T_IPI_CALL);
	/* Sequence numbers wrap after 2^32 calls; the signed difference stays right. */
	while (wait && (int32_t)(READ_ONCE(s->seq_done) - seq) < 0)
		cpu_relax();
	preempt_enable();
	return 0;
}

void smp_call_function_all_others(void (*fn)(void *), void *arg, bool wait)
{
	int me;

	preempt_disable();
	me = cpu_id();

	/* Queue them all first, then wait: the other CPUs run fn in parallel. */
	for (int i = 0; i < ncpus; i++)
		if (i != me && cpus[i].online)
			smp_call_function(i, fn, arg, false);
	for (int i = 0; wait && i < ncpus; i++)
		if (i != me && cpus[i].online)
			while ((int32_t)(READ_ONCE(slots[i].seq_done) - READ_ONCE(slots[i].seq_queued)) < 0)
				cpu_relax();
	preempt_enable();
}

/* Another CPU panicked: say we stopped (it waits for that), then halt for good. */
static void __noreturn stop_this_cpu(int how)
{
	cli();
	WRITE_ONCE(stopped[cpu_id()], how);
	for (;;)
		hlt();
}

static void stop_interrupt(struct trapframe *tf)
{
	stop_this_cpu(STOPPED_BY_IPI);
}

/* An NMI reaches a CPU even with interrupts off: the fallback for one that ignored T_IPI_STOP. */
static void nmi_interrupt(struct trapframe *tf)
{
	if (panicking >= 0 && panicking != cpu_id())
		stop_this_cpu(STOPPED_BY_NMI);
	printk("nmi: unexpected NMI on CPU %d\n", cpu_id());
}

static bool all_stopped(int me)
{
	for (int i = 0; i < ncpus; i++)
		if (i != me && cpus[i].online && !READ_ONCE(stopped[i]))
			return false;
	return true;
}

/*
 * panic_stop_other_cpus: runs on the panicking CPU before it prints its
 * report, so no other CPU writes in the middle of it. First the ordinary stop
 * IPI, then an NMI for CPUs spinning with interrupts off.
 */
static void stop_other_cpus(void)
{
	int me = cpu_id();

	lapic_send_ipi(0, ICR_ALL_BUT_SELF | T_IPI_STOP);
	for (int ms = 0; ms < STOP_IPI_WAIT_MS && !all_stopped(me); ms++)
		mdelay(1);
	for (int i = 0; i < ncpus; i++)
		if (i != me && cpus[i].online && !READ_ONCE(stopped[i]))
			lapic_send_ipi(cpus[i].apic_id, ICR_NMI);
	for (int ms = 0; ms < STOP_NMI_WAIT_MS && !all_stopped(me); ms++)
		mdelay(1);
	console_force_unlock();
	if (ncpus == 1)
		return;
	/* \n first: a CPU stopped in the middle of a line leaves it unfinished. */
	printk("\nsmp: CPU %d stopped the other CPUs for the panic:", me);
	for (int i = 0; i < ncpus; i++)
		if (i != me && cpus[i].online)
			printk(" %d%s", i, stopped[i] == STOPPED_BY_IPI ? "" :
			       stopped[i] == STOPPED_BY_NMI ? "(nmi)" : "(no answer)");
	printk("\n");
}

void ipi_init(void)
{
	for (int i = 0; i < MAX_CPUS; i++)
		spin_lock_init(&slots[i].lock, "ipi call slot");
	trap_set_handler(T_IPI_RESCHED, resched_interrupt);
	trap_set_handler(T_IPI_CALL, call_interrupt);
	trap_set_handler(T_IPI_STOP, stop_interrupt);
	trap_set_handler(T_NMI, nmi_interrupt);
	panic_stop_other_cpus = stop_other_cpus;
	tlb_init();                     /* the shootdown IPI (kernel/mm/tlb.c) */
}
