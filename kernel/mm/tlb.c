/*
 * TLB shootdowns. Each CPU caches translations in its TLB, and nothing in
 * the hardware tells one CPU that another changed a page table. So when a
 * thread unmaps or write-protects pages of an address space that threads on
 * other CPUs are using, it must tell them: an IPI to every CPU in the mm's
 * cpu_mask, and a WAIT until each has flushed and said so. Only then may
 * the frames go back to the allocator: a CPU that has not flushed yet can
 * still read and write a freed frame, which by then may be another
 * process's page table or file data. That wait is the whole point; an IPI
 * sent and not waited for is a race with the allocator.
 *
 * This is Linux 2.6.11's flush_tlb_others() (arch/i386/kernel/smp.c): one
 * shootdown at a time under tlbstate_lock, its arguments in globals
 * (flush_mm, the range), flush_cpumask holding the CPUs that have not
 * answered yet, each target clearing its own bit in the interrupt.
 *
 * cpu_mask is kept by the context switch (switch_mm() below): a CPU sets its
 * bit before it loads an mm's page directory and clears it after it loaded
 * another. So a CPU not in the mask has no entries of the mm cached, and a
 * CPU that joins after the initiator read the mask loads CR3 after the PTEs
 * changed, which drops any stale entry anyway.
 *
 * Lazy TLB mode: a kernel thread (the idle task above all) has no user
 * memory, so switching to one keeps the last process's page directory
 * loaded (the kernel half is the same in every directory) and a switch back
 * to that process costs no CR3 reload and no TLB refill. The CPU stays in
 * the mask meanwhile, since its TLB still holds the process's entries; the
 * first shootdown that reaches it makes it leave instead (leave_mm(): load
 * kernel_pgdir, clear its bit), so an idle CPU is interrupted at most once
 * per address space. An mm is freed only after tlb_leave_mm_everywhere():
 * a lazy CPU must not keep a freed page directory in CR3.
 *
 * A CPU waiting with interrupts off cannot take the IPI. Two rules keep
 * that from deadlocking: an initiator with interrupts off waits for
 * tlbstate_lock by polling (tlb_poll() answers a shootdown aimed at it
 * meanwhile), and page_table_lock taken with interrupts off is waited for
 * the same way (ptl_lock(), kernel/mm/mm_internal.h). Everyone else waits
 * with interrupts on.
 */
#include "kernel/mm/tlb.h"

#include "kernel/cpu.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/mm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time/timer.h"
#include "kernel/x86/lapic.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

/* A range longer than this is flushed by reloading CR3 (all user entries) rather than page by page. */
#define FLUSH_PAGES_MAX 32
/* A CPU that has not answered after this long is reported (once): it may be stuck with interrupts off. */
#define ACK_WARN_NS 5000000000ULL

/* One shootdown at a time: it protects the flush_ variables below while flush_cpumask is not 0. */
static spinlock_t tlbstate_lock = SPINLOCK_INIT("tlbstate_lock");
static struct mm *flush_mm;
static uintptr_t flush_start, flush_end;        /* start == end: the whole address space */
static bool flush_leave;                        /* the mm is going away: leave it, lazy or not */
static volatile uint32_t flush_cpumask;         /* CPUs that have not answered yet */

static void mask_set(struct mm *mm, int cpu)
{
	__atomic_or_fetch(&mm->cpu_mask, 1u << cpu, __ATOMIC_SEQ_CST);
}

static void mask_clear(struct mm *mm, int cpu)
{
	__atomic_and_fetch(&mm->cpu_mask, ~(1u << cpu), __ATOMIC_SEQ_CST);
}

void leave_mm(void)
{
	struct cpu *c = this_cpu();
	struct mm *mm = c->active_mm;

	c->tlb_lazy = false;
	if (!mm)
		return;
	write_cr3(V2P(kernel_pgdir));
	c->active_mm = NULL;
	mask_clear(mm, c->id);          /* after the reload: until then the TLB could hold its entries */
}

void switch_mm(struct mm *next)
{
	struct cpu *c = this_cpu();
	struct mm *prev = c->active_mm;

	if (!next) {
		c->tlb_lazy = prev != NULL;     /* a kernel thread: keep prev loaded, lazily */
		return;
	}
	c->tlb_lazy = false;
	if (prev == next)
		return;         /* still in its mask all along: the shootdowns kept this TLB right */
	mask_set(next, c->id);          /* before the load: a shootdown from now on reaches us */
	write_cr3(V2P(next->pgdir));    /* drops every user entry of prev (they are not global) */
	c->active_mm = next;
	if (prev)
		mask_clear(prev, c->id);
}

