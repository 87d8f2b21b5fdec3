/* TLB shootdowns and lazy TLB mode: keeping every CPU's TLB true to an address space's page tables. */
#ifndef KERNEL_MM_TLB_H
#define KERNEL_MM_TLB_H

#include "kernel/types.h"

struct mm;

/* Install the shootdown IPI's handler (BSP, once, beside ipi_init()). */
void tlb_init(void);

/*
 * Flush [start, end) (page-aligned) of mm from every CPU's TLB: this one's if
 * mm is loaded here, and every other CPU in mm->cpu_mask by IPI, returning
 * only once all of them have done it. A PTE that was cleared or made
 * stricter is, after this returns, seen by no CPU: its frame may be freed.
 * Interrupts should be on (they may be off: see tlb.c); preemption may be
 * off and spinlocks held (not tlbstate_lock).
 */
void flush_tlb_range(struct mm *mm, uintptr_t start, uintptr_t end);
void flush_tlb_page(struct mm *mm, uintptr_t va);
void flush_tlb_mm(struct mm *mm);
/* mm is being freed: every CPU that still has it loaded (lazily) loads kernel_pgdir, and is waited for. */
void tlb_leave_mm_everywhere(struct mm *mm);

/*
 * This CPU is to run a task with address space next (NULL: a kernel thread).
 * A process's mm is loaded (no reload if it already is); a kernel thread
 * keeps whatever is loaded, lazily. Interrupts off.
 */
void switch_mm(struct mm *next);
/* Load kernel_pgdir now and leave the loaded mm's cpu_mask (exit). Interrupts off. */
void leave_mm(void);
/* Answer a shootdown addressed to this CPU, if one is pending (interrupts off). */
void tlb_poll(void);

#endif
