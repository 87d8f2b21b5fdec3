/*
 * Thread-local storage: glibc keeps its thread pointer in %gs, whose segment
 * base the program sets with set_thread_area(). Each task owns TLS_ENTRIES
 * descriptors; schedule() copies them into the GDT of the CPU the task runs
 * on (every CPU has its own GDT), and trap_return reloads %gs and %fs from the
 * task's trapframe, so the segment registers see the new descriptors.
 *
 * The descriptor encoding and the checks follow Linux's arch/x86/kernel/tls.c
 * and asm/desc.h, so a glibc built for Linux finds what it expects.
 */
#include "kernel/x86/tls.h"

#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/gdt.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

/* struct user_desc (asm/ldt.h): 4 words, the last one packed bit fields. */
struct user_desc {
	uint32_t entry_number;
	uint32_t base_addr;
	uint32_t limit;
	uint32_t flags;
};

#define UD_SEG_32BIT       (1u << 0)
#define UD_CONTENTS(f)     (((f) >> 1) & 3)
#define UD_READ_EXEC_ONLY  (1u << 3)
#define UD_LIMIT_IN_PAGES  (1u << 4)
#define UD_SEG_NOT_PRESENT (1u << 5)
#define UD_USEABLE         (1u << 6)

void tls_load(struct cpu *c, const struct task *t)
{
	for (int i = 0; i < TLS_ENTRIES; i++)
		c->gdt[SEG_TLS_MIN + i] = t->tls[i];
	/*
	 * The kernel never uses %fs, so it still holds whatever selector the
	 * task before left in it: maybe a slot t does not have. An interrupt
	 * taken in kernel mode from here on saves %fs in its frame and loads it
	 * back on the way out, which would fault on such a slot (a kernel
	 * thread that took over from a TLS user, then returned from an
	 * interrupt). The null selector is always safe; a return to user mode
	 * loads the user's own %fs from its frame.
	 */
	__asm__ volatile("movw %w0, %%fs" : : "r"(0));
}

void tls_fork(struct task *child, const struct task *parent)
{
	memcpy(child->tls, parent->tls, sizeof(child->tls));
}

void tls_exec_reset(struct task *t)
{
	memset(t->tls, 0, sizeof(t->tls));
	if (t == current) {
		uint32_t flags = irq_save();

		tls_load(this_cpu(), t);
		irq_restore(flags);
	}
}

/* Linux's LDT_empty() and LDT_zero(): both mean "clear this slot". */
static bool desc_is_clear(const struct user_desc *u)
{
	uint32_t empty = UD_READ_EXEC_ONLY | UD_SEG_NOT_PRESENT;

	if (u->base_addr == 0 && u->limit == 0 && u->flags == 0)
		return true;
	return u->base_addr == 0 && u->limit == 0 && (u->flags & 0x7F) == empty;
}

/* Linux's tls_desc_okay(): 32-bit data segments that are present, nothing else. */
static bool desc_is_ok(const struct user_desc *u)
{
	if (desc_is_clear(u))
		return true;
	if (!(u->flags & UD_SEG_32BIT))
		return false;
	if (UD_CONTENTS(u->flags) > 1)
		return false;           /* code segments have no place in the TLS slots */
	return !(u->flags & UD_SEG_NOT_PRESENT);
}

/* The GDT descriptor for u: Linux's fill_ldt(), always DPL 3, "S" (code/data) set. */
static uint64_t desc_encode(const struct user_desc *u)
{
	uint32_t f = u->flags, a, b;

	if (desc_is_clear(u))
		return 0;
	a = ((u->base_addr & 0xFFFF) << 16) | (u->limit & 0xFFFF);
	b = (u->base_addr & 0xFF000000) | ((u->base_addr & 0x00FF0000) >> 16) |
	    (u->limit & 0xF0000) | (((f & UD_READ_EXEC_ONLY) ? 0 : 1u) << 9) |
	    (UD_CONTENTS(f) << 10) | (((f & UD_SEG_NOT_PRESENT) ? 0 : 1u) << 15) |
	    ((f & UD_SEG_32BIT) ? 1u << 22 : 0) | ((f & UD_LIMIT_IN_PAGES) ? 1u << 23 : 0) |
	    ((f & UD_USEABLE) ? 1u << 20 : 0) | 0x7000;
	return ((uint64_t)b << 32) | a;
}

