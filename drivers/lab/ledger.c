/*
 * /dev/ledger: the driver of lab 7 (docs/labs/lab7-pushdown.md).
 *
 * LEDGER_ACCOUNTS accounts in LEDGER_BRANCHES branches. LEDGER_TRANSFER takes
 * an amount from one account, lets the back office confirm it (a sleep of
 * delay_us, cut short by LEDGER_KICK), and pays it into the other account.
 * LEDGER_AUDIT copies every balance and their total, which is always
 * LEDGER_ACCOUNTS * LEDGER_OPENING if no audit can see money in flight.
 *
 * read() reports the driver's locks: who holds each one and how many tasks
 * wait for it. It takes no lock to do so, so it answers even when the ledger
 * is stuck, which is when it is needed. The lock-order checker (lockdep=1,
 * docs/locking.md) says more, and earlier: the first time both orders of two
 * locks have been seen, before anything gets stuck.
 */
/* LAB7: BEGIN locking-comment */
/*
 * Locking: each branch has a mutex of its own, branch_locks[b], which
 * protects the balances of branch b's accounts; the VFS calls ledger_ioctl()
 * without the BKL (FOP_UNLOCKED_IOCTL). A transfer holds the lock of every
 * branch it touches across the back office's sleep: a mutex, unlike the BKL,
 * is not let go while its holder sleeps, so no audit sees money in flight.
 * Two locks are always taken lower branch first, whatever the direction of
 * the transfer: a transfer from branch 0 to 1 and one from 1 to 0 cannot
 * each hold one lock and wait for the other's (ABBA).
 */
/* LAB7: END */
#include "drivers/lab/ledger.h"

#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/bkl.h"
#include "kernel/locking/mutex.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/ledger.h"

#define BACK_OFFICE_POLL_NS 1000000ULL  /* the back office looks for a kick every ms (a tick, really) */
#define REPORT_MAX 512

/* The money. Protected by whatever the locking comment above says. */
static long long balance[LEDGER_ACCOUNTS];

/*
 * A lock of the ledger's: a mutex that says who holds it and how many wait
 * for it, for read()'s report. holder is written by the holder only, and
 * waiting counted atomically, so the report reads both without a lock.
 */
struct ledger_mutex {
	struct mutex m;
	const char *name;
	volatile int holder;            /* the holder's pid, 0 when free */
	atomic_t waiting;
};

#define LEDGER_LOCKS_MAX 4
static struct ledger_mutex *locks[LEDGER_LOCKS_MAX];    /* every lock ledger_mutex_init() made, for read() */
static int nlocks;                                      /* set at boot only */

/*
 * Set up l, named name, and list it for read(). A macro, as mutex_init() is,
 * so that each call plants a lock class of its own, named by its expression
 * ("&branch_locks[0]"): two locks initialised on two lines are two classes for
 * the lock-order checker. Initialised by one line (a loop), they would be one
 * class, and taking both would look like one lock taken twice
 * (docs/locking.md, "Lock classes").
 */
#define ledger_mutex_init(l, n)                                                                 \
	do {                                                                                    \
		static struct lock_class ledger_class_ = { .name = #l, .file = __FILE__,        \
							   .line = __LINE__, .kind = LOCK_MUTEX }; \
		ledger_mutex_init_class((l), (n), &ledger_class_);                              \
	} while (0)

static inline void ledger_mutex_init_class(struct ledger_mutex *l, const char *name, struct lock_class *class)
{
	mutex_init_class(&l->m, name, class);
	l->name = name;
	l->holder = 0;
	atomic_set(&l->waiting, 0);
	if (nlocks < LEDGER_LOCKS_MAX)
		locks[nlocks++] = l;
}

/* Take l; a signal ends the wait (-ERESTARTSYS), so even a deadlocked task can be killed. */
static inline int ledger_mutex_lock(struct ledger_mutex *l)
{
	int r;

	atomic_inc(&l->waiting);
	r = mutex_lock_interruptible(&l->m);
	atomic_dec(&l->waiting);
	if (r == 0)
		l->holder = current->pid;
	return r;
}

static inline void ledger_mutex_unlock(struct ledger_mutex *l)
{
	l->holder = 0;
	mutex_unlock(&l->m);
}

/* LAB7: BEGIN locks */
static struct ledger_mutex branch_locks[LEDGER_BRANCHES];      /* [b] protects branch b's balances */
/* LAB7: END */

static inline unsigned branch_of(unsigned account)
{
	return account / LEDGER_PER_BRANCH;
}

/* LEDGER_KICKs so far, and transfers now waiting for their back office. */
static volatile unsigned kicks;
static atomic_t in_back_office;

/*
 * The back office confirms a transfer: it takes delay_us, or until someone
 * kicks it (LEDGER_KICK), or until a signal comes. It sleeps meanwhile, as a
 * driver waiting for its device does.
 */
static void back_office(uint32_t delay_us)
{
	unsigned kicked = kicks;
	uint64_t end = clock_ns() + (uint64_t)delay_us * 1000;

	atomic_inc(&in_back_office);
	while (kicks == kicked && clock_ns() < end)
		if (sched_sleep_ns(MIN(end - clock_ns(), BACK_OFFICE_POLL_NS)) < 0)
			break;
	atomic_dec(&in_back_office);
}

