/*
 * The system-wide /proc files: cpuinfo, meminfo, uptime, interrupts, mounts,
 * bkl and syscalls. Each show_*() prints the whole file into a procbuf
 * (fs/proc/procfs.c calls it, under the BKL as 2.6.6 did, or in make ERA=2.6.39 under
 * procfs_mutex). Where Linux has the same file, the layout is Linux's, so that its
 * tools and libcs read it unchanged.
 */
#include "fs/proc/proc_files.h"

#include "fs/mount.h"
#include "fs/proc/procbuf.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/cpu.h"
#include "kernel/era.h"
#include "kernel/irq.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/multiboot.h"
#include "kernel/version.h"
#include "kernel/mm/memlayout.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/pmm.h"
#include "kernel/syscall/dispatch.h"
#include "kernel/sched/task.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/platform.h"
#include "kernel/x86/x86.h"

/* ---- /proc/cpuinfo ------------------------------------------------------------------ */

/* Linux's names for CPUID leaf 1's EDX and ECX bits (arch/x86/include/asm/cpufeatures.h); NULL: not shown. */
static const char *const cpuid_edx_names[32] = {
	"fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce", "cx8", "apic", NULL, "sep",
	"mtrr", "pge", "mca", "cmov", "pat", "pse36", "pn", "clflush", NULL, "dts", "acpi",
	"mmx", "fxsr", "sse", "sse2", "ss", "ht", "tm", "ia64", "pbe",
};
static const char *const cpuid_ecx_names[32] = {
	"pni", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est", "tm2", "ssse3",
	"cid", "sdbg", "fma", "cx16", "xtpr", "pdcm", NULL, "pcid", "dca", "sse4_1", "sse4_2",
	"x2apic", "movbe", "popcnt", "tsc_deadline_timer", "aes", "xsave", NULL, "avx", "f16c",
	"rdrand", "hypervisor",
};

struct cpu_ident {
	char vendor[13];
	char model_name[49];
	uint32_t max_leaf, family, model, stepping, edx, ecx;
};

/* Every CPU of one machine is the same model: CPUID on this one describes them all. */
static void cpu_identify(struct cpu_ident *id)
{
	uint32_t a, b, c, d, ext;
	const char *name;

	cpuid(0, &a, &b, &c, &d);
	id->max_leaf = a;
	memcpy(id->vendor, &b, 4);
	memcpy(id->vendor + 4, &d, 4);
	memcpy(id->vendor + 8, &c, 4);
	id->vendor[12] = 0;
	cpuid(1, &a, &b, &c, &d);
	id->family = (a >> 8) & 0xf;
	id->model = (a >> 4) & 0xf;
	id->stepping = a & 0xf;
	if (id->family == 0xf)
		id->family += (a >> 20) & 0xff;
	if (id->family == 0x6 || id->family >= 0xf)
		id->model |= ((a >> 16) & 0xf) << 4;
	id->edx = d;
	id->ecx = c;

	strlcpy(id->model_name, "unknown", sizeof(id->model_name));
	cpuid(0x80000000, &ext, &b, &c, &d);
	if (ext >= 0x80000004) {
		uint32_t *w = (uint32_t *)id->model_name;

		for (uint32_t leaf = 0; leaf < 3; leaf++)
			cpuid(0x80000002 + leaf, &w[leaf * 4], &w[leaf * 4 + 1], &w[leaf * 4 + 2],
			      &w[leaf * 4 + 3]);
		id->model_name[48] = 0;
		/* Intel pads the brand string on the left; Linux strips it. */
		name = id->model_name;
		while (*name == ' ')
			name++;
		memmove(id->model_name, name, strlen(name) + 1);
	}
}

static void show_flags(struct procbuf *pb, const struct cpu_ident *id)
{
	procbuf_printf(pb, "flags\t\t:");
	for (int i = 0; i < 32; i++)
		if ((id->edx & (1u << i)) && cpuid_edx_names[i])
			procbuf_printf(pb, " %s", cpuid_edx_names[i]);
	for (int i = 0; i < 32; i++)
		if ((id->ecx & (1u << i)) && cpuid_ecx_names[i])
			procbuf_printf(pb, " %s", cpuid_ecx_names[i]);
	procbuf_printf(pb, "\n");
}

