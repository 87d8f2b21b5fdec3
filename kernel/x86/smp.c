/*
 * SMP bring-up. The BSP reads the firmware tables (kernel/x86/platform.c),
 * switches off the 8259s, maps and enables its local APIC, calibrates the
 * timers, programs the IOAPIC, then starts each AP in turn with
 * INIT-SIPI-SIPI through the real-mode trampoline (boot/trampoline.S).
 * docs/smp.md tells the whole story.
 */
#include "kernel/x86/smp.h"

#include "kernel/locking/atomic.h"
#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/ipi.h"
#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time/timer.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/gdt.h"
#include "kernel/x86/ioapic.h"
#include "kernel/x86/lapic.h"
#include "kernel/x86/pic.h"
#include "kernel/x86/platform.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define CR0_NW 0x20000000       /* not write-through */
#define CR0_CD 0x40000000       /* cache disable */

#define TRAMP_PA        0x8000          /* below 1 MiB, page-aligned: SIPI vector 0x08 */
#define AP_STACK_PAGES  (KSTACK_SIZE / PAGE_SIZE)
#define AP_START_MS     1000            /* how long an AP may take to say it is online */
#define PROBE_QUIET_MS  100             /* probe: stop waiting once no CPU answered for this long */
#define PROBE_MAX_MS    1000
#define TRAMP_PROBE     0
#define TRAMP_START     1
#define MSR_APIC_BASE   0x1B

/* Lives at the end of the trampoline; boot/trampoline.S has the same layout. */
struct trampoline_params {
	uint32_t mode;
	volatile uint32_t count;        /* probe: slots taken in ids[] */
	uint32_t stack;                 /* start: initial %esp (a high address) */
	uint32_t entry;                 /* start: void entry(struct cpu *) */
	uint32_t arg;
	volatile uint8_t ids[MAX_CPUS];
} __packed;
_Static_assert(sizeof(struct trampoline_params) == 5 * 4 + MAX_CPUS,
	       "struct trampoline_params must match boot/trampoline.S (PROBE_SLOTS == MAX_CPUS)");

extern char trampoline_start[], trampoline_end[], trampoline_params[];

static uint32_t table_apic_id[MAX_CPUS];       /* what the tables said, per logical CPU */

static struct trampoline_params *tramp(void)
{
	return P2V(TRAMP_PA + (trampoline_params - trampoline_start));
}

uint32_t smp_table_apic_id(int cpu)
{
	return table_apic_id[cpu];
}

int smp_online_count(void)
{
	int n = 0;

	for (int i = 0; i < ncpus; i++)
		n += cpus[i].online;
	return n;
}

/* The AP's first C code, on its own stack, with the boot page directory and no %gs yet. */
static void __noreturn ap_main(struct cpu *c)
{
	gdt_init_cpu(c);                /* first: this_cpu() and so spinlocks need %gs */
	idt_load();
	/* An AP comes out of INIT with its caches disabled (CR0.CD and NW set): turn them on. */
	write_cr0(read_cr0() & ~(CR0_CD | CR0_NW));
	vm_init_ap();
	fpu_init_cpu();
	lapic_init();
	c->apic_id = lapic_id();
	timer_start_this_cpu();
	smp_mb();
	c->online = true;
	cpu_enter_scheduler();
}

/*
 * INIT, then two STARTUPs, with the waits the Intel SDM gives (vol. 3,
 * 8.4.4.1). A STARTUP's vector is the page number of the real-mode code
 * the AP starts in: the trampoline's, below 1 MiB.
 */
static void send_init_sipi_sipi(uint32_t apic_id, uint32_t shorthand)
{
	/* LAB2: BEGIN init-sipi-sipi */
	lapic_send_ipi(apic_id, shorthand | ICR_INIT | ICR_LEVEL_ASSERT | ICR_TRIGGER_LEVEL);
	lapic_send_ipi(apic_id, shorthand | ICR_INIT | ICR_TRIGGER_LEVEL);     /* de-assert, for old APICs */
	mdelay(10);
	for (int i = 0; i < 2; i++) {
		lapic_send_ipi(apic_id, shorthand | ICR_STARTUP | (TRAMP_PA >> 12));
		udelay(200);
	}
	/* LAB2: END */
}

/*
 * The MP table of SeaBIOS lists only the first CPU of each socket (only the
 * BSP on a one-socket machine). Find the others as the firmware itself does:
 * wake every other CPU at once in probe mode, where each writes its APIC id
 * into the next free slot and halts; then count. A CPU the table marks
 * disabled stays out, even if it answers.
 */
static void probe_cpus(void)
{
	struct trampoline_params *t = tramp();
	uint32_t seen = 0, quiet = 0;

	t->mode = TRAMP_PROBE;
	t->count = 0;
	smp_mb();
	send_init_sipi_sipi(0, ICR_ALL_BUT_SELF);
	for (uint32_t ms = 0; ms < PROBE_MAX_MS && quiet < PROBE_QUIET_MS; ms++, quiet++) {
		mdelay(1);
		if (READ_ONCE(t->count) != seen) {
			seen = READ_ONCE(t->count);
			quiet = 0;
		}
	}
	seen = READ_ONCE(t->count);
	/* They answer in any order; number them by APIC id, as a table would list them. */
	for (uint32_t id = 0; id < 256; id++)
		for (uint32_t i = 0; i < seen && i < MAX_CPUS; i++)
			if (t->ids[i] == id && !platform_cpu_disabled(&platform, (uint8_t)id))
				platform_add_cpu(&platform, (uint8_t)id, false);
	if (seen > MAX_CPUS)
		platform.nignored += seen - MAX_CPUS;
	printk("smp: probe: %u other CPU%s answered the broadcast SIPI\n", seen, seen == 1 ? "" : "s");
}

