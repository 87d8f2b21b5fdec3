/*
 * Where the time went, for top, vmstat, mpstat and uptime: /proc/stat,
 * /proc/loadavg and /proc/vmstat, in Linux's formats (man 5 proc). The numbers come from
 * kernel/time/cputime.c (the ticks per CPU) and kernel/sched/loadavg.c.
 */
#include "fs/proc/proc_files.h"

#include "kernel/cpu.h"
#include "fs/buffer.h"
#include "fs/proc/procbuf.h"
#include "kernel/irq.h"
#include "kernel/lib/format.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmstat.h"
#include "kernel/sched/loadavg.h"
#include "kernel/sched/task.h"
#include "kernel/time/cputime.h"
#include "kernel/time/timer.h"

/* ---- /proc/stat ------------------------------------------------------------------------ */

static void add_usage(struct cpu_usage *to, const struct cpu_usage *u)
{
	to->user += u->user;
	to->nice += u->nice;
	to->system += u->system;
	to->idle += u->idle;
	to->iowait += u->iowait;
	to->irq += u->irq;
	to->softirq += u->softirq;
	to->steal += u->steal;
	to->spin += u->spin;
	to->bkl += u->bkl;
}

/*
 * Linux's ten columns (guest and guest_nice are 0: smpix runs no guests),
 * then smpix's two: spin and bkl, parts of system. A reader of the first
 * ten, as top and vmstat are, sees Linux's line.
 */
static void cpu_line(struct procbuf *pb, const char *name, const struct cpu_usage *u)
{
	procbuf_printf(pb, "%s %llu %llu %llu %llu %llu %llu %llu %llu 0 0 %llu %llu\n", name, u->user, u->nice,
		       u->system, u->idle, u->iowait, u->irq, u->softirq, u->steal, u->spin, u->bkl);
}

static void show_cpu_lines(struct procbuf *pb)
{
	struct cpu_usage all = { 0 }, one[MAX_CPUS];
	char name[8];

	/* One copy per CPU first, so the total is the sum of the lines below it. */
	for (int i = 0; i < ncpus; i++) {
		one[i] = cpus[i].usage;
		if (cpus[i].online)
			add_usage(&all, &one[i]);
	}
	cpu_line(pb, "cpu ", &all);
	for (int i = 0; i < ncpus; i++) {
		if (!cpus[i].online)
			continue;
		snprintf(name, sizeof(name), "cpu%d", i);
		cpu_line(pb, name, &one[i]);
	}
}

/* "intr": all interrupts, then one count per ISA line; the local timer and IPIs are in the total only, as in Linux. */
static void show_intr(struct procbuf *pb)
{
	uint64_t per_irq[NR_IRQS] = { 0 }, total = 0;

	for (int c = 0; c < ncpus; c++) {
		if (!cpus[c].online)
			continue;
		total += cpus[c].ticks + cpus[c].resched_ipis + cpus[c].tlb_ipis;
		for (int irq = 0; irq < NR_IRQS; irq++)
			per_irq[irq] += irq_count(irq, c);
	}
	for (int irq = 0; irq < NR_IRQS; irq++)
		total += per_irq[irq];
	procbuf_printf(pb, "intr %llu", total);
	for (int irq = 0; irq < NR_IRQS; irq++)
		procbuf_printf(pb, " %llu", per_irq[irq]);
	procbuf_printf(pb, "\n");
}

void proc_show_stat(struct procbuf *pb, void *arg)
{
	uint64_t switches = 0;
	int64_t boot_ns = clock_realtime_ns() - (int64_t)clock_ns();

	(void)arg;
	show_cpu_lines(pb);
	show_intr(pb);
	for (int c = 0; c < ncpus; c++)
		switches += cpus[c].nr_switches;
	procbuf_printf(pb, "ctxt %llu\n", switches);
	procbuf_printf(pb, "btime %llu\n", (uint64_t)(boot_ns < 0 ? 0 : boot_ns) / 1000000000ULL);
	procbuf_printf(pb, "processes %llu\n", task_count_created());
	procbuf_printf(pb, "procs_running %d\n", sched_nr_running());
	procbuf_printf(pb, "procs_blocked %d\n", cputime_nr_iowait());
	/* smpix has no softirqs: Linux's line, all zero, for the tools that expect it. */
	procbuf_printf(pb, "softirq 0 0 0 0 0 0 0 0 0 0 0\n");
}

/* ---- /proc/loadavg ----------------------------------------------------------------------- */

/* Linux's LOAD_INT and LOAD_FRAC, rounded to two decimals: "1.25". */
static void print_load(struct procbuf *pb, uint32_t load)
{
	load += FIXED_1 / 200;
	procbuf_printf(pb, "%u.%02u", load >> FSHIFT, ((load & (FIXED_1 - 1)) * 100) >> FSHIFT);
}

/* "0.52 0.31 0.12 2/37 1234": the three averages, running/all tasks, the last pid given. */
void proc_show_loadavg(struct procbuf *pb, void *arg)
{
	uint32_t avg[3];

	(void)arg;
	loadavg_get(avg);
	for (int i = 0; i < 3; i++) {
		print_load(pb, avg[i]);
		procbuf_printf(pb, " ");
	}
	procbuf_printf(pb, "%d/%d %d\n", sched_nr_running(), task_count_live(), task_last_pid());
}

/* ---- /proc/vmstat ------------------------------------------------------------------------ */

/*
 * Linux's "name value" lines, for the fields smpix has: free pages, dirty
 * buffers, block I/O in KiB (vmstat's bi and bo), page faults. smpix never
 * swaps: pswpin and pswpout are 0 because none happens, and vmstat(8)
 * reads them.
 */
void proc_show_vmstat(struct procbuf *pb, void *arg)
{
	struct bcache_stats bc;

	(void)arg;
	bcache_get_stats(&bc);
	procbuf_printf(pb, "nr_free_pages %lu\n", (unsigned long)pmm_free_count());
	procbuf_printf(pb, "nr_dirty %d\n", bc.dirty);
	procbuf_printf(pb, "pgpgin %llu\n", vm_event_total(PGPGIN));
	procbuf_printf(pb, "pgpgout %llu\n", vm_event_total(PGPGOUT));
	procbuf_printf(pb, "pswpin 0\npswpout 0\n");
	procbuf_printf(pb, "pgfault %llu\n", vm_event_total(PGFAULT));
}