void proc_show_cpuinfo(struct procbuf *pb, void *arg)
{
	struct cpu_ident id;
	uint32_t khz = (uint32_t)(tsc_hz / 1000);
	uint32_t bogo = (uint32_t)(tsc_hz / 5000);      /* 2 x MHz, in hundredths, as Linux's TSC loop gives */
	int online = 0;

	cpu_identify(&id);
	for (int i = 0; i < ncpus; i++)
		online += cpus[i].online;
	for (int i = 0; i < ncpus; i++) {
		if (!cpus[i].online)
			continue;
		procbuf_printf(pb, "processor\t: %d\n", i);
		procbuf_printf(pb, "vendor_id\t: %s\n", id.vendor);
		procbuf_printf(pb, "cpu family\t: %u\n", id.family);
		procbuf_printf(pb, "model\t\t: %u\n", id.model);
		procbuf_printf(pb, "model name\t: %s\n", id.model_name);
		procbuf_printf(pb, "stepping\t: %u\n", id.stepping);
		procbuf_printf(pb, "cpu MHz\t\t: %u.%03u\n", khz / 1000, khz % 1000);
		procbuf_printf(pb, "physical id\t: 0\n");
		procbuf_printf(pb, "siblings\t: %d\n", online);
		procbuf_printf(pb, "core id\t\t: %d\n", i);
		procbuf_printf(pb, "cpu cores\t: %d\n", online);
		procbuf_printf(pb, "apicid\t\t: %u\n", cpus[i].apic_id);
		procbuf_printf(pb, "initial apicid\t: %u\n", cpus[i].apic_id);
		procbuf_printf(pb, "fpu\t\t: yes\n");
		procbuf_printf(pb, "fpu_exception\t: yes\n");
		procbuf_printf(pb, "cpuid level\t: %u\n", id.max_leaf);
		procbuf_printf(pb, "wp\t\t: yes\n");
		show_flags(pb, &id);
		procbuf_printf(pb, "bogomips\t: %u.%02u\n", bogo / 100, bogo % 100);
		procbuf_printf(pb, "clflush size\t: 64\n");
		procbuf_printf(pb, "cache_alignment\t: 64\n");
		procbuf_printf(pb, "address sizes\t: 36 bits physical, 32 bits virtual\n");
		procbuf_printf(pb, "power management:\n\n");
	}
}

/* ---- /proc/meminfo ------------------------------------------------------------------ */

/* Linux's layout: the name and colon in 16 columns, the number in 8, then " kB". */
static void meminfo_line(struct procbuf *pb, const char *name, unsigned long kb)
{
	char label[20];

	snprintf(label, sizeof(label), "%s:", name);
	procbuf_printf(pb, "%-16s%8lu kB\n", label, kb);
}

void proc_show_meminfo(struct procbuf *pb, void *arg)
{
	struct kheap_stats hs;
	unsigned long total = pmm_usable_count() * (PAGE_SIZE / 1024);
	unsigned long free = pmm_free_count() * (PAGE_SIZE / 1024);
	unsigned long high = (unsigned long)(pmm_highmem_bytes() / 1024);

	kheap_get_stats(&hs);
	meminfo_line(pb, "MemTotal", total);
	meminfo_line(pb, "MemFree", free);
	meminfo_line(pb, "MemAvailable", free);
	meminfo_line(pb, "Buffers", 0);
	meminfo_line(pb, "Cached", 0);
	meminfo_line(pb, "SwapCached", 0);
	meminfo_line(pb, "HighTotal", high);
	meminfo_line(pb, "HighFree", high);    /* smpix leaves high memory alone */
	meminfo_line(pb, "LowTotal", total);
	meminfo_line(pb, "LowFree", free);
	meminfo_line(pb, "SwapTotal", 0);
	meminfo_line(pb, "SwapFree", 0);
	meminfo_line(pb, "Shmem", 0);
	meminfo_line(pb, "Slab", hs.pages_in_use * (PAGE_SIZE / 1024));
	meminfo_line(pb, "SReclaimable", 0);
	meminfo_line(pb, "KernelStack", 0);
}

