/*
 * /dev/cpu/N/cpuid, as on Linux i386: a read of 16 bytes at file offset L
 * runs the CPUID instruction with eax = L (and ecx = the offset's upper 32
 * bits, the sub-leaf) ON CPU N, and returns eax, ebx, ecx and edx. The
 * instruction must run on that CPU, so the read asks it with a
 * function-call IPI and waits.
 *
 * Its llseek takes the BKL: "The Big Kernel Lock lives on" (2004) names
 * i386's CPUID and MSR devices among the llseek() methods that still did.
 * Moving a file position needs no kernel-wide lock, which is the point.
 */
#include "drivers/char/cpuid.h"

#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "kernel/locking/bkl.h"
#include "kernel/cpu.h"
#include "kernel/ipi.h"
#include "kernel/lib/format.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"

#define CPUID_MAJOR 203         /* Linux's */
#define CPUID_BYTES 16

struct cpuid_call {
	uint32_t leaf, subleaf;
	uint32_t regs[4];               /* eax, ebx, ecx, edx */
};

/* Runs on the target CPU, in its IPI handler. */
static void run_cpuid(void *arg)
{
	struct cpuid_call *c = arg;

	__asm__ volatile("cpuid"
			 : "=a"(c->regs[0]), "=b"(c->regs[1]), "=c"(c->regs[2]), "=d"(c->regs[3])
			 : "a"(c->leaf), "c"(c->subleaf));
}

static int cpuid_open(struct inode *inode, struct file *f)
{
	unsigned cpu = chrdev_minor(f);

	if (cpu >= (unsigned)ncpus || !cpus[cpu].online)
		return -ENXIO;
	return 0;
}

static ssize_t cpuid_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	int cpu = (int)chrdev_minor(f);
	size_t done = 0;

	if (n % CPUID_BYTES)
		return -EINVAL;
	while (done < n) {
		struct cpuid_call c = { .leaf = (uint32_t)*pos, .subleaf = (uint32_t)((uint64_t)*pos >> 32) };
		int r = smp_call_function(cpu, run_cpuid, &c, true);

		if (r < 0)
			return done ? (ssize_t)done : r;
		if (copy_to_user(ubuf + done, c.regs, CPUID_BYTES) < 0)
			return done ? (ssize_t)done : -EFAULT;
		done += CPUID_BYTES;
		/* Linux leaves the position alone: the offset IS the leaf, so a second read asks again. */
	}
	return (ssize_t)done;
}

/* SEEK_SET and SEEK_CUR only, under the BKL as 2.6.6's did (make ERA=2.6.39: the inode's lock). */
static loff_t cpuid_llseek(struct file *f, loff_t offset, int whence)
{
	loff_t r;

	lock_kernel_or(&f->f_inode->i_mutex);   /* make ERA=2.6.39: the inode's lock, as Linux's cpuid_seek() */
	switch (whence) {
	case 0:
		r = offset;
		break;
	case 1:
		r = f->f_pos + offset;
		break;
	default:
		r = -EINVAL;
		break;
	}
	unlock_kernel_or(&f->f_inode->i_mutex);
	return r;
}

static const struct file_operations cpuid_fops = {
	.name = "cpuid",
	.open = cpuid_open,
	.read = cpuid_read,
	.llseek = cpuid_llseek,
};

void cpuid_devices_init(void)
{
	char name[32];

	for (int cpu = 0; cpu < ncpus; cpu++) {
		int r;

		if (!cpus[cpu].online)
			continue;
		snprintf(name, sizeof(name), "cpu/%d/cpuid", cpu);
		r = chrdev_register_mode(CPUID_MAJOR, (unsigned)cpu, name, 0444, &cpuid_fops);
		if (r < 0)
			printk("cpuid: cannot register /dev/%s: error %d\n", name, r);
	}
}
