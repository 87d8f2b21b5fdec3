/*
 * The descriptor table of each process, and the calls that work on
 * descriptors only: close, dup, dup2, dup3, fcntl.
 */
#include "fs/fdtable.h"

#include "fs/file.h"
#include "kernel/locking/atomic.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"

/* F_SETFL may change only these; the access mode and creation flags stay as open() set them. */
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_NOATIME | O_DIRECT)

static bool cloexec_test(struct fdtable *t, int fd)
{
	return t->cloexec[fd / 32] & (1u << (fd % 32));
}

static void cloexec_set(struct fdtable *t, int fd, bool on)
{
	if (on)
		t->cloexec[fd / 32] |= 1u << (fd % 32);
	else
		t->cloexec[fd / 32] &= ~(1u << (fd % 32));
}

struct fdtable *fdtable_alloc(void)
{
	struct fdtable *t = kzalloc(sizeof(*t));

	if (t) {
		atomic_set(&t->refs, 1);
		spin_lock_init(&t->lock, "fdtable");
	}
	return t;
}

struct fdtable *fdtable_fork(struct fdtable *parent)
{
	struct fdtable *t = fdtable_alloc();

	if (!t)
		return NULL;
	spin_lock(&parent->lock);
	for (int fd = 0; fd < FD_MAX; fd++)
		if (parent->fd[fd])
			t->fd[fd] = fget_ref(parent->fd[fd]);
	memcpy(t->cloexec, parent->cloexec, sizeof(t->cloexec));
	spin_unlock(&parent->lock);
	return t;
}

/* Take out every descriptor for which drop(t, fd) says so, then fput them without the lock. */
static void close_matching(struct fdtable *t, bool (*drop)(struct fdtable *t, int fd))
{
	for (int fd = 0; fd < FD_MAX; fd++) {
		struct file *f = NULL;

		spin_lock(&t->lock);
		if (t->fd[fd] && drop(t, fd)) {
			f = t->fd[fd];
			t->fd[fd] = NULL;
			cloexec_set(t, fd, false);
		}
		spin_unlock(&t->lock);
		/* release() may sleep (a driver, a pipe's wake-ups): never under the spinlock. */
		if (f)
			fput(f);
	}
}

static bool always(struct fdtable *t, int fd)
{
	return true;
}

struct fdtable *fdtable_get(struct fdtable *t)
{
	atomic_inc(&t->refs);
	return t;
}

void fdtable_free(struct fdtable *t)
{
	if (!t || !atomic_dec_and_test(&t->refs))
		return;
	close_matching(t, always);
	kfree(t);
}

void fdtable_exec(struct fdtable *t)
{
	if (t)
		close_matching(t, cloexec_test);
}

void fdtable_set(struct fdtable *t, int fd, struct file *f)
{
	spin_lock(&t->lock);
	t->fd[fd] = f;
	spin_unlock(&t->lock);
}

/* Lowest free slot >= minfd; needs t->lock. */
static int lowest_free(struct fdtable *t, int minfd)
{
	for (int fd = minfd; fd < FD_MAX; fd++)
		if (!t->fd[fd])
			return fd;
	return -EMFILE;
}

int fd_install(struct file *f, int minfd, bool cloexec)
{
	struct fdtable *t = current->files;
	int fd;

	if (!t)
		return -EMFILE;
	spin_lock(&t->lock);
	fd = lowest_free(t, minfd);
	if (fd >= 0) {
		t->fd[fd] = f;
		cloexec_set(t, fd, cloexec);
	}
	spin_unlock(&t->lock);
	return fd;
}

struct file *fd_get(int fd)
{
	struct fdtable *t = current->files;
	struct file *f = NULL;

	if (!t || fd < 0 || fd >= FD_MAX)
		return NULL;
	spin_lock(&t->lock);
	if (t->fd[fd])
		f = fget_ref(t->fd[fd]);
	spin_unlock(&t->lock);
	return f;
}