/* ---- /proc/uptime ------------------------------------------------------------------- */

static void print_seconds(struct procbuf *pb, uint64_t ns)
{
	uint64_t cs = ns / 10000000;    /* hundredths */

	procbuf_printf(pb, "%llu.%02llu", cs / 100, cs % 100);
}

/* Seconds since boot, and the seconds every CPU together spent idle (Linux's two numbers). */
void proc_show_uptime(struct procbuf *pb, void *arg)
{
	uint64_t idle = 0;

	for (int i = 0; i < ncpus; i++)
		if (cpus[i].online && cpus[i].idle)
			idle += READ_ONCE(cpus[i].idle->runtime_ns);
	print_seconds(pb, clock_ns());
	procbuf_printf(pb, " ");
	print_seconds(pb, idle);
	procbuf_printf(pb, "\n");
}

/* ---- /proc/interrupts --------------------------------------------------------------- */

/* Linux's layout: a CPUn header, then per line "NNN:" and one 10-wide count per CPU. */
void proc_show_interrupts(struct procbuf *pb, void *arg)
{
	const char *chip = platform.nioapics > 0 ? "IO-APIC" : "XT-PIC";

	procbuf_printf(pb, "%11s", "");
	for (int c = 0; c < ncpus; c++)
		if (cpus[c].online)
			procbuf_printf(pb, "CPU%-8d", c);
	procbuf_printf(pb, "\n");
	for (int irq = 0; irq < NR_IRQS; irq++) {
		const char *name = irq_name(irq);

		if (!name)
			continue;
		procbuf_printf(pb, "%3d: ", irq);
		for (int c = 0; c < ncpus; c++)
			if (cpus[c].online)
				procbuf_printf(pb, "%10llu ", irq_count(irq, c));
		procbuf_printf(pb, " %8s  %2d-edge      %s\n", chip, irq, name);
	}
	procbuf_printf(pb, "%3s: ", "LOC");
	for (int c = 0; c < ncpus; c++)
		if (cpus[c].online)
			procbuf_printf(pb, "%10llu ", (unsigned long long)cpus[c].ticks);
	procbuf_printf(pb, "  Local timer interrupts\n");
	procbuf_printf(pb, "%3s: ", "RES");
	for (int c = 0; c < ncpus; c++)
		if (cpus[c].online)
			procbuf_printf(pb, "%10llu ", (unsigned long long)cpus[c].resched_ipis);
	procbuf_printf(pb, "  Rescheduling interrupts\n");
	procbuf_printf(pb, "%3s: ", "TLB");
	for (int c = 0; c < ncpus; c++)
		if (cpus[c].online)
			procbuf_printf(pb, "%10llu ", (unsigned long long)cpus[c].tlb_ipis);
	procbuf_printf(pb, "  TLB shootdowns\n");
}

/* ---- /proc/mounts ------------------------------------------------------------------- */

/* The options as Linux's show_mnt_opts() writes them: "rw" or "ro", then the per-mount flags in its order. */
static const struct {
	unsigned flag;
	const char *name;
} mount_opts[] = {
	{ MNT_SYNCHRONOUS, ",sync" }, { MNT_DIRSYNC, ",dirsync" }, { MNT_NOSUID, ",nosuid" }, { MNT_NODEV, ",nodev" },
	{ MNT_NOEXEC, ",noexec" }, { MNT_NOATIME, ",noatime" }, { MNT_NODIRATIME, ",nodiratime" },
	{ MNT_RELATIME, ",relatime" },
};

