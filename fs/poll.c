/*
 * poll(2): wait until one of several files is ready.
 *
 * Each file says what is true now through f_op->poll (pipes, ttys; files
 * without one are always ready, as in Linux). smpix does not hang a waiter
 * on every file's wait queue, as Linux's poll_wait() does: it looks, and if
 * nothing is ready it naps 10 ms and looks again, until the timeout or a
 * signal. Simple and correct, at the price of up to 10 ms of latency and a
 * little work per nap; a reader who wants the real thing can follow
 * Linux's poll_table.
 */
#include "fs/fdtable.h"
#include "fs/file.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/handlers.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/poll.h"
#include "kernel/sched/waitqueue.h"

#define POLL_NAP_NS 10000000ULL
#define POLL_FDS_MAX 256                /* RLIMIT_NOFILE: more is -EINVAL, as Linux */
#define ALWAYS (POLLERR | POLLHUP | POLLNVAL)   /* reported whether asked for or not */

static short poll_one(int fd, short events)
{
	struct file *f;
	unsigned mask;

	if (fd < 0)
		return 0;               /* ignored, as Linux does: revents 0 */
	if (!(f = fd_get(fd)))
		return POLLNVAL;
	mask = f->f_op && f->f_op->poll ? f->f_op->poll(f) : POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM;
	fput(f);
	return (short)(mask & ((unsigned short)events | ALWAYS));
}

/* Fill in every revents; how many are non-zero. */
static int poll_all(struct pollfd *fds, unsigned n)
{
	int ready = 0;

	for (unsigned i = 0; i < n; i++) {
		fds[i].revents = poll_one(fds[i].fd, fds[i].events);
		ready += fds[i].revents != 0;
	}
	return ready;
}

long sys_poll(void *ufds, unsigned nfds, int timeout_ms)
{
	uint64_t deadline = clock_ns() + (timeout_ms > 0 ? (uint64_t)timeout_ms * 1000000 : 0);
	size_t size = (size_t)nfds * sizeof(struct pollfd);
	struct pollfd *fds;
	long r;

	if (nfds > POLL_FDS_MAX)
		return -EINVAL;
	if (!(fds = kmalloc(size ? size : 1)))
		return -ENOMEM;
	if (copy_from_user(fds, ufds, size) < 0) {
		kfree(fds);
		return -EFAULT;
	}
	for (;;) {
		r = poll_all(fds, nfds);
		if (r > 0 || timeout_ms == 0 || (timeout_ms > 0 && clock_ns() >= deadline))
			break;
		if (task_signal_pending()) {
			r = -EINTR;     /* poll is not restarted after a handler, as in Linux */
			break;
		}
		sched_sleep_ns(POLL_NAP_NS);
	}
	if (r >= 0 && copy_to_user(ufds, fds, size) < 0)
		r = -EFAULT;
	kfree(fds);
	return r;
}