int fd_close(int fd)
{
	struct fdtable *t = current->files;
	struct file *f = NULL;

	if (!t || fd < 0 || fd >= FD_MAX)
		return -EBADF;
	spin_lock(&t->lock);
	f = t->fd[fd];
	t->fd[fd] = NULL;
	cloexec_set(t, fd, false);
	spin_unlock(&t->lock);
	if (!f)
		return -EBADF;
	fput(f);
	return 0;
}

int fd_dup_to(int oldfd, int newfd, bool cloexec)
{
	struct fdtable *t = current->files;
	struct file *f, *old = NULL;

	if (!t || oldfd < 0 || oldfd >= FD_MAX || newfd < 0 || newfd >= FD_MAX)
		return -EBADF;
	spin_lock(&t->lock);
	f = t->fd[oldfd];
	if (!f) {
		spin_unlock(&t->lock);
		return -EBADF;
	}
	if (oldfd != newfd) {
		old = t->fd[newfd];
		t->fd[newfd] = fget_ref(f);
	}
	cloexec_set(t, newfd, cloexec);
	spin_unlock(&t->lock);
	if (old)
		fput(old);
	return newfd;
}

int fd_get_cloexec(int fd)
{
	struct fdtable *t = current->files;
	int r = -EBADF;

	if (!t || fd < 0 || fd >= FD_MAX)
		return -EBADF;
	spin_lock(&t->lock);
	if (t->fd[fd])
		r = cloexec_test(t, fd) ? 1 : 0;
	spin_unlock(&t->lock);
	return r;
}

int fd_set_cloexec(int fd, bool on)
{
	struct fdtable *t = current->files;
	int r = -EBADF;

	if (!t || fd < 0 || fd >= FD_MAX)
		return -EBADF;
	spin_lock(&t->lock);
	if (t->fd[fd]) {
		cloexec_set(t, fd, on);
		r = 0;
	}
	spin_unlock(&t->lock);
	return r;
}

/* ---- the system calls ------------------------------------------------------------------ */

long sys_close(int fd)
{
	return fd_close(fd);
}

/* dup(): the lowest free descriptor names the same open file (close-on-exec clear). */
static long dup_from(int oldfd, int minfd, bool cloexec)
{
	struct file *f = fd_get(oldfd);
	int fd;

	if (!f)
		return -EBADF;
	fd = fd_install(f, minfd, cloexec);
	if (fd < 0)
		fput(f);
	return fd;
}

long sys_dup(int oldfd)
{
	return dup_from(oldfd, 0, false);
}

long sys_dup2(int oldfd, int newfd)
{
	/* dup2(fd, fd) checks fd and changes nothing, close-on-exec included. */
	if (oldfd == newfd) {
		struct file *f = fd_get(oldfd);

		if (!f)
			return -EBADF;
		fput(f);
		return newfd;
	}
	return fd_dup_to(oldfd, newfd, false);
}

long sys_dup3(int oldfd, int newfd, int flags)
{
	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	return fd_dup_to(oldfd, newfd, flags & O_CLOEXEC);
}

long sys_fcntl64(int fd, int cmd, unsigned long arg)
{
	struct file *f;
	long r;

	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if ((long)arg < 0 || arg >= FD_MAX)
			return fd_get_cloexec(fd) < 0 ? -EBADF : -EINVAL;
		return dup_from(fd, (int)arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		r = fd_get_cloexec(fd);
		return r < 0 ? r : (r ? FD_CLOEXEC : 0);
	case F_SETFD:
		return fd_set_cloexec(fd, arg & FD_CLOEXEC);
	case F_GETFL:
	case F_SETFL:
		f = fd_get(fd);
		if (!f)
			return -EBADF;
		if (cmd == F_GETFL) {
			r = (long)READ_ONCE(f->f_flags);
		} else {
			unsigned old = READ_ONCE(f->f_flags), new;

			/* Compare-and-swap: a FIONBIO on another CPU meanwhile is not lost. */
			do
				new = (old & ~SETFL_MASK) | ((unsigned)arg & SETFL_MASK);
			while (!__atomic_compare_exchange_n(&f->f_flags, &old, new, false,
							    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
			r = 0;
		}
		fput(f);
		return r;
	default:
		return fd_get_cloexec(fd) < 0 ? -EBADF : -EINVAL;
	}
}
