/* Self-tests of user-memory access: bad pointers of every kind give -EFAULT, never a panic. */
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/tlb.h"
#include "kernel/mm/uaccess.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

#define DATA 0x10000000         /* two writable pages, then nothing */
#define RO   0x10003000         /* one read-only page */

static struct mm *test_mm;

/* Through the context switch's own switch_mm(), so that TLB shootdowns know this CPU has it (mm/tlb.c). */
static void load_mm(struct mm *mm)
{
	uint32_t flags = irq_save();

	if (mm)
		switch_mm(mm);
	else
		leave_mm();
	irq_restore(flags);
}

/* Load a small address space on this CPU, as if a process were running. */
static bool enter_test_mm(void)
{
	test_mm = mm_create();
	if (!test_mm || mm_alloc_range(test_mm, DATA, DATA + 2 * PAGE_SIZE, PTE_W) < 0 ||
	    mm_alloc_range(test_mm, RO, RO + PAGE_SIZE, 0) < 0)
		return false;
	load_mm(test_mm);
	return true;
}

static void leave_test_mm(void)
{
	load_mm(NULL);
	mm_destroy(test_mm);
	test_mm = NULL;
}

static int copy_cases(void)
{
	char buf[64];

	if (copy_to_user((void *)DATA, "hello", 6) != 0 || copy_from_user(buf, (void *)DATA, 6) != 0 ||
	    strcmp(buf, "hello") != 0)
		return 1;
	if (copy_from_user(buf, (void *)0, 4) != -EFAULT)
		return 2;
	if (copy_from_user(buf, (void *)0xC0000000, 4) != -EFAULT)
		return 3;
	if (copy_from_user(buf, (void *)0xC0100000, 4) != -EFAULT)
		return 4;
	if (copy_from_user(buf, (void *)0x40000000, 4) != -EFAULT)
		return 5;
	if (copy_from_user(buf, (void *)0xFFFFFFF0, 0x20) != -EFAULT)
		return 6;
	if (copy_from_user(buf, (void *)(DATA + 2 * PAGE_SIZE - 8), 16) != -EFAULT)
		return 7;       /* starts mapped, ends in the hole */
	if (copy_to_user((void *)RO, "x", 1) != -EFAULT)
		return 8;       /* read-only for user mode: the kernel must not write it either */
	if (copy_to_user((void *)0xBFFFFFFC, buf, 8) != -EFAULT)
		return 9;       /* straddles USER_TOP */
	return 0;
}

KTEST(uaccess_bad_pointers_give_efault)
{
	int r;

	KT_ASSERT(enter_test_mm());
	r = copy_cases();
	leave_test_mm();
	KT_ASSERT_EQ(r, 0);
}

KTEST(uaccess_strncpy_from_user)
{
	char buf[16];
	int a, b, c, d, e;

	KT_ASSERT(enter_test_mm());
	copy_to_user((void *)DATA, "init", 5);
	a = strncpy_from_user(buf, (void *)DATA, sizeof(buf));
	/* A string that runs off the end of the mapped pages without a NUL. */
	memset(buf, 'z', sizeof(buf));
	copy_to_user((void *)(DATA + 2 * PAGE_SIZE - 4), buf, 4);
	b = strncpy_from_user(buf, (void *)(DATA + 2 * PAGE_SIZE - 4), sizeof(buf));
	copy_to_user((void *)DATA, "0123456789abcdefghij", 21);
	c = strncpy_from_user(buf, (void *)DATA, sizeof(buf));
	d = strncpy_from_user(buf, (void *)0xC0000000, sizeof(buf));
	e = strncpy_from_user(buf, (void *)0xBFFFFFFE, sizeof(buf));
	leave_test_mm();
	KT_ASSERT_EQ(a, 4);
	KT_ASSERT_EQ(b, -EFAULT);
	KT_ASSERT_EQ(c, -ENAMETOOLONG);
	KT_ASSERT_EQ(d, -EFAULT);
	KT_ASSERT_EQ(e, -EFAULT);
}

static spinlock_t uaccess_test_lock = SPINLOCK_INIT("uaccess_test");

/* The fixup path takes no lock and needs none released: a spinlock may be held across it. */
KTEST(uaccess_fault_with_spinlock_held)
{
	uint32_t v = 0;
	int r1, r2;

	KT_ASSERT(enter_test_mm());
	spin_lock(&uaccess_test_lock);
	r1 = copy_from_user(&v, (void *)0x40000000, sizeof(v));
	r2 = get_user_u32(&v, (void *)(DATA + 2 * PAGE_SIZE));
	spin_unlock(&uaccess_test_lock);
	leave_test_mm();
	KT_ASSERT_EQ(r1, -EFAULT);
	KT_ASSERT_EQ(r2, -EFAULT);
}

/*
 * Another CPU unmapping a page between the range check and the copy looks,
 * to the copy, exactly like this: the pointer passed every check, then the
 * page is gone (TLB entry flushed) when the instruction touches it.
 */
KTEST(uaccess_page_unmapped_after_check)
{
	uint32_t v = 0;
	int before, after;

	KT_ASSERT(enter_test_mm());
	put_user_u32((void *)(DATA + PAGE_SIZE), 77);
	before = get_user_u32(&v, (void *)(DATA + PAGE_SIZE));
	mm_unmap_range(test_mm, DATA + PAGE_SIZE, DATA + 2 * PAGE_SIZE);
	after = get_user_u32(&v, (void *)(DATA + PAGE_SIZE));
	leave_test_mm();
	KT_ASSERT_EQ(before, 0);
	KT_ASSERT_EQ(after, -EFAULT);
	KT_ASSERT_EQ(v, 77);
}

/* copy_to_user onto a page shared copy-on-write: the kernel's write fault copies the page, then retries. */
KTEST(uaccess_copy_to_user_breaks_cow)
{
	struct mm *child, *saved_mm = current->mm;
	uint32_t v = 5, parent_v = 0, child_v = 0;
	int r;

	KT_ASSERT(enter_test_mm());
	put_user_u32((void *)DATA, 5);
	child = mm_fork(test_mm);
	KT_ASSERT(child != NULL);
	/* Run "as" the child: its page directory, its mm for the fault handler. */
	load_mm(child);
	current->mm = child;
	v = 6;
	r = put_user_u32((void *)DATA, v);
	get_user_u32(&child_v, (void *)DATA);
	current->mm = saved_mm;
	load_mm(test_mm);
	get_user_u32(&parent_v, (void *)DATA);
	mm_destroy(child);
	leave_test_mm();
	KT_ASSERT_EQ(r, 0);
	KT_ASSERT_EQ(child_v, 6);
	KT_ASSERT_EQ(parent_v, 5);
}
