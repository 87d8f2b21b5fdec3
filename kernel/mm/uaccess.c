/*
 * User memory access. A pointer from user space is checked for range first
 * (below USER_TOP, no wrap), then used directly: the current process's pages
 * are mapped. Whether they are present is not checked beforehand, because
 * another CPU could unmap them a moment later anyway; instead the copy
 * instructions (kernel/mm/uaccess_copy.S) are listed in a fixup table, and a
 * page fault at one of them resumes at its fixup, which returns -EFAULT.
 * This is Linux's __ex_table in miniature.
 */
#include "kernel/mm/uaccess.h"

#include "kernel/cpu.h"
#include "kernel/mm/fault.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/mm.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

size_t uaccess_copy(void *dst, const void *src, size_t n);
int uaccess_strncpy(char *dst, const char *src, size_t n);
extern char uaccess_copy_insn[], uaccess_copy_fixup[];
extern char uaccess_str_insn[], uaccess_str_fixup[];
int uaccess_cmpxchg(uint32_t *uaddr, uint32_t old, uint32_t new, uint32_t *cur);
extern char uaccess_cmpxchg_insn[], uaccess_cmpxchg_fixup[];

struct fixup {
	uintptr_t insn;         /* an instruction that may fault on a user address */
	uintptr_t fixup;        /* where to continue if it does */
};

static const struct fixup fixup_table[] = {
	{ (uintptr_t)uaccess_copy_insn, (uintptr_t)uaccess_copy_fixup },
	{ (uintptr_t)uaccess_str_insn, (uintptr_t)uaccess_str_fixup },
	{ (uintptr_t)uaccess_cmpxchg_insn, (uintptr_t)uaccess_cmpxchg_fixup },
};

/* Could the code that faulted have slept? Interrupts on, no spinlock held, not in an interrupt. */
static bool fault_may_sleep(const struct trapframe *tf)
{
	const struct cpu *c = this_cpu();

	return (tf->eflags & EFLAGS_IF) && c->preempt_count == 0 && c->irq_nesting == 0;
}

bool uaccess_fault_fixup(struct trapframe *tf)
{
	uint32_t addr = read_cr2();

	if (tf->trapno != T_PGFLT)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(fixup_table); i++) {
		if (tf->eip != fixup_table[i].insn)
			continue;
		/*
		 * A valid user page that needs work first (shared since fork, a heap
		 * page not yet touched): resolve it and retry the instruction. It may
		 * sleep for memory only if the interrupted code could have slept.
		 */
		if (addr < USER_TOP && fault_user_address(addr, tf->err & PGFLT_WRITE, false,
							  fault_may_sleep(tf)))
			return true;
		tf->eip = fixup_table[i].fixup;
		return true;
	}
	return false;
}

bool access_ok(const void *uaddr, size_t n)
{
	uintptr_t a = (uintptr_t)uaddr;

	/* kernel_read() (fs/read_write.c) reads into a kernel buffer: Linux 2.6's set_fs(KERNEL_DS). */
	if (current && current->uaccess_kernel)
		return true;
	/* The range must end at or below USER_TOP, as i386 Linux's access_ok() says: an empty one
	 * too, so write(fd, p, 0) is 0 for p <= USER_TOP and -EFAULT above it. Written so that
	 * a + n cannot overflow: 0xFFFFFFF0 + 0x20 is refused, not wrapped. */
	return n <= USER_TOP && a <= USER_TOP - n;
}

int copy_from_user(void *dst, const void *usrc, size_t n)
{
	if (!access_ok(usrc, n))
		return -EFAULT;
	return uaccess_copy(dst, usrc, n) ? -EFAULT : 0;
}

int copy_to_user(void *udst, const void *src, size_t n)
{
	if (!access_ok(udst, n))
		return -EFAULT;
	return uaccess_copy(udst, src, n) ? -EFAULT : 0;
}

int strncpy_from_user(char *dst, const char *usrc, size_t max)
{
	uintptr_t a = (uintptr_t)usrc;
	size_t n = max;
	int r;

	if (max == 0 || a >= USER_TOP)
		return -EFAULT;
	/* Stop at the top of user space: a string running into the kernel is a bad address. */
	if (n > USER_TOP - a)
		n = USER_TOP - a;
	r = uaccess_strncpy(dst, usrc, n);
	if (r == -1) {
		dst[n - 1] = '\0';
		return n < max ? -EFAULT : -ENAMETOOLONG;
	}
	return r;
}

int get_user_u32(uint32_t *val, const void *uaddr)
{
	return copy_from_user(val, uaddr, sizeof(*val));
}

int put_user_u32(void *uaddr, uint32_t val)
{
	return copy_to_user(uaddr, &val, sizeof(val));
}

int cmpxchg_user_u32(uint32_t *uaddr, uint32_t old, uint32_t new, uint32_t *cur)
{
	if ((uintptr_t)uaddr % sizeof(uint32_t) || !access_ok(uaddr, sizeof(uint32_t)))
		return -EFAULT;
	return uaccess_cmpxchg(uaddr, old, new, cur);
}
