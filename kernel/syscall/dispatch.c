/*
 * The system call dispatcher. int $0x80 from user mode arrives here with the
 * number in eax and up to six arguments in ebx, ecx, edx, esi, edi, ebp (the
 * Linux i386 convention); the result goes back in eax, -errno on failure.
 */
#include "kernel/syscall/dispatch.h"

#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/cmdline.h"
#include "kernel/era.h"
#include "kernel/lib/string.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/syscall/names.h"
#include "kernel/sched/task.h"
#include "kernel/trace/trace.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/vdso.h"

typedef long (*syscall_call6_t)(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t);

/* Written once by syscall_init() before any process exists, read-only after. */
static const struct syscall_desc *by_nr[NR_SYSCALLS] __read_mostly;
static bool bkl_every_syscall __read_mostly;
/* The flags that make the dispatcher take the BKL: SYS_BKL, and SYS_BKL_2_2 in era=2.2. */
static uint8_t bkl_flags __read_mostly = SYS_BKL;
/*
 * Calls counted per CPU, each CPU in rows of its own cache lines, summed
 * when read: a single shared counter per number was one cache line that
 * every ioctl() on every CPU wrote, the very sharing an unlocked ioctl is
 * meant to escape. calls[NR_SYSCALLS] counts unknown numbers.
 */
struct syscall_row {
	uint32_t calls[NR_SYSCALLS + 1];
	uint32_t by_sysenter;           /* of them, entered by sysenter rather than int $0x80 */
} __cacheline_aligned;
static struct syscall_row rows[MAX_CPUS];
/* Bit n set: "syscall n is not implemented" has been logged (once per number per boot). */
static uint32_t enosys_logged[NR_SYSCALLS / 32 + 1];

void syscall_init(void)
{
	const char *bkl = cmdline_get("bkl");

	for (unsigned i = 0; i < syscall_table_len; i++) {
		const struct syscall_desc *d = &syscall_table[i];

		if (d->nr >= NR_SYSCALLS || by_nr[d->nr])
			panic("syscall table: bad or duplicate number %u (%s)", d->nr, d->name);
		by_nr[d->nr] = d;
	}
#ifdef CONFIG_BKL
	/* bkl=syscalls, or era=2.0 (kernel/era.c): Linux 2.0's one CPU in the kernel at a time. */
	bkl_every_syscall = (bkl && strcmp(bkl, "syscalls") == 0) || era_now() == ERA_2_0;
	if (era_now() == ERA_2_2)
		bkl_flags |= SYS_BKL_2_2;
#else
	if (bkl)
		printk("syscall: bkl=%s ignored: this kernel has no BKL (make ERA=2.6.39)\n", bkl);
#endif
}

bool syscall_all_under_bkl(void)
{
	return bkl_every_syscall;
}

bool syscall_takes_bkl(const struct syscall_desc *d)
{
	return d->flags & bkl_flags;
}

/*
 * A program that stops working on smpix most often called something smpix
 * lacks: say which, by Linux's name, the first time each number is seen.
 * Calls flagged SYS_FALLBACK (newer calls libc retries with an older one) are
 * not worth a line. Numbers at or above NR_SYSCALLS share the last bit.
 */
static void log_enosys(uint32_t nr, const struct syscall_desc *d)
{
	unsigned bit = nr < NR_SYSCALLS ? nr : NR_SYSCALLS;
	uint32_t mask = 1u << (bit % 32);
	struct task *t = current;

	if (d && (d->flags & SYS_FALLBACK))
		return;
	if (__atomic_fetch_or(&enosys_logged[bit / 32], mask, __ATOMIC_RELAXED) & mask)
		return;
	printk("pid %d (%s): syscall %u (%s) is not implemented: -ENOSYS\n",
	       t ? t->pid : 0, t ? t->name : "?", nr, syscall_name(nr));
}

/* Preemption off, so the count lands in the row of the CPU we are on (Linux's this_cpu_inc). */
static inline __attribute__((always_inline)) void count_call(unsigned slot, const struct trapframe *tf)
{
	struct syscall_row *row;

	preempt_disable();
	row = &rows[cpu_id()];
	row->calls[slot]++;
	row->by_sysenter += tf->err == SYSENTER_FRAME;
	preempt_enable();
}

static unsigned sum_rows(unsigned slot)
{
	unsigned n = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		n += READ_ONCE(rows[c].calls[slot]);
	return n;
}

void syscall_dispatch(struct trapframe *tf)
{
	uint32_t nr = tf->eax;
	const struct syscall_desc *d = nr < NR_SYSCALLS ? by_nr[nr] : NULL;
	bool bkl;
	long r;

	if (!d) {
		count_call(NR_SYSCALLS, tf);
		log_enosys(nr, NULL);
		tf->eax = (uint32_t)-ENOSYS;
		return;
	}
	count_call(nr, tf);
	if (!d->fn) {
		log_enosys(nr, d);
		tf->eax = (uint32_t)-ENOSYS;
		return;
	}
	/* Always false without the BKL (make ERA=2.6.39): the flags are 0 and bkl= is ignored. */
	bkl = (d->flags & bkl_flags) || bkl_every_syscall;
	trace_syscall_enter(nr, bkl);
#ifdef CONFIG_BKL                /* 2.6.39: no lock here; reboot() takes one of its own (kernel/sys_reboot.c) */
	if (bkl)
		lock_kernel();
#endif
	/* Remembered for a restart after a signal (kernel/signal/deliver.c); sigreturn clears it. */
	current->syscall_nr = (int)nr;
	/* Every handler gets six words; a handler with fewer parameters ignores the rest (cdecl). */
	r = ((syscall_call6_t)d->fn)(tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp);
#ifdef CONFIG_BKL
	if (bkl)
		unlock_kernel();
#endif
	trace_syscall_exit(nr, r);
	tf->eax = (uint32_t)r;
}

unsigned syscall_count(unsigned nr)
{
	return nr < NR_SYSCALLS ? sum_rows(nr) : 0;
}

unsigned syscall_sysenter_count(void)
{
	unsigned n = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		n += READ_ONCE(rows[c].by_sysenter);
	return n;
}

unsigned syscall_unknown_count(void)
{
	return sum_rows(NR_SYSCALLS);
}
