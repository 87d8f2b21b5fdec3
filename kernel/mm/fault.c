/*
 * Page faults on user addresses, from either place they come from: user mode
 * (signal_user_fault) and the kernel's user-access instructions
 * (uaccess_fault_fixup). mm_fault() resolves a write to a copy-on-write page
 * and the first touch of a heap page. When it cannot for want of a free
 * frame, the address is still valid: that must not turn into SIGSEGV or
 * -EFAULT. Instead the OOM killer frees memory by killing a victim, and the
 * faulting task sleeps a tick and tries again, as Linux's page-fault path
 * does after pagefault_out_of_memory().
 *
 * Locking, as Linux 2.6's do_page_fault(): the fault runs with interrupts
 * on when the faulting code had them on, and holds mmap_sem for READING,
 * so the faults of several threads of one process proceed at once while
 * munmap and mprotect (writers) wait. In atomic context (a futex word read
 * under a bucket spinlock) it may not sleep: it tries mmap_sem and, if a
 * writer has it, goes on without; page_table_lock, which mm_fault() takes,
 * is enough to read the regions (docs/mm.md section 8). mmap_sem is let go
 * before waiting out a shortage: the victim's exit and munmap need it.
 */
#include "kernel/mm/fault.h"

#include "fs/file.h"
#include "kernel/locking/atomic.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/oom_kill.h"
#include "kernel/mm/vma.h"
#include "kernel/mm/vmstat.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/mman.h"
#include "kernel/x86/x86.h"

#define OOM_RETRY_NS 10000000ULL        /* one tick: time for a victim to die and free its pages */

/* mm_fault() under mmap_sem for reading, or (atomic context, a writer in) under page_table_lock alone. */
static enum mm_fault_result fault_once(struct mm *mm, uintptr_t va, bool write, bool can_sleep)
{
	enum mm_fault_result r;
	bool locked = true;

	if (can_sleep)
		down_read(&mm->mmap_sem);
	else
		locked = down_read_trylock(&mm->mmap_sem);
	r = mm_fault(mm, va, write);
	if (locked)
		up_read(&mm->mmap_sem);
	return r;
}

/* The loop of fault_user_address(), with interrupts as the faulting code had them. */
static bool resolve(struct task *t, uintptr_t va, bool write, bool from_user, bool can_sleep)
{
	for (;;) {
		enum mm_fault_result r = fault_once(t->mm, va, write, can_sleep);

		if (r == MM_FAULT_READ) {
			if (!can_sleep)
				return false;   /* atomic context: no read (the caller faults the page in first) */
			/* mmap_sem is let go: the read takes the file's i_mutex (docs/mm.md section 9). */
			r = mm_fault_read(t->mm, va, write);
			if (r == MM_FAULT_DONE)
				continue;       /* retry the fault: COW, or a region changed meanwhile */
		}
		switch (r) {
		case MM_FAULT_DONE:
			return true;
		case MM_FAULT_BAD:
		case MM_FAULT_SIGBUS:   /* the signal's choice is fault_is_sigbus()'s */
		case MM_FAULT_READ:
			return false;
		case MM_FAULT_OOM:
			break;
		}
		if (!can_sleep)
			return false;   /* atomic context: it cannot wait for memory (docs/mm.md) */
		oom_kill();
		if (READ_ONCE(t->killed))
			return from_user;       /* the victim, or killed anyway: no point waiting */
		if (from_user && signal_pending(t))
			return true;            /* let its handler run first; the access faults again after */
		/* A pending signal ends the sleep at once; the kernel's copy keeps waiting, without spinning. */
		if (sched_sleep_ns(OOM_RETRY_NS) < 0)
			sched_yield();
	}
}

bool fault_user_address(uintptr_t va, bool write, bool from_user, bool can_sleep)
{
	struct task *t = current;
	bool ok;

	if (!t || !t->mm)
		return false;
	count_vm_event(PGFAULT);
	/*
	 * Code that may sleep had interrupts on: so may we, as Linux does. Then a
	 * TLB shootdown from another CPU is answered while we wait for a lock.
	 */
	if (can_sleep)
		sti();
	ok = resolve(t, va, write, from_user, can_sleep);
	if (can_sleep)
		cli();
	return ok;
}

bool fault_is_sigbus(uintptr_t va)
{
	struct mm *mm = current ? current->mm : NULL;
	struct vma *v;
	bool beyond = false;

	if (!mm || va >= USER_TOP)
		return false;
	ptl_lock(mm);           /* enough to read the regions (docs/mm.md section 8) */
	v = vma_find(mm, va);
	if (v && v->file && v->prot != PROT_NONE)
		beyond = ((loff_t)vma_pgoff_at(v, ALIGN_DOWN(va, PAGE_SIZE)) << PAGE_SHIFT) >=
			 ALIGN_UP(v->file->f_inode->i_size, PAGE_SIZE);
	ptl_unlock(mm);
	return beyond;
}
