/*
 * Pipes.
 *
 * A pipe is a ring of PIPE_SIZE bytes on an anonymous inode, with two open
 * files on it: one reads, one writes. fork() and dup() share those files, so
 * a pipe counts the files at each end (readers, writers), not the descriptors.
 *
 * The rules, as POSIX and Linux give them:
 *  - read() returns what is there (up to n bytes), sleeps while the pipe is
 *    empty and has writers, and returns 0 (end of file) once it is empty and
 *    has none;
 *  - write() of n <= PIPE_BUF bytes is atomic: it waits until all n fit and
 *    copies them in one go, so writers never interleave inside it. A larger
 *    write goes in as space appears and may interleave;
 *  - with no readers left, write() fails with EPIPE and sends SIGPIPE;
 *  - O_NONBLOCK turns every "would sleep" into EAGAIN (after a partial
 *    large write, the count so far);
 *  - the ring lives as long as the inode, which lives as long as either
 *    file: the last close of both ends frees it (pipe_evict).
 *
 * A named pipe (FIFO: mknod S_IFIFO, mkfifo) is the same pipe reached by a
 * name in a file system; fs/pipe/fifo.c says how its ends meet.
 *
 * Locking: pipe->mutex (sleeping, since copies to and from user memory may
 * fault and sleep) protects the ring and the counts. A task that must wait
 * says so under the mutex (rd_sleeping, wr_need), drops it and sleeps on
 * rd_wait / wr_wait; the other side wakes it only when that can help. The
 * BKL is never involved: pipes had their own lock long before 2.6.
 */
#include "fs/pipe/pipe.h"
#include "fs/pipe/pipe_internal.h"

#include "fs/fdtable.h"
#include "fs/file.h"
#include "kernel/syscall/handlers.h"
#include "fs/inode.h"
#include "kernel/locking/atomic.h"
#include "kernel/errno.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/locking/mutex.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/signal/signal.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/poll.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/signal.h"
#include "kernel/uapi/stat.h"
#include "kernel/sched/waitqueue.h"


static atomic_t pipes_alive;

int pipe_count(void)
{
	return atomic_read(&pipes_alive);
}

/* ---- the ring (pipe->mutex held) ------------------------------------------------- */

/*
 * Copy n bytes from the user buffer into the ring after the last byte, in at
 * most two pieces (the ring wraps). The count grows only if every byte
 * arrived: a fault leaves the pipe as it was.
 */
static int ring_put(struct pipe *p, const char *ubuf, size_t n)
{
	size_t tail = (p->head + p->count) % PIPE_SIZE;
	size_t first = MIN(n, PIPE_SIZE - tail);

	if (copy_from_user(p->ring + tail, ubuf, first) < 0)
		return -EFAULT;
	if (n > first && copy_from_user(p->ring, ubuf + first, n - first) < 0)
		return -EFAULT;
	p->count += n;
	return 0;
}

/* Copy the n oldest bytes to the user buffer; they leave the ring only if the copy succeeded. */
static int ring_get(struct pipe *p, char *ubuf, size_t n)
{
	size_t first = MIN(n, PIPE_SIZE - p->head);

	if (copy_to_user(ubuf, p->ring + p->head, first) < 0)
		return -EFAULT;
	if (n > first && copy_to_user(ubuf + first, p->ring, n - first) < 0)
		return -EFAULT;
	p->head = (p->head + n) % PIPE_SIZE;
	p->count -= n;
	return 0;
}

/* ---- read and write ---------------------------------------------------------------- */

static bool pipe_readable(struct pipe *p)
{
	return READ_ONCE(p->count) > 0 || READ_ONCE(p->writers) == 0;
}

/* Room for want bytes, or no reader left to wait for. */
static bool pipe_writable(struct pipe *p, size_t want)
{
	return PIPE_SIZE - READ_ONCE(p->count) >= want || READ_ONCE(p->readers) == 0;
}

/*
 * Sleep once on wq, unless ready already holds (the rule of waitqueue.h:
 * queue, then test, then sleep). The caller has registered itself as a
 * sleeper under the mutex and dropped it; it takes the mutex again and
 * checks again afterwards, whatever woke it. -ERESTARTSYS if a signal is
 * pending or the task is being killed: the signal code makes that -EINTR, or
 * restarts the call under SA_RESTART (kernel/sched/waitqueue.h).
 */
#define pipe_sleep(wq, ready)                                                   \
	({                                                                      \
		struct waiter w_ = { .task = 0 };                               \
		might_sleep();                                                  \
		prepare_to_wait(&(wq), &w_);                                    \
		if (!(ready) && !task_signal_pending())                         \
			schedule();                                             \
		finish_wait(&(wq), &w_);                                        \
		task_signal_pending() ? -ERESTARTSYS : 0;                       \
	})