/* Give logical numbers: the BSP is CPU 0, the others follow in table order. */
static void number_cpus(void)
{
	cpus[0].apic_id = lapic_id();
	table_apic_id[0] = cpus[0].apic_id;
	ncpus = 1;
	printk("smp: CPU 0: APIC id %u (boot CPU)\n", cpus[0].apic_id);
	for (int i = 0; i < platform.ncpus; i++) {
		struct cpu *c;

		if (platform.cpu[i].apic_id == cpus[0].apic_id)
			continue;
		if (ncpus == MAX_CPUS) {
			platform.nignored++;
			continue;
		}
		c = &cpus[ncpus];
		c->id = ncpus;
		c->apic_id = platform.cpu[i].apic_id;
		table_apic_id[ncpus] = c->apic_id;
		printk("smp: CPU %d: APIC id %u\n", ncpus, c->apic_id);
		ncpus++;
	}
}

static bool start_ap(struct cpu *c)
{
	struct trampoline_params *t = tramp();
	physaddr_t stack = pmm_alloc_pages(AP_STACK_PAGES);

	if (!stack) {
		printk("smp: no memory for CPU %d's stack, skipped\n", c->id);
		return false;
	}
	t->mode = TRAMP_START;
	t->stack = (uint32_t)P2V(stack) + AP_STACK_PAGES * PAGE_SIZE;
	c->stack_lo = (uint32_t)P2V(stack);
	c->stack_hi = t->stack;
	t->entry = (uint32_t)ap_main;
	t->arg = (uint32_t)c;
	smp_mb();
	send_init_sipi_sipi(c->apic_id, 0);
	/* One AP at a time: the trampoline's stack slot is shared. */
	for (int ms = 0; ms < AP_START_MS && !READ_ONCE(c->online); ms++)
		mdelay(1);
	if (!c->online) {
		printk("smp: CPU %d (APIC id %u) did not answer within %d ms, skipped\n", c->id,
		       c->apic_id, AP_START_MS);
		/* Park it for good: it must not wake later on a trampoline we reuse. */
		lapic_send_ipi(c->apic_id, ICR_INIT | ICR_LEVEL_ASSERT | ICR_TRIGGER_LEVEL);
		pmm_free_pages(stack, AP_STACK_PAGES);  /* safe: INIT stopped it, if it ever ran */
		c->stack_lo = c->stack_hi = 0;
		return false;
	}
	return true;
}

/* The local APIC's own error interrupt: say what it saw, and carry on. */
static void lapic_error_interrupt(struct trapframe *tf)
{
	printk("lapic: error interrupt on CPU %d, status %02x\n", cpu_id(), lapic_error_status());
	lapic_eoi();
}

static void spurious_interrupt(struct trapframe *tf)
{
	/* No EOI for the spurious vector (SDM 10.9). */
}

/* Map the local APIC where the tables say; if nothing answers there, where the CPU says. */
static void map_lapic(void)
{
	physaddr_t msr_pa = (physaddr_t)rdmsr(MSR_APIC_BASE) & ~0xFFFu;

	lapic_map(platform.lapic_pa);   /* ioremap is boot-time only: map it before anything else */
	if (lapic_present())
		return;
	printk("smp: no local APIC answers at %08x (from the %s); trying %08x from IA32_APIC_BASE\n",
	       platform.lapic_pa, platform.source, msr_pa);
	lapic_map(msr_pa);
	if (!lapic_present())
		panic("smp: this CPU has no usable local APIC; smpix needs one");
}

/*
 * The test word smpfake=ID adds a CPU that does not exist, with APIC id ID:
 * the bring-up must report it and go on without it.
 */
static void add_fake_cpu(void)
{
	const char *v = cmdline_get("smpfake");
	uint32_t id = 0;

	if (!v || !*v)
		return;
	for (; *v >= '0' && *v <= '9'; v++)
		id = id * 10 + (uint32_t)(*v - '0');
	if (id > 254)
		return;
	printk("smp: smpfake=%u: pretending the tables list a CPU with APIC id %u\n", id, id);
	platform_add_cpu(&platform, (uint8_t)id, false);
}

/* The BSP's own interrupt controllers and clocks, before any AP exists. */
static void bsp_interrupt_setup(void)
{
	platform_discover();
	map_lapic();
	pic_disable();
	trap_set_handler(T_SPURIOUS, spurious_interrupt);
	trap_set_handler(T_LAPIC_ERROR, lapic_error_interrupt);
	lapic_init();
	ioapic_init();
	timer_calibrate();
	ipi_init();
}

void smp_init(void)
{
	bsp_interrupt_setup();
	BUG_ON(trampoline_end - trampoline_start > PAGE_SIZE);  /* it must fit its page below 1 MiB */
	memcpy(P2V(TRAMP_PA), trampoline_start, trampoline_end - trampoline_start);
	/* SeaBIOS's MP table names only the first CPU of each socket: probe for the rest. */
	if (strcmp(platform.source, "MP table") == 0)
		probe_cpus();
	add_fake_cpu();
	number_cpus();
	cpus[0].online = true;
	timer_start_this_cpu();
	for (int i = 1; i < ncpus; i++)
		if (start_ap(&cpus[i]))
			printk("smp: CPU %d (APIC id %u) online\n", i, cpus[i].apic_id);
	if (platform.nignored)
		printk("smp: %d CPUs beyond MAX_CPUS=%d ignored\n", platform.nignored, MAX_CPUS);
	printk("smp: %d CPUs online\n", smp_online_count());
}