/* The user_desc that describes descriptor d in slot idx (get_thread_area). */
static void desc_decode(uint64_t d, int idx, struct user_desc *u)
{
	uint32_t a = (uint32_t)d, b = (uint32_t)(d >> 32);

	memset(u, 0, sizeof(*u));
	u->entry_number = SEG_TLS_MIN + idx;
	if (!d) {
		u->flags = UD_READ_EXEC_ONLY | UD_SEG_NOT_PRESENT;
		return;
	}
	u->base_addr = (a >> 16) | ((b & 0xFF) << 16) | (b & 0xFF000000);
	u->limit = (a & 0xFFFF) | (b & 0xF0000);
	u->flags = ((b >> 22) & 1) | (((b >> 10) & 3) << 1) | ((((b >> 9) & 1) ^ 1) << 3) |
		   (((b >> 23) & 1) << 4) | ((((b >> 15) & 1) ^ 1) << 5) | (((b >> 20) & 1) << 6);
}

/* A selector naming slot idx, as user mode loads it: GDT, RPL 3. */
static uint32_t tls_selector(int idx)
{
	return ((SEG_TLS_MIN + idx) << 3) | 3;
}

bool tls_selector_ok(const struct task *t, uint32_t sel)
{
	sel &= 0xFFFF;
	if (sel == 0 || sel == USER_DS)
		return true;
	for (int i = 0; i < TLS_ENTRIES; i++)
		if (sel == tls_selector(i))
			return t->tls[i] != 0;
	return false;
}

/*
 * A slot that user mode still has loaded in a segment register is being
 * cleared: give it the null selector instead, or trap_return would fault
 * loading it, in the kernel. %fs and %gs hold TLS slots by design; %ds and
 * %es only if a program put one there, and then its next data access faults
 * and it dies of SIGSEGV, as on Linux (whose exit path does the same).
 */
static void drop_stale_selectors(struct task *t)
{
	struct trapframe *tf = task_trapframe(t);
	uint32_t *segs[] = { &tf->fs, &tf->gs, &tf->ds, &tf->es };

	for (unsigned i = 0; i < sizeof(segs) / sizeof(segs[0]); i++)
		if (!tls_selector_ok(t, *segs[i]))
			*segs[i] = 0;
}

/* The slot u names (or, if any_ok and it says -1, the first free one of t's): its index, or -errno. */
static int pick_slot(const struct task *t, const struct user_desc *u, bool any_ok)
{
	int idx;

	if (u->entry_number == 0xFFFFFFFF && any_ok) {
		for (idx = 0; idx < TLS_ENTRIES && t->tls[idx]; idx++)
			;
		return idx == TLS_ENTRIES ? -ESRCH : idx;
	}
	if (u->entry_number >= SEG_TLS_MIN && u->entry_number < SEG_TLS_MIN + TLS_ENTRIES)
		return u->entry_number - SEG_TLS_MIN;
	return -EINVAL;
}

int tls_desc_from_user(void *uinfo, int *idx, uint64_t *desc)
{
	struct user_desc u;

	if (copy_from_user(&u, uinfo, sizeof(u)) < 0)
		return -EFAULT;
	if (!desc_is_ok(&u))
		return -EINVAL;
	*idx = pick_slot(current, &u, false);
	*desc = desc_encode(&u);
	return *idx < 0 ? *idx : 0;
}

long sys_set_thread_area(void *uinfo)
{
	struct task *t = current;
	struct user_desc u;
	uint32_t flags;
	int idx;

	if (copy_from_user(&u, uinfo, sizeof(u)) < 0)
		return -EFAULT;
	if (!desc_is_ok(&u))
		return -EINVAL;
	idx = pick_slot(t, &u, true);
	if (idx < 0)
		return idx;
	/* "Any free slot" (-1): tell the caller which one it got. */
	if (u.entry_number == 0xFFFFFFFF && put_user_u32(uinfo, SEG_TLS_MIN + idx) < 0)
		return -EFAULT;
	t->tls[idx] = desc_encode(&u);
	/* Interrupts off: no switch (to another CPU's GDT) between the store and the load. */
	flags = irq_save();
	tls_load(this_cpu(), t);
	irq_restore(flags);
	drop_stale_selectors(t);
	return 0;
}

long sys_get_thread_area(void *uinfo)
{
	struct user_desc u;
	uint32_t entry;

	if (get_user_u32(&entry, uinfo) < 0)
		return -EFAULT;
	if (entry < SEG_TLS_MIN || entry >= SEG_TLS_MIN + TLS_ENTRIES)
		return -EINVAL;
	desc_decode(current->tls[entry - SEG_TLS_MIN], entry - SEG_TLS_MIN, &u);
	return copy_to_user(uinfo, &u, sizeof(u));
}
