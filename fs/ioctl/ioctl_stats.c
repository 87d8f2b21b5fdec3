/*
 * Per-driver ioctl statistics for /proc/ioctl.
 *
 * The counters must not become the lock the unlocked path just escaped: a
 * shared counter would make every CPU fight over one cache line. So each
 * CPU counts in its own row, and /proc/ioctl adds the rows up. A driver
 * gets a column the first time its ioctl runs (under stats_lock, once);
 * after that the lookup reads the table without a lock, because entries
 * are only ever appended and each is complete before `ndrivers` counts it.
 */
#include "fs/ioctl/ioctl_stats.h"

#include "fs/file.h"
#include "fs/ioctl/ioctl_mode.h"
#include "fs/proc/procbuf.h"
#include "kernel/locking/atomic.h"
#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"

#define MAX_DRIVERS 32

struct counts {
	uint64_t locked;                /* calls made under the BKL */
	uint64_t unlocked;              /* calls made without it */
	uint64_t wait_cycles;           /* TSC cycles spent waiting for the BKL */
};

/* Serializes adding a driver to drivers[]; readers go without it (see above). */
static spinlock_t stats_lock = SPINLOCK_INIT("ioctl stats");
/*
 * Read on every ioctl, written once per driver: on lines of their own, so
 * that no CPU's counting (below) evicts them from the others' caches.
 */
static struct {
	const struct file_operations *drivers[MAX_DRIVERS];
	int ndrivers;
} __cacheline_aligned table;
/*
 * Row c is written only by CPU c, with preemption off so the writer stays
 * on it. Each row starts a cache line, so no two CPUs write the same line.
 */
static struct row {
	struct counts c[MAX_DRIVERS];
} __cacheline_aligned per_cpu[MAX_CPUS];

static int find(const struct file_operations *fops)
{
	int n = __atomic_load_n(&table.ndrivers, __ATOMIC_ACQUIRE);

	for (int i = 0; i < n; i++)
		if (table.drivers[i] == fops)
			return i;
	return -1;
}

static int find_or_add(const struct file_operations *fops)
{
	uint32_t flags;
	int i = find(fops);

	if (i >= 0)
		return i;
	spin_lock_irqsave(&stats_lock, flags);
	i = find(fops);
	if (i < 0 && table.ndrivers < MAX_DRIVERS) {
		i = table.ndrivers;
		table.drivers[i] = fops;
		__atomic_store_n(&table.ndrivers, i + 1, __ATOMIC_RELEASE);
	}
	spin_unlock_irqrestore(&stats_lock, flags);
	return i;
}

void ioctl_stats_account(const struct file_operations *fops, bool locked, uint64_t wait_cycles)
{
	int i = find_or_add(fops);
	struct counts *c;

	if (i < 0)
		return;                 /* more drivers than columns: not counted */
	preempt_disable();              /* stay on this CPU's row */
	c = &per_cpu[cpu_id()].c[i];
	if (locked)
		c->locked++;
	else
		c->unlocked++;
	c->wait_cycles += wait_cycles;
	preempt_enable();
}

void ioctl_stats_reset(void)
{
	/* Racy against calls in flight on other CPUs, like any statistics reset; never torn for good. */
	memset(per_cpu, 0, sizeof(per_cpu));
}

static void sum(int i, struct counts *out)
{
	memset(out, 0, sizeof(*out));
	for (int c = 0; c < MAX_CPUS; c++) {
		out->locked += per_cpu[c].c[i].locked;
		out->unlocked += per_cpu[c].c[i].unlocked;
		out->wait_cycles += per_cpu[c].c[i].wait_cycles;
	}
}

static uint64_t cycles_to_us(uint64_t cycles)
{
	return tsc_hz ? cycles * 1000 / (tsc_hz / 1000) : 0;
}

void proc_show_ioctl(struct procbuf *pb, void *arg)
{
	int n = __atomic_load_n(&table.ndrivers, __ATOMIC_ACQUIRE);

	procbuf_printf(pb, "policy: %s\n", ioctl_mode_name(ioctl_mode_get()));
	procbuf_printf(pb, "%-16s %-8s %12s %12s %14s\n", "driver", "flag", "bkl_calls", "unlocked_calls",
		       "bkl_wait_us");
	for (int i = 0; i < n; i++) {
		struct counts c;

		sum(i, &c);
		procbuf_printf(pb, "%-16s %-8s %12llu %12llu %14llu\n", table.drivers[i]->name ? table.drivers[i]->name : "?",
			       (table.drivers[i]->flags & FOP_UNLOCKED_IOCTL) ? "unlocked" : "-",
			       (unsigned long long)c.locked, (unsigned long long)c.unlocked,
			       (unsigned long long)cycles_to_us(c.wait_cycles));
	}
}

int proc_write_ioctl(const char *text)
{
	if (strcmp(text, "0") != 0)
		return -EINVAL;
	ioctl_stats_reset();
	return 0;
}
