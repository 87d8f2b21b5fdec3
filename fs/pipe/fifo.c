/*
 * Named pipes (FIFOs): the pipe of fs/pipe/pipe.c reached by a name.
 *
 * A FIFO's inode lives in a file system (ramfs: mknod S_IFIFO, mkfifo) and
 * has no pipe until someone opens it: the first open makes one and hangs it
 * on inode->i_pipe, the last close takes it down with whatever was left in
 * it, as Linux does. The two ends meet at open(), by POSIX and Linux rules:
 *  - O_RDONLY waits until a writer has opened (with O_NONBLOCK: at once);
 *  - O_WRONLY waits until a reader has opened (with O_NONBLOCK and no
 *    reader: ENXIO);
 *  - O_RDWR never waits: the file is a reader and a writer at once (Linux's
 *    choice; POSIX leaves it undefined).
 * A waiting open sleeps interruptibly: a signal ends it with EINTR or
 * restarts it. It waits for the other end's count of opens to move, not for
 * the other end to be open now, so a partner that came and went at once
 * still lets it through (Linux's r_counter/w_counter).
 */
/* LAB11: BEGIN locking-rule */
/*
 * Locking: the inode's i_mutex protects i_pipe, and is held while an end
 * attaches or detaches, so that a last close and a first open cannot both
 * think they own the pipe; it is taken before the pipe's mutex, and never
 * held while an open waits for its partner. (docs/labs/lab11-lockdep-hunt.md:
 * the lab whose handout takes them the other way round on the last close.)
 */
/* LAB11: END */
#include "fs/pipe/pipe.h"
#include "fs/pipe/pipe_internal.h"

#include "fs/inode.h"
#include "kernel/locking/atomic.h"
#include "kernel/uapi/errno.h"

/*
 * Attach f's ends to the FIFO's pipe, making the pipe if this is the first
 * open. The counts of opens so far, in *seen (readers, writers), are taken
 * under the pipe's lock with our own attach: read after it, a partner that
 * opened, wrote and closed in between would be counted as seen, and its
 * open never waited for (Linux's wait_for_partner() compares against
 * r_counter/w_counter read under pipe->mutex too).
 */
static int fifo_attach(struct inode *inode, struct file *f, struct pipe **out, unsigned seen[2])
{
	unsigned acc = f->f_flags & O_ACCMODE;
	struct pipe *p;

	mutex_lock(&inode->i_mutex);
	p = inode->i_pipe;
	if (!p) {
		p = pipe_alloc();
		if (!p) {
			mutex_unlock(&inode->i_mutex);
			return -ENOMEM;
		}
		p->fifo = inode;
		inode->i_pipe = p;
	}
	mutex_lock(&p->mutex);
	if (acc == O_WRONLY && (f->f_flags & O_NONBLOCK) && p->readers == 0) {
		bool unused = p->writers == 0;

		mutex_unlock(&p->mutex);
		if (unused)
			inode->i_pipe = NULL;
		mutex_unlock(&inode->i_mutex);
		if (unused)
			pipe_free(p);
		return -ENXIO;
	}
	if (reads(f)) {
		p->readers++;
		p->reader_opens++;
	}
	if (writes(f)) {
		p->writers++;
		p->writer_opens++;
	}
	seen[0] = p->reader_opens;
	seen[1] = p->writer_opens;
	mutex_unlock(&p->mutex);
	mutex_unlock(&inode->i_mutex);
	wake_up(&p->open_wait);
	*out = p;
	return 0;
}

/* Take f's ends off the pipe; the last one frees it. */
static void fifo_detach(struct pipe *p, struct file *f)
{
	struct inode *inode = p->fifo;
	bool last;

	/* LAB11: BEGIN detach */
	/* The inode's lock first, as fifo_attach() takes it: an open that found p waits here, not inside p. */
	mutex_lock(&inode->i_mutex);
	mutex_lock(&p->mutex);
	if (reads(f))
		p->readers--;
	if (writes(f))
		p->writers--;
	last = p->readers == 0 && p->writers == 0;
	if (!last) {
		/* Readers see end of file, writers EPIPE; under the lock: once it goes, a last close frees p. */
		wake_up(&p->rd_wait);
		wake_up(&p->wr_wait);
	}
	mutex_unlock(&p->mutex);
	if (last)
		inode->i_pipe = NULL;
	mutex_unlock(&inode->i_mutex);
	/* LAB11: END */
	if (last)
		pipe_free(p);
}

static int fifo_open(struct inode *inode, struct file *f)
{
	unsigned acc = f->f_flags & O_ACCMODE;
	bool nonblock = f->f_flags & O_NONBLOCK;
	unsigned seen[2];               /* reader_opens, writer_opens as of our attach */
	struct pipe *p;
	int r;

	r = fifo_attach(inode, f, &p, seen);
	if (r < 0)
		return r;
	f->private_data = p;
	if (acc == O_RDONLY && !nonblock)
		r = wait_event_interruptible(p->open_wait, READ_ONCE(p->writers) > 0 ||
					     READ_ONCE(p->writer_opens) != seen[1]);
	else if (acc == O_WRONLY)
		r = wait_event_interruptible(p->open_wait, READ_ONCE(p->readers) > 0 ||
					     READ_ONCE(p->reader_opens) != seen[0]);
	if (r < 0)
		fifo_detach(p, f);      /* the open fails: file_open_inode frees f */
	return r;
}

int fifo_release(struct pipe *p, struct file *f)
{
	fifo_detach(p, f);
	return 0;
}

const struct file_operations fifo_fops = {
	.name = "fifo",
	.open = fifo_open,
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
	.llseek = pipe_llseek,
	.nread = pipe_nread,
	.poll = pipe_poll,
};
