/* Reading and writing user memory from the kernel: every user pointer goes through here. */
#ifndef KERNEL_MM_UACCESS_H
#define KERNEL_MM_UACCESS_H

#include "kernel/types.h"

struct trapframe;

/*
 * All return 0 (or a length) on success and -EFAULT when any byte of the
 * range is a kernel address, wraps past 4 GiB, or is not mapped (also if
 * another CPU unmaps it during the copy: the fault is caught and fixed up).
 * They touch the address space loaded on this CPU: the current process's.
 */
int copy_from_user(void *dst, const void *usrc, size_t n);
int copy_to_user(void *udst, const void *src, size_t n);
/* Copy a string of at most max-1 chars plus NUL; its length, -EFAULT, or -ENAMETOOLONG. */
int strncpy_from_user(char *dst, const char *usrc, size_t max);
int get_user_u32(uint32_t *val, const void *uaddr);
int put_user_u32(void *uaddr, uint32_t val);
/*
 * Atomically: if the aligned user word *uaddr is old, make it new. *cur gets
 * the value found (old on success). 0, or -EFAULT (also for a read-only page).
 */
int cmpxchg_user_u32(uint32_t *uaddr, uint32_t old, uint32_t new, uint32_t *cur);
/* Is [uaddr, uaddr+n) entirely user space (ending at or below USER_TOP, not wrapping)? */
bool access_ok(const void *uaddr, size_t n);

/* From trap dispatch: a kernel fault at a user-access instruction resumes at its fixup (true). */
bool uaccess_fault_fixup(struct trapframe *tf);

#endif