static int show_one_mount(const struct mount *m, void *arg)
{
	struct procbuf *pb = arg;
	unsigned flags = READ_ONCE(m->mnt_flags);

	/* "device mountpoint type options 0 0", as fstab and Linux's /proc/mounts. */
	procbuf_printf(pb, "%s %s %s %s", m->source, m->path, m->type->name, READ_ONCE(m->rdonly) ? "ro" : "rw");
	for (unsigned i = 0; i < sizeof(mount_opts) / sizeof(mount_opts[0]); i++)
		if (flags & mount_opts[i].flag)
			procbuf_printf(pb, "%s", mount_opts[i].name);
	procbuf_printf(pb, " 0 0\n");
	return 0;
}

void proc_show_mounts(struct procbuf *pb, void *arg)
{
	mount_for_each(show_one_mount, pb);
}

/* ---- /proc/bkl ---------------------------------------------------------------------- */

/*
 * The BKL now and what every lock_kernel() site has cost since boot (or since
 * the last "echo 0 > /proc/bkl"). Printed with the BKL held: the BKL protects
 * the site counters, and procfs takes it for every read anyway (make
 * ERA=2.6.39: procfs_mutex, and no BKL, no sites to print).
 */
void proc_show_bkl(struct procbuf *pb, void *arg)
{
	struct bkl_state st;
	int nsites = (int)(bkl_sites_end() - bkl_sites_begin());

	bkl_get_state(&st);
	if (st.owner)
		procbuf_printf(pb, "owner: pid %d (%s) on CPU %d, depth %d\n", st.owner->pid,
			       st.owner->name, st.owner_cpu, st.owner_depth);
	else
		procbuf_printf(pb, "owner: none\n");
	procbuf_printf(pb, "waiting: %d\n", st.waiting);
	procbuf_printf(pb, "era: %s: %s\n", era_name(era_now()), era_summary(era_now()));
	procbuf_printf(pb, "tsc_hz: %llu\n", tsc_hz);
	procbuf_printf(pb, "sites: %d\n", nsites);
	procbuf_printf(pb, "%12s %10s %10s %14s %14s %14s %14s  %s\n", "acquired", "contended",
		       "reacquired", "wait_cycles", "wait_max", "hold_cycles", "hold_max", "site");
	for (struct bkl_site *s = bkl_sites_begin(); s < bkl_sites_end(); s++)
		procbuf_printf(pb, "%12llu %10llu %10llu %14llu %14llu %14llu %14llu  %s:%d %s\n",
			       s->acquisitions, s->contended, s->reacquisitions, s->wait_cycles,
			       s->wait_max, s->hold_cycles, s->hold_max, s->file, s->line, s->function);
}

/* "echo 0 > /proc/bkl" (or /proc/bkl_blame) zeroes the statistics and the blame; nothing else is accepted. */
int proc_write_bkl(const char *text)
{
	if (strcmp(text, "0") != 0)
		return -EINVAL;
	bkl_stats_reset();
	return 0;
}

#ifdef CONFIG_BKL
/* ---- /proc/bkl_blame ---------------------------------------------------------------- */

static void print_blame_site(struct procbuf *pb, const struct bkl_site *s)
{
	if (s)
		procbuf_printf(pb, "%s:%d %s", s->file, s->line, s->function);
	else
		procbuf_printf(pb, "-:0 hand-over");
}

/*
 * Who made whom wait: one line per (waiting site, holding site), the
 * contended acquisitions at the first while the second held the lock and the
 * cycles waited meanwhile, most cycles first. "-:0 hand-over" is the time the
 * lock lay free, promised to a ticket whose CPU had not yet seen it. Printed
 * under the BKL (procfs takes it), which protects the table.
 */