/*
 * A sleeper registers (rd_sleeping, wr_need) under the mutex but queues
 * itself after dropping it, so the other side may clear the registration
 * and send its wake-up in between, to nobody. Another task on the same end
 * may then take the bytes or the room that wake-up was for: the late
 * sleeper's condition is false again, and with its registration gone no
 * later wake-up would come (the likely cause of a pipetest hang, four
 * writers and one reader, seen once). So a sleeper also wakes when its
 * registration is gone (wr_need 0, rd_sleeping false): a wake-up went by;
 * it goes round and registers again.
 */

/* After a read made room (mutex held): should the sleeping writers be woken? */
static bool writers_to_wake(struct pipe *p)
{
	if (p->wr_need == 0 || PIPE_SIZE - p->count < p->wr_need)
		return false;
	p->wr_need = 0;         /* they all wake; any that still cannot write registers again */
	return true;
}

/* After a write added bytes (mutex held): should the sleeping readers be woken? */
static bool readers_to_wake(struct pipe *p)
{
	bool wake = p->rd_sleeping;

	p->rd_sleeping = false;
	return wake;
}

ssize_t pipe_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct pipe *p = f->private_data;
	ssize_t ret;
	bool wake;

	if (n == 0)
		return 0;
	for (;;) {
		mutex_lock(&p->mutex);
		if (p->count > 0) {
			size_t take = MIN(n, p->count);

			ret = ring_get(p, ubuf, take);
			if (ret == 0)
				ret = take;
			wake = writers_to_wake(p);
			mutex_unlock(&p->mutex);
			if (wake)
				wake_up(&p->wr_wait);
			return ret;
		}
		if (p->writers == 0) {
			mutex_unlock(&p->mutex);
			return 0;       /* end of file */
		}
		if (READ_ONCE(f->f_flags) & O_NONBLOCK) {
			mutex_unlock(&p->mutex);
			return -EAGAIN;
		}
		p->rd_sleeping = true;
		mutex_unlock(&p->mutex);
		if (pipe_sleep(p->rd_wait, pipe_readable(p) || !READ_ONCE(p->rd_sleeping)) < 0)
			return -ERESTARTSYS;    /* nothing read yet: safe to restart */
	}
}

/*
 * Write as much of the n bytes as the rules allow: all n at once if n <= PIPE_BUF,
 * otherwise in pieces as room appears. Returns bytes written, or -errno if none were.
 */
ssize_t pipe_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	struct pipe *p = f->private_data;
	bool atomic = n <= PIPE_BUF, wake;
	size_t want = atomic ? n : 1, done = 0;
	int err = 0;

	if (n == 0)
		return 0;
	while (done < n) {
		size_t room, chunk;

		mutex_lock(&p->mutex);
		if (p->readers == 0) {
			mutex_unlock(&p->mutex);
			signal_send(current, SIGPIPE);
			err = -EPIPE;
			break;
		}
		room = PIPE_SIZE - p->count;
		chunk = MIN(room, n - done);
		if (chunk >= want) {
			err = ring_put(p, ubuf + done, chunk);
			wake = err == 0 && readers_to_wake(p);
			mutex_unlock(&p->mutex);
			if (err)
				break;
			done += chunk;
			if (wake)
				wake_up(&p->rd_wait);
			continue;
		}
		if (READ_ONCE(f->f_flags) & O_NONBLOCK) {
			mutex_unlock(&p->mutex);
			err = -EAGAIN;
			break;
		}
		if (p->wr_need == 0 || want < p->wr_need)
			p->wr_need = want;
		mutex_unlock(&p->mutex);
		if (pipe_sleep(p->wr_wait, pipe_writable(p, want) || !READ_ONCE(p->wr_need)) < 0) {
			err = -ERESTARTSYS;     /* a partial write returns its count instead */
			break;
		}
	}
	return done > 0 ? (ssize_t)done : err;
}

/* FIONREAD: the bytes a read() would return now. */
int pipe_nread(struct file *f)
{
	struct pipe *p = f->private_data;

	return (int)READ_ONCE(p->count);
}


/* poll: a read end is ready with data or with no writers left; a write end with room or no readers. */
unsigned pipe_poll(struct file *f)
{
	struct pipe *p = f->private_data;
	size_t count = READ_ONCE(p->count);
	unsigned mask = 0;

	if (reads(f)) {
		if (count > 0)
			mask |= POLLIN | POLLRDNORM;
		if (READ_ONCE(p->writers) == 0)
			mask |= POLLHUP;
	}
	if (writes(f)) {
		if (PIPE_SIZE - count >= PIPE_BUF)
			mask |= POLLOUT | POLLWRNORM;
		if (READ_ONCE(p->readers) == 0)
			mask |= POLLERR;
	}
	return mask;
}

loff_t pipe_llseek(struct file *f, loff_t offset, int whence)
{
	return -ESPIPE;
}

/* ---- the ends and the pipe's life ---------------------------------------------------- */

