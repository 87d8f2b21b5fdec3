/*
 * flock(2): advisory whole-file locks, shared or exclusive, held by an open
 * file (a struct file, so shared across fork() and dup()) and dropped by its
 * last close.
 *
 * This is one of the places the BKL stayed longest. "The Big Kernel Lock
 * lives on" (2004) lists it plainly: in 2.6.6 the file locking code still
 * required the BKL. Here, as there, the BKL is the only lock that protects
 * the lock list, and the code relies on the BKL's two odd properties:
 *  - it is dropped while its holder sleeps: a flock() that must wait for a
 *    conflicting lock sleeps on flock_wait *with the BKL held*, which lets
 *    the holder of that conflicting lock in to unlock it, and is taken back
 *    on wake-up, when the list may look quite different (so it looks again);
 *  - it is recursive, so a close() that happens under the BKL elsewhere can
 *    still come through here.
 * Linux 2.6.37 (2010) finally gave the file-lock code its own spinlock.
 *
 * Semantics (Linux's, checked by user/tests/flocktest.c on Linux too):
 *  - LOCK_SH conflicts with another file's LOCK_EX; LOCK_EX with any other
 *    file's lock. A file asking again for the type it holds succeeds.
 *  - Converting (SH to EX or back) is not atomic: the old lock goes first,
 *    and stays gone if the new one cannot be had (Linux does the same).
 *  - LOCK_NB turns a wait into EWOULDBLOCK (EAGAIN); a wait is interruptible
 *    (EINTR, or restarted under SA_RESTART).
 */
#include "fs/flock.h"

#include "fs/fdtable.h"
#include "fs/file.h"
#include "kernel/locking/bkl.h"
#include "kernel/list.h"
#include "kernel/mm/kheap.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/sched/waitqueue.h"

struct file_lock {
	struct list_head link;          /* in file_locks */
	struct file *owner;             /* the open file that holds it */
	struct inode *inode;            /* what is locked */
	bool exclusive;
};

/*
 * Every flock lock in the system, in one list, as 2.6.6 kept its
 * file_lock_list. Protected by the BKL, and by nothing else.
 */
static struct list_head file_locks = { &file_locks, &file_locks };
/* Tasks waiting for a conflicting lock to go; woken by every unlock. */
static struct wait_queue flock_wait;
static int nr_file_locks;               /* for the leak check; under the BKL */

#ifndef CONFIG_BKL
/*
 * make ERA=2.6.39: a mutex of flock's own in place of the BKL (Linux 2.6.37
 * gave fs/locks.c its own lock the same way). It protects file_locks and
 * nr_file_locks, and unlocks, which counts every unlock so that a waiter who
 * let go of the mutex to sleep can tell that something changed.
 */
static DEFINE_MUTEX(flock_mutex);
static unsigned unlocks;

/*
 * Sleep until some lock goes, or a signal comes. The BKL was let go for the
 * sleep by schedule() and taken back after it, unasked; a mutex is not, so
 * this says it: unlock, sleep, lock again. The caller then looks again.
 */
static int flock_wait_unlocked(void)
{
	unsigned seen = unlocks;
	int r;

	mutex_unlock(&flock_mutex);
	r = wait_event_interruptible(flock_wait, READ_ONCE(unlocks) != seen);
	mutex_lock(&flock_mutex);
	return r;
}
#endif

/* The lock f holds, or NULL. BKL held. */
static struct file_lock *lock_of(struct file *f)
{
	struct list_head *pos;

	list_for_each(pos, &file_locks) {
		struct file_lock *fl = list_entry(pos, struct file_lock, link);

		if (fl->owner == f)
			return fl;
	}
	return NULL;
}

/* Another file's lock on the same inode that would not let f have this one. BKL held. */
static bool conflicts(struct file *f, bool exclusive)
{
	struct list_head *pos;

	list_for_each(pos, &file_locks) {
		struct file_lock *fl = list_entry(pos, struct file_lock, link);

		if (fl->inode == f->f_inode && fl->owner != f && (exclusive || fl->exclusive))
			return true;
	}
	return false;
}

/* Drop f's lock, if it has one, and wake whoever waits. BKL held. */
static void unlock_file(struct file *f)
{
	struct file_lock *fl = lock_of(f);

	if (!fl)
		return;
	list_del(&fl->link);
	nr_file_locks--;
	kfree(fl);
#ifndef CONFIG_BKL
	WRITE_ONCE(unlocks, unlocks + 1);
#endif
	wake_up(&flock_wait);
}

/*
 * Give f a lock of this kind, waiting for conflicting ones to go unless
 * nonblock. BKL held; the wait sleeps with it, which drops it meanwhile.
 */
static int lock_file(struct file *f, bool exclusive, bool nonblock)
{
	struct file_lock *fl = lock_of(f);
	int r;

	if (fl && fl->exclusive == exclusive)
		return 0;
	fl = kzalloc(sizeof(*fl));
	if (!fl)
		return -ENOMEM;
	unlock_file(f);                 /* a conversion drops the old lock first */
	while (conflicts(f, exclusive)) {
		if (nonblock) {
			kfree(fl);
			return -EAGAIN;         /* EWOULDBLOCK: the same number */
		}
#ifdef CONFIG_BKL
		r = wait_event_interruptible(flock_wait, !conflicts(f, exclusive));
#else
		r = flock_wait_unlocked();
#endif
		if (r < 0) {
			kfree(fl);
			return r;
		}
	}
	fl->owner = f;
	fl->inode = f->f_inode;
	fl->exclusive = exclusive;
	list_add_tail(&fl->link, &file_locks);
	nr_file_locks++;
	f->f_flocked = true;
	return 0;
}

long sys_flock(int fd, unsigned cmd)
{
	bool nonblock = cmd & LOCK_NB;
	struct file *f;
	long r;

	f = fd_get(fd);
	if (!f)
		return -EBADF;
#ifdef CONFIG_BKL
	lock_kernel();                  /* 2.6.6: "the file locking code still requires the BKL" */
#else
	mutex_lock(&flock_mutex);
#endif
	switch (cmd & ~LOCK_NB) {
	case LOCK_SH:
		r = lock_file(f, false, nonblock);
		break;
	case LOCK_EX:
		r = lock_file(f, true, nonblock);
		break;
	case LOCK_UN:
		unlock_file(f);
		r = 0;
		break;
	default:
		r = -EINVAL;
	}
#ifdef CONFIG_BKL
	unlock_kernel();
#else
	mutex_unlock(&flock_mutex);
#endif
	fput(f);
	return r;
}

void flock_release_file(struct file *f)
{
	/*
	 * Called by the last fput(): nobody else can reach f now, so the flag
	 * can be read without the BKL, and most closes never take it.
	 */
	if (!f->f_flocked)
		return;
#ifdef CONFIG_BKL
	lock_kernel();
#else
	mutex_lock(&flock_mutex);
#endif
	unlock_file(f);
#ifdef CONFIG_BKL
	unlock_kernel();
#else
	mutex_unlock(&flock_mutex);
#endif
}

void flock_init(void)
{
	wait_queue_init(&flock_wait, "flock_wait");
}

int flock_count(void)
{
	return READ_ONCE(nr_file_locks);
}