void proc_show_bkl_blame(struct procbuf *pb, void *arg)
{
	const struct bkl_blame *t;
	uint64_t lost;
	int n = bkl_blame_table(&t, &lost);
	int order[BKL_BLAME_MAX];

	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = 1; i < n; i++)             /* insertion sort by cycles, largest first */
		for (int j = i; j > 0 && t[order[j]].cycles > t[order[j - 1]].cycles; j--) {
			int x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	procbuf_printf(pb, "tsc_hz: %llu\n", tsc_hz);
	procbuf_printf(pb, "pairs: %d, lost: %llu\n", n, lost);
	procbuf_printf(pb, "%10s %16s  %s\n", "contended", "wait_cycles", "waiter_site function  <-  holder_site function");
	for (int i = 0; i < n; i++) {
		const struct bkl_blame *b = &t[order[i]];

		procbuf_printf(pb, "%10llu %16llu  ", b->count, b->cycles);
		print_blame_site(pb, b->waiter);
		procbuf_printf(pb, "  <-  ");
		print_blame_site(pb, b->holder);
		procbuf_printf(pb, "\n");
	}
}
#else
/* make ERA=2.6.39: no BKL, so nobody waits for it. */
void proc_show_bkl_blame(struct procbuf *pb, void *arg)
{
	procbuf_printf(pb, "no BKL in this kernel (built with make ERA=2.6.39)\n");
}
#endif

/* ---- /proc/syscalls ----------------------------------------------------------------- */

static void show_syscall(struct procbuf *pb, const struct syscall_desc *d)
{
	bool bkl = syscall_takes_bkl(d);        /* this era's answer (era=2.2 adds read and write) */
	const char *flags = d->fn ? (bkl ? "bkl" : "-") : (bkl ? "bkl,ni" : "ni");

	procbuf_printf(pb, "%3u %-20s %u %-6s %10u\n", d->nr, d->name, d->nargs, flags,
		       syscall_count(d->nr));
}

/*
 * The dispatcher's table in number order: its argument count, its flags
 * ("bkl": called under the BKL; "ni": known but not implemented, -ENOSYS)
 * and the calls made so far.
 */
void proc_show_syscalls(struct procbuf *pb, void *arg)
{
#ifdef CONFIG_BKL
	procbuf_printf(pb, "# bkl=%s: %s\n", syscall_all_under_bkl() ? "syscalls" : "flagged",
		       syscall_all_under_bkl() ? "every call runs under the BKL"
					       : "calls flagged bkl run under the BKL");
#else
	procbuf_printf(pb, "# no BKL (era 2.6.39): no call runs under it\n");
#endif
	procbuf_printf(pb, "# unknown numbers called: %u\n", syscall_unknown_count());
	procbuf_printf(pb, "# entered by sysenter (the vsyscall page), not int $0x80: %u\n", syscall_sysenter_count());
	procbuf_printf(pb, "%3s %-20s %s %-6s %10s\n", "nr", "name", "n", "flags", "calls");
	for (unsigned nr = 0; nr < NR_SYSCALLS; nr++)
		for (unsigned i = 0; i < syscall_table_len; i++)
			if (syscall_table[i].nr == nr)
				show_syscall(pb, &syscall_table[i]);
}

/* ---- /proc/version, /proc/cmdline, /proc/filesystems ---------------------------------- */

/* uname's words and the compiler, as Linux's first line: "Linux version 6.1.0 (...) (gcc ...) #1 SMP ...". */
void proc_show_version(struct procbuf *pb, void *arg)
{
	(void)arg;
	procbuf_printf(pb, "smpix version " SMPIX_VERSION " (gcc version " __VERSION__ ") #1 SMP " __DATE__ " " __TIME__
		       "\n");
}

/* The command line the boot loader gave, whole (the words the kernel knows and the rest). */
void proc_show_cmdline(struct procbuf *pb, void *arg)
{
	(void)arg;
	procbuf_printf(pb, "%s\n", boot_info.cmdline);
}

static void show_fs_type(const struct filesystem_type *type, void *arg)
{
	procbuf_printf(arg, "%s\t%s\n", type->requires_dev ? "" : "nodev", type->name);
}

/* The file system types mount(2) knows: "nodev" for those that need no block device. */
void proc_show_filesystems(struct procbuf *pb, void *arg)
{
	(void)arg;
	for_each_fs_type(show_fs_type, pb);
}
