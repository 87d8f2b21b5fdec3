/*
 * Terminals. A struct tty joins a device (how bytes go out, where typed
 * bytes come in) to the line discipline (drivers/tty/n_tty.c) and to job
 * control: the session it is the controlling terminal of, and that
 * session's foreground process group, which gets ^C's SIGINT.
 */
#ifndef DRIVERS_TTY_H
#define DRIVERS_TTY_H

#include "drivers/tty/n_tty.h"
#include "fs/file.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/waitqueue.h"

#define TTY_FLIP_SIZE 512       /* typed bytes waiting for the tty thread; a power of two */
#define TTY_WRITE_BATCH 128     /* user bytes given to output processing at a time */

/*
 * What a tty needs of its device to send bytes: a queue it can put bytes
 * into without sleeping, how much room that queue has, and where to sleep
 * until it has more.
 */
struct tty_device {
	/* Queue raw output (output processing is done). Never sleeps; must take n bytes. */
	void (*write)(const char *s, size_t n);
	/* How many bytes write() takes now without having to wait for the device. */
	uint32_t (*write_room)(void);
	/* Woken when write_room() has grown to at least `wakeup_room`. */
	struct wait_queue *(*write_wait)(void);
	uint32_t wakeup_room;
};

struct tty {
	const char *name;
	/* Protects ldisc, winsize, pgrp and session. Never taken in an interrupt. */
	spinlock_t lock;
	struct n_tty ldisc;
	struct winsize winsize;
	int session;                    /* the session this is the controlling tty of; 0: none */
	int pgrp;                       /* that session's foreground process group; 0: none */
	struct wait_queue read_wait;    /* readers, until the ldisc has something for them */
	const struct tty_device *dev;
	/*
	 * Held by a write() from start to end, so two writes never interleave
	 * (Linux's atomic_write_lock). A sleeping lock: a writer waiting for
	 * another leaves its CPU (and the BKL, if it has it) to others.
	 */
	struct mutex write_lock;
	/* Output processing collects a batch here (under lock) before it goes to the device. */
	char out_batch[2 * TTY_WRITE_BATCH];
	uint32_t out_len;
	bool batching;

	/*
	 * The flip buffer: typed bytes on their way from the interrupt to the
	 * tty thread, which runs the line discipline in process context (where
	 * it may send signals, which take proc_lock). Linux 2.6 did the same
	 * with its flip buffers and a work queue.
	 */
	spinlock_t flip_lock;           /* protects flip, flip_head, flip_tail; taken in the interrupt */
	char flip[TTY_FLIP_SIZE];
	uint32_t flip_head, flip_tail;  /* free-running */
	struct wait_queue flip_wait;    /* the tty thread sleeps here */
};

/* Set up tty on dev and start its input thread. */
void tty_init(struct tty *tty, const char *name, const struct tty_device *dev);
/* A typed byte, from the device's interrupt handler. */
void tty_receive_irq(struct tty *tty, char c);
/* The controlling tty of the current process's session, or NULL. */
struct tty *tty_of_current(void);
/*
 * Make tty the controlling terminal of the caller's session (TIOCSCTTY):
 * 0 if it is (or already was), -EPERM if the caller is no session leader,
 * has a terminal already, or another session has this one.
 */
int tty_acquire_ctty(struct tty *tty);

/*
 * Is the caller in a background group of tty, its controlling terminal,
 * trying to change it (or write, with TOSTOP)? Linux's tty_check_change: 0
 * if it may go on (foreground, not its terminal, or SIGTTOU ignored or
 * blocked); -EIO for an orphaned group; else SIGTTOU goes to its group, and
 * -ERESTARTSYS does the call again once the group is continued.
 */
int tty_check_change(struct tty *tty);

/*
 * The file methods every tty node uses; f->private_data is the tty. A
 * device's open() sets it and calls tty_open(), which makes the tty the
 * controlling terminal of a session leader that has none (unless O_NOCTTY).
 */
int tty_open(struct tty *tty, struct file *f, bool may_become_ctty);
ssize_t tty_read(struct file *f, char *ubuf, size_t n, loff_t *pos);
ssize_t tty_write(struct file *f, const char *ubuf, size_t n, loff_t *pos);
long tty_ioctl(struct file *f, unsigned cmd, unsigned long arg);
int tty_nread(struct file *f);
unsigned tty_poll(struct file *f);

#endif