/* Move t->amount from account t->from to account t->to, the back office in between. */
static long move_money(const struct ledger_transfer *t)
{
	/* LAB7: BEGIN move-money */
	unsigned a = branch_of(t->from), b = branch_of(t->to);
	struct ledger_mutex *first = &branch_locks[MIN(a, b)], *second = &branch_locks[MAX(a, b)];
	long r;

	if ((r = ledger_mutex_lock(first)) < 0)
		return r;
	if (second != first && (r = ledger_mutex_lock(second)) < 0) {
		ledger_mutex_unlock(first);
		return r;
	}
	balance[t->from] -= t->amount;
	back_office(t->delay_us);
	balance[t->to] += t->amount;
	if (second != first)
		ledger_mutex_unlock(second);
	ledger_mutex_unlock(first);
	return 0;
	/* LAB7: END */
}

/* Hold everything an audit or a reset touches: 0, or -ERESTARTSYS with nothing held. */
static long lock_all(void)
{
	/* LAB7: BEGIN lock-all */
	long r;
	int b;

	for (b = 0; b < LEDGER_BRANCHES; b++) {         /* in branch order, as transfers take them */
		if ((r = ledger_mutex_lock(&branch_locks[b])) < 0) {
			while (--b >= 0)
				ledger_mutex_unlock(&branch_locks[b]);
			return r;
		}
	}
	return 0;
	/* LAB7: END */
}

static void unlock_all(void)
{
	/* LAB7: BEGIN unlock-all */
	for (int b = LEDGER_BRANCHES - 1; b >= 0; b--)
		ledger_mutex_unlock(&branch_locks[b]);
	/* LAB7: END */
}

static long ledger_transfer(unsigned long uarg)
{
	struct ledger_transfer t;

	if (copy_from_user(&t, (const void *)uarg, sizeof(t)) < 0)
		return -EFAULT;
	if (t.from >= LEDGER_ACCOUNTS || t.to >= LEDGER_ACCOUNTS || t.from == t.to ||
	    t.delay_us > LEDGER_MAX_DELAY_US)
		return -EINVAL;
	return move_money(&t);
}

static long ledger_audit(unsigned long uarg)
{
	struct ledger_audit a;
	long r;

	if ((r = lock_all()) < 0)
		return r;
	a.total = 0;
	for (int i = 0; i < LEDGER_ACCOUNTS; i++) {
		a.balance[i] = balance[i];
		a.total += balance[i];
	}
	unlock_all();
	/* Copied to user space after the locks are let go: the copy may fault, and sleep. */
	return copy_to_user((void *)uarg, &a, sizeof(a)) < 0 ? -EFAULT : 0;
}

static long ledger_reset(void)
{
	long r;

	if ((r = lock_all()) < 0)
		return r;
	for (int i = 0; i < LEDGER_ACCOUNTS; i++)
		balance[i] = LEDGER_OPENING;
	unlock_all();
	return 0;
}

static long ledger_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	switch (cmd) {
	case LEDGER_TRANSFER:
		return ledger_transfer(arg);
	case LEDGER_AUDIT:
		return ledger_audit(arg);
	case LEDGER_RESET:
		return ledger_reset();
	case LEDGER_KICK:
		WRITE_ONCE(kicks, kicks + 1);   /* no lock: a back office only compares it */
		return 0;
	default:
		return -ENOTTY;
	}
}

/*
 * The driver as it is now, read without taking any lock:
 *     ledger accounts 8 branches 2 locks N back_office N
 *     lock NAME holder PID waiting N          (one line per lock; holder 0: free)
 */
static int ledger_report(char *buf)
{
	int len = snprintf(buf, REPORT_MAX, "ledger accounts %d branches %d locks %d back_office %d\n",
			   LEDGER_ACCOUNTS, LEDGER_BRANCHES, nlocks, atomic_read(&in_back_office));

	for (int i = 0; i < nlocks; i++)
		len += snprintf(buf + len, REPORT_MAX - len, "lock %s holder %d waiting %d\n", locks[i]->name,
				locks[i]->holder, atomic_read(&locks[i]->waiting));
	return len;
}

static ssize_t ledger_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	char *buf = kmalloc(REPORT_MAX);
	ssize_t r = 0;
	int len;

	if (!buf)
		return -ENOMEM;
	len = ledger_report(buf);
	if (*pos < len) {
		r = (ssize_t)MIN(n, (size_t)(len - *pos));
		if (copy_to_user(ubuf, buf + *pos, (size_t)r) < 0)
			r = -EFAULT;
		else
			*pos += r;
	}
	kfree(buf);
	return r;
}

static const struct file_operations ledger_fops = {
	.name = "ledger",
	/* LAB7: BEGIN unlocked-flag */
	.flags = FOP_UNLOCKED_IOCTL,    /* the driver locks for itself: no BKL around ledger_ioctl */
	/* LAB7: END */
	.ioctl = ledger_ioctl,
	.read = ledger_read,
};

void ledger_init(void)
{
	int r;

	/* LAB7: BEGIN init-locks */
	ledger_mutex_init(&branch_locks[0], "branch0");
	ledger_mutex_init(&branch_locks[1], "branch1");
	/* LAB7: END */
	for (int i = 0; i < LEDGER_ACCOUNTS; i++)
		balance[i] = LEDGER_OPENING;
	r = chrdev_register_mode(LEDGER_MAJOR, LEDGER_MINOR, "ledger", 0666, &ledger_fops);
	if (r < 0)
		printk("ledger: cannot register /dev/ledger: error %d\n", r);
}
