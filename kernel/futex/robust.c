/*
 * Robust futexes: locks that do not stay locked for ever when their owner
 * dies. A thread tells the kernel where its list of held locks is
 * (set_robust_list); the list lives in user memory and only user space
 * changes it. When the thread dies the kernel walks it: each lock whose word
 * still holds the thread's tid gets FUTEX_OWNER_DIED, and one waiter is
 * woken, who then takes the lock and learns (EOWNERDEAD) that its data may
 * be half-changed. Linux 2.6.17's design (Documentation/robust-futexes.txt).
 */
#include "kernel/futex/futex.h"
#include "kernel/futex/futex_internal.h"

#include "kernel/mm/uaccess.h"
#include "kernel/process/proc.h"
#include "kernel/sched/task.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/futex.h"

long sys_set_robust_list(uint32_t head, size_t len)
{
	/* Only the length is checked: the list is user memory, read at death or never. */
	if (len != sizeof(struct robust_list_head_32))
		return -EINVAL;
	current->robust_list = head;
	return 0;
}

/* Any task's list head: Linux asks ptrace's permission, and here everyone is root. */
long sys_get_robust_list(int pid, uint32_t *uhead, uint32_t *ulen)
{
	struct task *t;
	uint32_t head;

	spin_lock(&proc_lock);
	t = pid == 0 ? current : task_find(pid);
	if (!t) {
		spin_unlock(&proc_lock);
		return -ESRCH;
	}
	head = t->robust_list;
	spin_unlock(&proc_lock);
	if (put_user_u32(ulen, sizeof(struct robust_list_head_32)) < 0)
		return -EFAULT;
	return put_user_u32(uhead, head);
}

/* Read a list pointer: bit 0 marks a priority-inheritance lock, the rest is the entry. */
static int fetch_entry(uint32_t at, uint32_t *entry, bool *pi)
{
	uint32_t v;

	if (get_user_u32(&v, (const void *)at) < 0)
		return -EFAULT;
	*entry = v & ~1u;
	*pi = v & 1;
	return 0;
}

/*
 * The dead thread t held the lock at uaddr? Mark it FUTEX_OWNER_DIED (keeping
 * FUTEX_WAITERS) and wake one waiter. pending: the lock it was taking or
 * releasing when it died; if that word is 0 it released it without waking
 * anyone yet, so wake one now. -EFAULT stops the walk.
 */
static int handle_death(uint32_t uaddr, struct task *t, bool pending, bool pi)
{
	uint32_t val, seen;

	if (uaddr % sizeof(uint32_t))
		return -EFAULT;
	for (;;) {
		if (get_user_u32(&val, (const void *)uaddr) < 0)
			return -EFAULT;
		if (pending && !pi && val == 0) {
			futex_wake(uaddr, true, 1, FUTEX_BITSET_MATCH_ANY);
			return 0;
		}
		if ((val & FUTEX_TID_MASK) != (uint32_t)t->pid)
			return 0;       /* someone else's now */
		if (cmpxchg_user_u32((uint32_t *)uaddr, val, (val & FUTEX_WAITERS) | FUTEX_OWNER_DIED,
				     &seen) < 0)
			return -EFAULT;
		if (seen == val)
			break;
		/* A waiter set FUTEX_WAITERS meanwhile: again. */
	}
	/* Robust waiters wait on the shared futex (glibc), which is what Linux wakes. */
	if (!pi && (val & FUTEX_WAITERS))
		futex_wake(uaddr, true, 1, FUTEX_BITSET_MATCH_ANY);
	return 0;
}

/*
 * The walk reads user memory the dying thread may have scribbled on: every
 * read may fail (the walk stops), the list may be cyclic (at most
 * ROBUST_LIST_LIMIT entries), and the pending entry is handled last, once.
 */
void futex_exit_robust_list(struct task *t)
{
	uint32_t head = t->robust_list, entry, next, pending;
	unsigned limit = ROBUST_LIST_LIMIT;
	bool pi, next_pi, pending_pi;
	uint32_t offset;

	if (!head)
		return;
	if (fetch_entry(head, &entry, &pi) < 0 ||
	    get_user_u32(&offset, (const void *)(head + 4)) < 0 ||
	    fetch_entry(head + 8, &pending, &pending_pi) < 0)
		return;
	while (entry != head) {
		int r = fetch_entry(entry, &next, &next_pi);

		if (entry != pending && handle_death(entry + offset, t, false, pi) < 0)
			return;
		if (r < 0)
			return;
		entry = next;
		pi = next_pi;
		if (!--limit)
			break;
	}
	if (pending)
		handle_death(pending + offset, t, true, pending_pi);
}