/* Flush [start, end) of mm here (the whole of it when start == end), or leave mm. Interrupts off. */
static void flush_local(struct mm *mm, uintptr_t start, uintptr_t end, bool leave)
{
	struct cpu *c = this_cpu();

	if (c->active_mm != mm)
		return;         /* switched away since the mask was read: nothing of mm is cached */
	if (leave || c->tlb_lazy) {
		leave_mm();     /* lazy: leave rather than flush, so the next shootdown skips us */
		return;
	}
	if (start == end || (end - start) / PAGE_SIZE > FLUSH_PAGES_MAX) {
		write_cr3(read_cr3());
		return;
	}
	for (uintptr_t va = start; va < end; va += PAGE_SIZE)
		invlpg(va);
}

void tlb_poll(void)
{
	/* LAB8: BEGIN answer */
	uint32_t bit = 1u << cpu_id();

	if (!(__atomic_load_n(&flush_cpumask, __ATOMIC_SEQ_CST) & bit))
		return;
	flush_local(flush_mm, flush_start, flush_end, flush_leave);
	this_cpu()->tlb_ipis++;
	/* The acknowledgment: after it, the initiator may free what we no longer see. */
	__atomic_and_fetch(&flush_cpumask, ~bit, __ATOMIC_SEQ_CST);
	/* LAB8: END */
}

static void tlb_interrupt(struct trapframe *tf)
{
	(void)tf;
	lapic_eoi();
	tlb_poll();
}

static void take_tlbstate_lock(void)
{
	if (irqs_enabled()) {
		spin_lock(&tlbstate_lock);
		return;
	}
	/* Interrupts off: the holder may be waiting for us to answer its IPI. Answer while we wait. */
	while (!spin_trylock(&tlbstate_lock)) {
		tlb_poll();
		cpu_relax();
	}
}

/* Spin until every target has answered; say so, loudly, if one never does. */
static void wait_for_acks(void)
{
	/* LAB8: BEGIN wait-for-acks */
	uint64_t start = clock_ns();
	bool reported = false;

	while (__atomic_load_n(&flush_cpumask, __ATOMIC_SEQ_CST)) {
		cpu_relax();
		if (!reported && clock_ns() - start > ACK_WARN_NS) {
			printk("BUG: TLB shootdown from CPU %d: CPUs %x have not answered for 5 s\n",
			       cpu_id(), flush_cpumask);
			reported = true;
		}
	}
	/* LAB8: END */
}

/* IPI every CPU of mask but this one and wait until each has flushed. Preemption off. */
static void flush_tlb_others(uint32_t mask, struct mm *mm, uintptr_t start, uintptr_t end, bool leave)
{
	mask &= cpu_online_mask() & ~(1u << cpu_id());
	if (!mask)
		return;
	take_tlbstate_lock();
	flush_mm = mm;
	flush_start = start;
	flush_end = end;
	flush_leave = leave;
	/* LAB8: BEGIN ipi-the-mask */
	__atomic_store_n(&flush_cpumask, mask, __ATOMIC_SEQ_CST);
	for (int i = 0; i < ncpus; i++)
		if (mask & (1u << i))
			lapic_send_ipi(cpus[i].apic_id, T_IPI_TLB);
	/* LAB8: END */
	/* Wait for every acknowledgment: until then a target may still use the old entries. */
	wait_for_acks();
	flush_mm = NULL;
	spin_unlock(&tlbstate_lock);
}

/* The shootdown: here, then everywhere else mm is (or was lazily) loaded. */
static void flush_everywhere(struct mm *mm, uintptr_t start, uintptr_t end, bool leave)
{
	uint32_t flags, mask;

	preempt_disable();
	flags = irq_save();
	flush_local(mm, start, end, leave);
	irq_restore(flags);
	/* Read the mask only after the PTE writes (the caller's): see the comment at the top. */
	mask = __atomic_load_n(&mm->cpu_mask, __ATOMIC_SEQ_CST);
	flush_tlb_others(mask, mm, start, end, leave);
	preempt_enable();
}

void flush_tlb_range(struct mm *mm, uintptr_t start, uintptr_t end)
{
	if (start < end)
		flush_everywhere(mm, start, end, false);
}

void flush_tlb_page(struct mm *mm, uintptr_t va)
{
	flush_everywhere(mm, va, va + PAGE_SIZE, false);
}

void flush_tlb_mm(struct mm *mm)
{
	flush_everywhere(mm, 0, 0, false);
}

/* LAB8: BEGIN leave-everywhere */
void tlb_leave_mm_everywhere(struct mm *mm)
{
	flush_everywhere(mm, 0, 0, true);
	if (__atomic_load_n(&mm->cpu_mask, __ATOMIC_SEQ_CST))
		panic("tlb: mm %p freed while CPUs %x still have it loaded", mm, mm->cpu_mask);
}
/* LAB8: END */

void tlb_init(void)
{
	trap_set_handler(T_IPI_TLB, tlb_interrupt);
}
