/*
 * vfs_ioctl: the middle step of sys_ioctl -> vfs_ioctl -> f_op->ioctl.
 *
 * First the commands every file answers the same way (close-on-exec,
 * non-blocking mode, bytes readable). Then the driver's own ioctl, and
 * here is the decision the May 2004 mail "Unserializing ioctl() system
 * calls" was about: Linux 2.6.6 called every driver's ioctl inside
 * lock_kernel()/unlock_kernel(); the mail proposed a flag for drivers that
 * manage their own concurrency. smpix has that flag, FOP_UNLOCKED_IOCTL,
 * and a policy (ioctl=auto|serialized|unlocked, fs/ioctl/ioctl_mode.h) that can
 * override it for every driver. See docs/ioctl.md.
 */
#include "fs/fdtable.h"
#include "fs/file.h"
#include "fs/ioctl/ioctl_mode.h"
#include "fs/ioctl/ioctl_stats.h"
#include "kernel/locking/bkl.h"
#include "kernel/mm/uaccess.h"
#include "kernel/trace/trace.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/ioctls.h"
#include "kernel/uapi/stat.h"
#include "kernel/x86/x86.h"

/* FIONREAD: what a read would return now. */
static long ioctl_fionread(struct file *f, unsigned long arg)
{
	struct inode *inode = f->f_inode;
	loff_t n;

	if (f->f_op && f->f_op->nread)
		n = f->f_op->nread(f);
	else if (S_ISREG(inode->i_mode))
		n = READ_ONCE(inode->i_size) - f->f_pos;
	else
		return -ENOTTY;
	if (n < 0)
		n = 0;
	if (n > 0x7FFFFFFF)
		n = 0x7FFFFFFF;
	return put_user_u32((void *)arg, (uint32_t)n);
}

/* FIONBIO: set or clear O_NONBLOCK, as fcntl(F_SETFL) would. */
static long ioctl_fionbio(struct file *f, unsigned long arg)
{
	uint32_t on;

	if (get_user_u32(&on, (const void *)arg) < 0)
		return -EFAULT;
	if (on)
		__atomic_fetch_or(&f->f_flags, O_NONBLOCK, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&f->f_flags, ~(unsigned)O_NONBLOCK, __ATOMIC_RELAXED);
	return 0;
}

/*
 * Does this call take the BKL? The policy is read once, so the answer cannot
 * change mid-call. In make ERA=2.6.39 the policy is always unlocked
 * (fs/ioctl/ioctl_mode.c refuses the others), so the answer is always no.
 */
static bool needs_bkl(const struct file_operations *fops, enum ioctl_mode mode)
{
	switch (mode) {
	case IOCTL_MODE_SERIALIZED:
		return true;            /* Linux 2.6.6: every ioctl */
	case IOCTL_MODE_UNLOCKED:
		return false;           /* none: see what the BKL was protecting */
	default:
		return !(fops->flags & FOP_UNLOCKED_IOCTL);     /* the driver's flag decides */
	}
}

/*
 * The driver's ioctl, inside the BKL or not. Counted in and out around it, so
 * that a switch of the policy can wait for the calls that began before it.
 *
 * make ERA=2.6.39: the same path, with no BKL to take. Linux got there in
 * two steps: 2.6.11's unlocked_ioctl let a driver do without it, and 2.6.36
 * removed .ioctl itself (commit b19dd42faf41) once every driver left on it
 * had been given unlocked_ioctl and, where it relied on the BKL, a lock of its
 * own (here, drivers/bench/bench_bkl.c's mutex).
 */
static long driver_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	const struct file_operations *fops = f->f_op;
	enum ioctl_mode mode;
	unsigned ticket = ioctl_call_begin(&mode);
	bool locked = needs_bkl(fops, mode);
	uint64_t wait = 0;
	long r;

	trace_ioctl_begin(fops->name, cmd, locked);
#ifdef CONFIG_BKL
	if (locked) {
		uint64_t t0 = rdtsc();

		lock_kernel();
		wait = rdtsc() - t0;
	}
#endif
	r = fops->ioctl(f, cmd, arg);
#ifdef CONFIG_BKL
	if (locked)
		unlock_kernel();
#endif
	ioctl_call_end(ticket);
	ioctl_stats_account(fops, locked, wait);
	trace_ioctl_end(fops->name, r, locked);
	return r;
}

long vfs_ioctl(struct file *f, int fd, unsigned cmd, unsigned long arg)
{
	switch (cmd) {
	case FIOCLEX:
		return fd_set_cloexec(fd, true);
	case FIONCLEX:
		return fd_set_cloexec(fd, false);
	case FIONBIO:
		return ioctl_fionbio(f, arg);
	case FIONREAD:
		if (!f->f_op || !f->f_op->ioctl || f->f_op->nread || S_ISREG(f->f_inode->i_mode))
			return ioctl_fionread(f, arg);
		break;
	}
	if (!f->f_op || !f->f_op->ioctl)
		return -ENOTTY;
	return driver_ioctl(f, cmd, arg);
}
