/*
 * What the two halves of the pipe code share (fs/pipe/pipe.c: the ring,
 * read and write, anonymous pipes; fs/pipe/fifo.c: named pipes). Not for
 * anyone else: the rest of the kernel knows pipes through fs/pipe/pipe.h.
 */
#ifndef FS_PIPE_PIPE_INTERNAL_H
#define FS_PIPE_PIPE_INTERNAL_H

#include "fs/file.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/uapi/fcntl.h"

struct pipe {
	/* Protects everything below. Held across user copies: it sleeps. */
	struct mutex mutex;
	char *ring;                     /* PIPE_SIZE bytes */
	size_t head;                    /* index of the oldest byte */
	size_t count;                   /* bytes in the ring */
	int readers, writers;           /* open files at each end (an O_RDWR file is at both) */
	/*
	 * FIFOs only: opens ever made at each end, so that an open waiting for
	 * the other end sees it arrive even if it has already gone again.
	 */
	unsigned reader_opens, writer_opens;
	struct inode *fifo;             /* the named inode whose i_pipe this is, or NULL */
	struct wait_queue open_wait;    /* FIFO opens waiting for the other end */
	/*
	 * Who is about to sleep, so a wakeup is sent only when it can help: a
	 * reader waits for any byte; a writer for `want` bytes of room (n for
	 * an atomic write, else 1), and wr_need is the least want of the
	 * writers that went to sleep since the last wakeup (0: none). Without
	 * this every small read would wake every sleeping writer, only for
	 * most of them to go back to sleep, all through one wait-queue lock.
	 */
	bool rd_sleeping;
	size_t wr_need;
	struct wait_queue rd_wait;      /* readers waiting for bytes or for the last writer to go */
	struct wait_queue wr_wait;      /* writers waiting for room or for the last reader to go */
};

/* Which ends a file holds: its access mode says (an O_RDWR FIFO file holds both). */
static inline bool reads(const struct file *f) { return (f->f_flags & O_ACCMODE) != O_WRONLY; }
static inline bool writes(const struct file *f) { return (f->f_flags & O_ACCMODE) != O_RDONLY; }

/* A new pipe with an empty ring and no ends, or NULL. */
struct pipe *pipe_alloc(void);
void pipe_free(struct pipe *p);

/* The file methods both kinds share (f->private_data is the pipe). */
ssize_t pipe_read(struct file *f, char *ubuf, size_t n, loff_t *pos);
ssize_t pipe_write(struct file *f, const char *ubuf, size_t n, loff_t *pos);
int pipe_nread(struct file *f);
unsigned pipe_poll(struct file *f);
loff_t pipe_llseek(struct file *f, loff_t offset, int whence);
int pipe_release(struct inode *inode, struct file *f);

/* fs/pipe/fifo.c: a FIFO file's last close (pipe_release sends it there). */
int fifo_release(struct pipe *p, struct file *f);

#endif