/* The last reference to one end's file went: that end is closed; wake the other side. */
int pipe_release(struct inode *inode, struct file *f)
{
	struct pipe *p = f->private_data;

	if (p->fifo)
		return fifo_release(p, f);
	mutex_lock(&p->mutex);
	if (reads(f))
		p->readers--;
	if (writes(f))
		p->writers--;
	mutex_unlock(&p->mutex);
	/* Readers see end of file, writers see EPIPE. */
	wake_up(&p->rd_wait);
	wake_up(&p->wr_wait);
	return 0;
}

/* Both ends are closed and the inode's last reference has gone: free the ring. */
static void pipe_evict(struct inode *inode)
{
	struct pipe *p = inode->i_private;

	if (p->readers || p->writers)
		panic("pipe: evicted with %d readers and %d writers", p->readers, p->writers);
	pipe_free(p);
	inode_free(inode);
}

static const struct inode_operations pipe_iops = {
	.evict = pipe_evict,
};

static const struct file_operations pipe_read_fops = {
	.name = "pipe",
	.read = pipe_read,
	.release = pipe_release,
	.llseek = pipe_llseek,
	.nread = pipe_nread,
	.poll = pipe_poll,
};

static const struct file_operations pipe_write_fops = {
	.name = "pipe",
	.write = pipe_write,
	.release = pipe_release,
	.llseek = pipe_llseek,
	.nread = pipe_nread,
	.poll = pipe_poll,
};

struct pipe *pipe_alloc(void)
{
	struct pipe *p = kzalloc(sizeof(*p));

	if (!p)
		return NULL;
	p->ring = kmalloc(PIPE_SIZE);
	if (!p->ring) {
		kfree(p);
		return NULL;
	}
	mutex_init(&p->mutex, "pipe");
	wait_queue_init(&p->rd_wait, "pipe readers");
	wait_queue_init(&p->wr_wait, "pipe writers");
	wait_queue_init(&p->open_wait, "fifo opens");
	atomic_inc(&pipes_alive);
	return p;
}

void pipe_free(struct pipe *p)
{
	/*
	 * An end still counted in: a FIFO's last close and a first open both
	 * thought they owned it (fs/pipe/fifo.c's locking). Keep it: the opener uses it.
	 */
	if (p->readers || p->writers) {
		printk("BUG: pipe: freed with %d readers and %d writers still attached\n", p->readers, p->writers);
		return;
	}
	kfree(p->ring);
	kfree(p);
	atomic_dec(&pipes_alive);
}

int pipe_create(unsigned flags, struct file **rd, struct file **wr)
{
	struct inode *inode;
	struct pipe *p;
	int err;

	p = pipe_alloc();
	if (!p)
		return -ENOMEM;
	/* Counted before either file exists, so a failed open cannot make them negative. */
	p->readers = 1;
	p->writers = 1;
	inode = inode_alloc(NULL, S_IFIFO | 0600);
	if (!inode) {
		p->readers = p->writers = 0;
		pipe_free(p);
		return -ENOMEM;
	}
	inode->i_op = &pipe_iops;
	inode->i_private = p;
	inode->i_flags |= I_DROP_UNUSED;

	/* Each file holds its own inode reference: the pipe lasts until both are gone. */
	igrab(inode);
	*rd = file_open_inode(inode, &pipe_read_fops, O_RDONLY | (flags & O_NONBLOCK), &err);
	if (!*rd) {
		p->readers = 0;
		goto out_rd;
	}
	(*rd)->private_data = p;
	*wr = file_open_inode(inode, &pipe_write_fops, O_WRONLY | (flags & O_NONBLOCK), &err);
	if (*wr)
		(*wr)->private_data = p;
	if (!*wr) {
		p->writers = 0;
		fput(*rd);      /* its release drops readers; its iput frees the pipe */
		return err;
	}
	return 0;

out_rd:
	/* file_open_inode dropped one reference; drop the other: pipe_evict frees the pipe. */
	p->writers = 0;
	iput(inode);
	return err;
}

/* ---- the system calls -------------------------------------------------------------------- */

long sys_pipe2(int *ufds, int flags)
{
	struct file *rd, *wr;
	bool cloexec = flags & O_CLOEXEC;
	int fds[2], err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = pipe_create(flags, &rd, &wr);
	if (err)
		return err;
	fds[0] = fd_install(rd, 0, cloexec);
	if (fds[0] < 0) {
		fput(rd);
		fput(wr);
		return fds[0];
	}
	fds[1] = fd_install(wr, 0, cloexec);
	if (fds[1] < 0) {
		fd_close(fds[0]);
		fput(wr);
		return fds[1];
	}
	/* As Linux: a bad array is found only now, and the new descriptors are taken back. */
	if (copy_to_user(ufds, fds, sizeof(fds)) < 0) {
		fd_close(fds[0]);
		fd_close(fds[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe(int *ufds)
{
	return sys_pipe2(ufds, 0);
}
