/*
 * flock(2): advisory whole-file locks, shared or exclusive, held by an open
 * file (a struct file, so shared across fork() and dup()) and dropped by its
 * last close.
 *
 * This is one of the places the BKL stayed longest. "The Big Kernel Lock
 * lives on" (2004) lists it plainly: in 2.6.6 the file locking code still
 * required the BKL. Lab 10's handout keeps it so (the reference solution
 * pushes it out: flock_mutex below): there the BKL is the only lock that
 * protects the lock list, and the code relies on the BKL's two odd properties:
 *  - it is dropped while its holder sleeps: a flock() that must wait for a
 *    conflicting lock sleeps on flock_wait *with the BKL held*, which lets
 *    the holder of that conflicting lock in to unlock it, and is taken back
 *    on wake-up, when the list may look quite different (so it looks again);
 *  - it is recursive, so a close() that happens under the BKL elsewhere can
 *    still come through here.
 * Linux 2.6.37 (2010) finally gave the file-lock code its own spinlock;
 * here flock has a mutex of its own (flock_mutex, below) in every build.
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

/* LAB10: BEGIN flock-lock */
/*
 * flock's lock: a mutex of its own, in every build (lab 10 pushed the BKL
 * out of flock, as Linux 2.6.37 gave fs/locks.c a lock of its own). It
 * protects file_locks and nr_file_locks; a mutex, not a spinlock, because
 * lock_file() allocates and frees under it.
 */
static DEFINE_MUTEX(flock_mutex);
/* LAB10: END */

/*
 * Every flock lock in the system, in one list, as 2.6.6 kept its
 * file_lock_list. Protected by flock's lock, and by nothing else.
 */
static struct list_head file_locks = { &file_locks, &file_locks };
/* Tasks waiting for a conflicting lock to go; woken by every unlock. */
static struct wait_queue flock_wait;
static int nr_file_locks;               /* for the leak check; under flock's lock */

/* The lock f holds, or NULL. flock's lock held. */
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

/* Another file's lock on the same inode that would not let f have this one. flock's lock held. */
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

/* LAB10: BEGIN flock-wait */
/*
 * A mutex is not let go for a sleep, as the BKL was: a waiter lets go of it
 * itself, and cannot look at file_locks meanwhile. It watches unlocks
 * instead, which counts every unlock (under flock_mutex), to tell that
 * something changed.
 */
static unsigned unlocks;

static void count_unlock(void)
{
	WRITE_ONCE(unlocks, unlocks + 1);
}

/*
 * Sleep until some lock goes, or a signal comes: unlock, sleep, lock again.
 * The caller looks again. An unlock between the read of unlocks and the
 * sleep is not missed: the condition is checked before sleeping.
 */
static int wait_for_unlock(struct file *f, bool exclusive)
{
	unsigned seen = unlocks;
	int r;

	mutex_unlock(&flock_mutex);
	r = wait_event_interruptible(flock_wait, READ_ONCE(unlocks) != seen);
	mutex_lock(&flock_mutex);
	return r;
}
/* LAB10: END */

/* Drop f's lock, if it has one, and wake whoever waits. flock's lock held. */
static void unlock_file(struct file *f)
{
	struct file_lock *fl = lock_of(f);

	if (!fl)
		return;
	list_del(&fl->link);
	nr_file_locks--;
	kfree(fl);
	count_unlock();
	wake_up(&flock_wait);
}

/*
 * Give f a lock of this kind, waiting for conflicting ones to go unless
 * nonblock. flock's lock held; the wait lets go of it meanwhile (the BKL by
 * sleeping with it, flock_mutex by unlocking), so the list is looked at again.
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
		r = wait_for_unlock(f, exclusive);
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

/* One flock() command on f. flock's lock held. */
static long flock_cmd(struct file *f, unsigned cmd, bool nonblock)
{
	switch (cmd) {
	case LOCK_SH:
		return lock_file(f, false, nonblock);
	case LOCK_EX:
		return lock_file(f, true, nonblock);
	case LOCK_UN:
		unlock_file(f);
		return 0;
	default:
		return -EINVAL;
	}
}

long sys_flock(int fd, unsigned cmd)
{
	bool nonblock = cmd & LOCK_NB;
	struct file *f;
	long r;

	f = fd_get(fd);
	if (!f)
		return -EBADF;
	/* LAB10: BEGIN sys-flock */
	mutex_lock(&flock_mutex);
	r = flock_cmd(f, cmd & ~LOCK_NB, nonblock);
	mutex_unlock(&flock_mutex);
	/* LAB10: END */
	fput(f);
	return r;
}

void flock_release_file(struct file *f)
{
	/*
	 * Called by the last fput(): nobody else can reach f now, so the flag
	 * can be read without flock's lock, and most closes never take it.
	 */
	if (!f->f_flocked)
		return;
	/* LAB10: BEGIN release */
	mutex_lock(&flock_mutex);
	unlock_file(f);
	mutex_unlock(&flock_mutex);
	/* LAB10: END */
}

void flock_init(void)
{
	wait_queue_init(&flock_wait, "flock_wait");
}

int flock_count(void)
{
	return READ_ONCE(nr_file_locks);
}
