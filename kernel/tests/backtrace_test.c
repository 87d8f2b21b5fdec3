/*
 * Self-tests of the backtrace walker (kernel/panic.c): it reads only the
 * kernel stack it started on and stops where a report must stop, whatever
 * the frame chain holds. Each test plants frames in a local array (on this
 * thread's kernel stack) and counts the lines dump_backtrace() prints.
 */
#include "kernel/ktest.h"
#include "kernel/mm/kheap.h"
#include "kernel/panic.h"
#include "kernel/sched/task.h"
#include "kernel/x86/gdt.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

extern const uint32_t trap_dispatch_return;     /* kernel/x86/trapentry.S */

/* A return address that symbolizes (dump_backtrace+0x0 once the walker takes 1 off). */
static uint32_t some_return(void)
{
	return (uint32_t)dump_backtrace + 1;
}

/* Frame i of a planted chain: saved %ebp = next, return address = ret. */
static void plant(uint32_t *frames, int i, uint32_t next, uint32_t ret)
{
	frames[2 * i] = next;
	frames[2 * i + 1] = ret;
}

KTEST(backtrace_of_this_stack_ends_cleanly)
{
	int n = dump_backtrace(read_ebp());

	KT_ASSERT(n >= 2);              /* this test and ktest_run() at least */
	KT_ASSERT(n < 32);              /* and it ended by itself, not at the walker's limit */
}

KTEST(backtrace_stops_at_frame_pointers_off_the_kernel_stack)
{
	uint32_t f[8];
	uint32_t *heap_frame = kmalloc(2 * sizeof(uint32_t));
	uint32_t top = (uint32_t)current->kstack + KSTACK_SIZE;
	const uint32_t bad[] = {
		0xfffff000,                     /* a user's junk %ebp: not mapped at all */
		0x0804a000,                     /* user space */
		(uint32_t)heap_frame,           /* mapped kernel memory, but no stack */
		(uint32_t)&f[4] + 2,            /* on the stack, misaligned */
		top - 4,                        /* a frame whose return address would lie past the top */
		(uint32_t)&f[0],                /* a loop back to the first frame */
	};

	KT_ASSERT(heap_frame != NULL);
	plant(heap_frame, 0, 0, some_return());
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		plant(f, 0, (uint32_t)&f[2], some_return());
		plant(f, 1, bad[i], some_return());
		plant(f, 2, 0, some_return());
		KT_ASSERT_EQ(dump_backtrace((uint32_t)&f[0]), 2);       /* the two good frames only */
	}
	kfree(heap_frame);
	/* Not even the first frame when it is off the stack. */
	KT_ASSERT_EQ(dump_backtrace(0xfffff000), 0);
	KT_ASSERT_EQ(dump_backtrace((uint32_t)f + 1), 0);
}

/*
 * trap_dispatch()'s frame, over a trap frame whose saved registers say where
 * the trap came from; above it, one more good frame. The walk must stop at a
 * trap from user mode and go on through one from kernel mode.
 */
static int walk_through_trap_frame(uint16_t cs)
{
	uint32_t f[6];
	struct trapframe tf = { 0 };

	tf.cs = cs;
	tf.eip = 0x08048000;
	tf.ebp = (uint32_t)&f[3];
	f[0] = (uint32_t)&f[3];         /* trap_dispatch()'s saved %ebp: the interrupted code's */
	f[1] = trap_dispatch_return;
	f[2] = (uint32_t)&tf;           /* its argument */
	f[3] = 0;
	f[4] = some_return();
	return dump_backtrace((uint32_t)&f[0]);
}

KTEST(backtrace_stops_at_a_trap_frame_from_user_mode)
{
	KT_ASSERT_EQ(walk_through_trap_frame(USER_CS), 1);
	KT_ASSERT_EQ(walk_through_trap_frame(KERNEL_CS), 2);
}
