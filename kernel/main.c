/* kmain: the boot CPU's path from the Multiboot entry to a running system. */
#include "drivers/drivers.h"
#include "drivers/char/rtc.h"
#include "drivers/tty/serial.h"
#include "fs/buffer.h"
#include "fs/vfs.h"
#include "kernel/cmdline.h"
#include "kernel/locking/bkl.h"
#include "kernel/locking/bkld.h"
#include "kernel/locking/lock_stat.h"
#include "kernel/locking/lockdep.h"
#include "kernel/cpu.h"
#include "kernel/era.h"
#include "kernel/futex/futex.h"
#include "kernel/ktest.h"
#include "kernel/mm/meminit.h"
#include "kernel/multiboot.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/process/proc.h"
#include "kernel/sched/sched.h"
#include "kernel/trace/trace.h"
#include "kernel/version.h"
#include "kernel/x86/acpi.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/gdt.h"
#include "kernel/x86/power.h"
#include "kernel/x86/smp.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

struct cpu cpus[MAX_CPUS];
int ncpus = 1;

static void print_banner(void)
{
	printk("smpix " SMPIX_VERSION ": a teaching SMP kernel for i386 (built " __DATE__ " " __TIME__ ")\n");
}

/* The first process: the program init= names, /sbin/init (which starts the shell) by default. */
static void start_init(void)
{
	const char *path = cmdline_get("init");
	int r;

	if (!path || !path[0])
		path = "/sbin/init";
	r = proc_start_init(path);
	if (r < 0)
		printk("init: cannot start %s: error %d\n", path, r);
}

/*
 * The first kernel thread: what to do once the kernel is up. Mount the
 * file systems and start the drivers, then run the self-tests (test=...)
 * and power off, or start init.
 *
 * The initialisation runs under the BKL, as Linux 2.6.6's did until it
 * started the first user process ("The Big Kernel Lock lives on", 2004):
 * nothing in it needs the lock here, but it is one of the sites the survey
 * (tools/build/bklsurvey) lists, and /proc/bkl shows what it cost.
 */
static int boot_thread(void *unused)
{
	const char *tests = cmdline_get("test");

#ifdef CONFIG_BKL
	lock_kernel();
#endif
	vfs_init();             /* the root file system from the initrd, /dev, /proc */
	drivers_init();         /* /dev/console and the other devices (drivers/drivers.c) */
#ifdef CONFIG_BKL
	unlock_kernel();        /* make ERA=2.6.39: gone, as Linux's init lost it in 2.6.37 */
#endif
	bkld_start_if_asked();  /* bkld=1: a thread that lives in the BKL (kernel/locking/bkld.c) */
	if (tests) {
		ktest_run(tests[0] ? tests : "all");
		power_off();
	}
	/*
	 * /dev/console echoes what is typed (drivers/tty/console.c), whether or not anyone reads it.
	 * Said before init starts: printk does not wait for a user's line to end, and said after,
	 * it could land in the middle of init's first line.
	 */
	printk("smpix: boot done; the system is idle and echoes what you type (Ctrl-A X quits QEMU)\n");
	start_init();
	return 0;
}

void kmain(uint32_t magic, physaddr_t mbi_phys);
extern char boot_stack_bottom[], boot_stack_top[];     /* boot/multiboot.S */

void kmain(uint32_t magic, physaddr_t mbi_phys)
{
	/* Segments first: printk's lock needs this_cpu(), which needs %gs. */
	cpus[0].id = 0;
	cpus[0].stack_lo = (uint32_t)boot_stack_bottom;
	cpus[0].stack_hi = (uint32_t)boot_stack_top;
	gdt_init_cpu(&cpus[0]);
	console_init();
	print_banner();
	idt_init();
	idt_load();

	multiboot_parse(magic, mbi_phys);
	printk("cmdline: '%s'%s\n", boot_info.cmdline, kernel_cmdline.truncated ? " (truncated)" : "");
	multiboot_print_memory_map();
	mem_init();
	fpu_init_cpu();
	acpi_init();
	bkl_timing_init();      /* bkl_timing=0: no hold times in /proc/bkl (kernel/locking/bkl.c) */
	lock_stat_init();       /* lock_stat=1: /proc/lock_stat counts from here (kernel/locking/lock_stat.c) */
	lockdep_init();         /* lockdep=1: the lock-order checker, on from here (kernel/locking/lockdep.c) */
	era_init();             /* era=2.6.8 and the like: the knobs as a Linux version had them */
	sched_init();           /* before the APs start: each enters the scheduler */
	futex_init();           /* the futex hash table's buckets (kernel/futex/futex.c) */
	buffer_wait_init();     /* the queues of tasks waiting for a buffer's I/O (fs/buffer.c) */
	proc_init();            /* the syscall gate and the fault hooks, before any process */
	smp_init();             /* APICs, timers, IOAPIC routing, the other CPUs */
	trace_init();           /* trace=1: the event rings, on from here (kernel/trace/trace.c) */
	serial_enable_irq();    /* input by interrupt, now that lines can be routed */
	rtc_init();             /* the wall clock, now that clock_ns() runs */
	sti();                  /* the BSP takes interrupts from here on */

	if (!kthread_create(boot_thread, NULL, "boot"))
		panic("cannot create the boot thread");
	/* The boot CPU's own context becomes its idle task. */
	cpu_enter_scheduler();
}
