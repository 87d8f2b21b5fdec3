/*
 * Page faults on user addresses, from either place they come from: user mode
 * (signal_user_fault) and the kernel's user-access instructions
 * (uaccess_fault_fixup). mm_fault() resolves a write to a copy-on-write page
 * and the first touch of a heap page. When it cannot for want of a free
 * frame, the address is still valid: that must not turn into SIGSEGV or
 * -EFAULT. Instead the OOM killer frees memory by killing a victim, and the
 * faulting task sleeps a tick and tries again, as Linux's page-fault path
 * does after pagefault_out_of_memory().
 */
#include "kernel/mm/fault.h"

#include "kernel/locking/atomic.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/oom_kill.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/sched/task.h"
#include "kernel/x86/x86.h"

#define OOM_RETRY_NS 10000000ULL        /* one tick: time for a victim to die and free its pages */

bool fault_user_address(uintptr_t va, bool write, bool from_user, bool can_sleep)
{
	struct task *t = current;

	if (!t || !t->mm)
		return false;
	for (;;) {
		switch (mm_fault(t->mm, va, write)) {
		case MM_FAULT_DONE:
			return true;
		case MM_FAULT_BAD:
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
		sti();
		/* A pending signal ends the sleep at once; the kernel's copy keeps waiting, without spinning. */
		if (sched_sleep_ns(OOM_RETRY_NS) < 0)
			sched_yield();
		cli();
	}
}
