/* Page faults on user addresses: copy-on-write, heap pages on demand, and waiting out a shortage. */
#ifndef KERNEL_MM_FAULT_H
#define KERNEL_MM_FAULT_H

#include "kernel/types.h"

/*
 * A page fault at user address va by the current process, from user mode or
 * from a kernel user-access instruction (from_user false). Returns true when
 * the access should be retried (or, from user mode, when the task has been
 * killed meanwhile: it dies on its way out), false for a bad access.
 * can_sleep: the faulting code may sleep, so a shortage of frames is waited
 * out (the OOM killer frees some); if it may not, a shortage is a failure.
 * Called with interrupts off (from the trap); they are off again on return.
 */
bool fault_user_address(uintptr_t va, bool write, bool from_user, bool can_sleep);

/*
 * Was a failed fault at va (current's) a touch of a file mapping's page
 * wholly past the end of the file? Then it is SIGBUS, not SIGSEGV (Linux).
 */
bool fault_is_sigbus(uintptr_t va);

#endif
