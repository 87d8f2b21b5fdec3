/*
 * The tty layer: what every terminal has, whatever the device. Typed bytes
 * come from the device's interrupt into the flip buffer; a kernel thread
 * per tty feeds them to the line discipline and sends the signals it asks
 * for; read() sleeps until the discipline has a line (or bytes, in raw
 * mode); write() goes out through output processing; ioctl() reads and
 * sets the termios, the window size and job control.
 *
 * Job control in small, as Linux and POSIX have it: a tty is the
 * controlling terminal of at most one session (a session leader that
 * opens it, or asks with TIOCSCTTY), and that session's foreground group
 * (TIOCSPGRP) is the one ^C, ^\ and ^Z signal. The session's other
 * groups are in the background: reading stops them with SIGTTIN, and so
 * does writing (SIGTTOU) when TOSTOP is set, or changing the terminal's
 * settings (tty_check_change).
 */
#include "drivers/tty/tty.h"

#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/pgrp.h"
#include "kernel/printk.h"
#include "kernel/process/proc.h"
#include "kernel/signal/signal.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/poll.h"
#include "kernel/uapi/signal.h"
#include "kernel/uapi/termios.h"

#define MAX_TTYS 4
#define POLL_NS 10000000ULL             /* 10 ms: how often a timed raw read looks again */

static struct tty *ttys[MAX_TTYS];      /* written at boot only */
static int nttys;

/* ---- input: interrupt -> flip buffer -> tty thread -> line discipline ---- */

void tty_receive_irq(struct tty *tty, char c)
{
	spin_lock(&tty->flip_lock);
	/* Full: drop the byte, as a UART's FIFO does. */
	if (tty->flip_head - tty->flip_tail < TTY_FLIP_SIZE)
		tty->flip[tty->flip_head++ % TTY_FLIP_SIZE] = c;
	spin_unlock(&tty->flip_lock);
	wake_up(&tty->flip_wait);
}

static bool flip_take(struct tty *tty, char *c)
{
	uint32_t flags;
	bool got = false;

	spin_lock_irqsave(&tty->flip_lock, flags);
	if (tty->flip_head != tty->flip_tail) {
		*c = tty->flip[tty->flip_tail++ % TTY_FLIP_SIZE];
		got = true;
	}
	spin_unlock_irqrestore(&tty->flip_lock, flags);
	return got;
}

static bool flip_waiting(struct tty *tty)
{
	return READ_ONCE(tty->flip_head) != READ_ONCE(tty->flip_tail);
}

/* One typed byte through the line discipline; its signal goes to the foreground group. */
static void tty_receive(struct tty *tty, char c)
{
	int sig, pgrp;

	spin_lock(&tty->lock);
	sig = n_tty_receive(&tty->ldisc, c);
	pgrp = tty->pgrp;
	spin_unlock(&tty->lock);
	wake_up(&tty->read_wait);
	if (sig && pgrp > 0)
		pgrp_kill(pgrp, sig);
}

static int tty_input_thread(void *arg)
{
	struct tty *tty = arg;
	char c;

	for (;;) {
		wait_event(tty->flip_wait, flip_waiting(tty));
		while (flip_take(tty, &c))
			tty_receive(tty, c);
	}
	return 0;
}

/*
 * The line discipline's output (the tty lock is held): into the write()'s
 * batch while one is being built, else (an echo) straight to the device.
 */
static void ldisc_out(void *ctx, char c)
{
	struct tty *tty = ctx;

	if (tty->batching && tty->out_len < sizeof(tty->out_batch))
		tty->out_batch[tty->out_len++] = c;
	else
		tty->dev->write(&c, 1);
}

void tty_init(struct tty *tty, const char *name, const struct tty_device *dev)
{
	tty->name = name;
	spin_lock_init(&tty->lock, "tty");
	spin_lock_init(&tty->flip_lock, "tty flip");
	n_tty_init(&tty->ldisc, ldisc_out, tty);
	tty->winsize = (struct winsize){ .ws_row = 25, .ws_col = 80 };
	wait_queue_init(&tty->read_wait, "tty readers");
	wait_queue_init(&tty->flip_wait, "tty input");
	tty->dev = dev;
	mutex_init(&tty->write_lock, "tty write");
	if (nttys < MAX_TTYS)
		ttys[nttys++] = tty;
	if (!kthread_create(tty_input_thread, tty, "tty"))
		printk("tty: cannot start the input thread of %s\n", name);
}

/* ---- sessions ----------------------------------------------------------- */

struct tty *tty_of_current(void)
{
	int sid = current->sid;

	for (int i = 0; i < nttys; i++)
		if (sid > 0 && READ_ONCE(ttys[i]->session) == sid)
			return ttys[i];
	return NULL;
}

static bool is_session_leader(void)
{
	return current->sid == current->pid;
}

int tty_acquire_ctty(struct tty *tty)
{
	int r = 0, old;
	bool stale;

	if (!is_session_leader())
		return -EPERM;          /* only a session leader may, as in Linux */
	if (READ_ONCE(tty->session) == current->sid)
		return 0;               /* ours already */
	if (tty_of_current())
		return -EPERM;          /* it has another terminal */
	/*
	 * A session whose leader is gone no longer holds its terminal: Linux
	 * lets go at the leader's exit (disassociate_ctty); here the next
	 * session to ask finds it stale. (The leader's group, numbered like
	 * the session, has no live member any more.)
	 */
	old = READ_ONCE(tty->session);
	stale = old > 0 && old != current->sid && pgrp_session(old) != old;
	spin_lock(&tty->lock);
	if (tty->session && tty->session != current->sid && !(stale && tty->session == old))
		r = -EPERM;
	else {
		tty->session = current->sid;
		tty->pgrp = current->pgid;
	}
	spin_unlock(&tty->lock);
	return r;
}

int tty_open(struct tty *tty, struct file *f, bool may_become_ctty)
{
	f->private_data = tty;
	if (may_become_ctty && !(f->f_flags & O_NOCTTY) && is_session_leader() && !tty_of_current())
		tty_acquire_ctty(tty);  /* may fail: another session has it; the open still works */
	return 0;
}

/* ---- background jobs ------------------------------------------------------ */

/*
 * The caller's process group if it is in the background of tty, its
 * controlling terminal (0 if it is in the foreground, or tty is not its
 * terminal: then it may do anything, as Linux).
 */
static int background_pgrp(struct tty *tty)
{
	int fg = READ_ONCE(tty->pgrp), pgrp = current->pgid;

	if (current->sid <= 0 || READ_ONCE(tty->session) != current->sid)
		return 0;
	if (fg <= 0 || fg == pgrp)
		return 0;
	return pgrp;
}

/*
 * A background group may not take the terminal's input: SIGTTIN stops it
 * until the shell brings it to the foreground, and the read is done again
 * then (-ERESTARTSYS). A group that cannot be stopped (SIGTTIN ignored or
 * blocked) or that nobody could continue (orphaned) gets -EIO instead.
 * Linux's job_control() in n_tty.c.
 */
static int job_control_read(struct tty *tty)
{
	int pgrp = background_pgrp(tty);

	if (!pgrp)
		return 0;
	if (signal_ignored_or_blocked(current, SIGTTIN) || pgrp_orphaned(pgrp))
		return -EIO;
	pgrp_kill(pgrp, SIGTTIN);
	return -ERESTARTSYS;
}

int tty_check_change(struct tty *tty)
{
	int pgrp = background_pgrp(tty);

	if (!pgrp || signal_ignored_or_blocked(current, SIGTTOU))
		return 0;
	if (pgrp_orphaned(pgrp))
		return -EIO;
	pgrp_kill(pgrp, SIGTTOU);
	return -ERESTARTSYS;
}

/* ---- read and write ----------------------------------------------------- */

static uint32_t readable(struct tty *tty)
{
	uint32_t n;

	spin_lock(&tty->lock);
	n = n_tty_readable(&tty->ldisc);
	spin_unlock(&tty->lock);
	return n;
}

/*
 * How many bytes must be there before a read may return, and for how long
 * it waits (0: for ever) — the raw-mode VMIN/VTIME rules, simplified: with
 * VTIME, the timer runs from the start of the read, not between bytes.
 * Canonical mode needs one whole line.
 */
static void read_rule(struct tty *tty, size_t n, uint32_t *need, uint64_t *timeout_ns)
{
	const struct termios *t = &tty->ldisc.termios;

	*need = 1;
	*timeout_ns = 0;
	if (t->c_lflag & ICANON)
		return;
	*need = MIN((uint32_t)t->c_cc[VMIN], (uint32_t)n);
	*timeout_ns = (uint64_t)t->c_cc[VTIME] * 100000000ULL;
}

/* Sleep until `need` bytes are readable, the time is up, or a signal comes. */
static int wait_readable(struct tty *tty, struct file *f, uint32_t need, uint64_t timeout_ns)
{
	uint64_t deadline = clock_ns() + timeout_ns;

	if (readable(tty) >= need)
		return 0;
	if (f->f_flags & O_NONBLOCK)
		return -EAGAIN;
	if (!timeout_ns)
		return wait_event_interruptible(tty->read_wait, readable(tty) >= need);
	while (readable(tty) < need && clock_ns() < deadline) {
		if (task_signal_pending())
			return -ERESTARTSYS;
		sched_sleep_ns(POLL_NS);
	}
	return 0;
}

ssize_t tty_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct tty *tty = f->private_data;
	uint32_t need;
	uint64_t timeout_ns;
	char *kbuf;
	int r;

	if (n == 0)
		return 0;
	if (!access_ok(ubuf, n))
		return -EFAULT;
	if ((r = job_control_read(tty)) < 0)
		return r;
	n = MIN(n, (size_t)N_TTY_BUF_SIZE);
	spin_lock(&tty->lock);
	read_rule(tty, n, &need, &timeout_ns);
	spin_unlock(&tty->lock);
	if (need == 0 && timeout_ns == 0) {
		if (readable(tty) == 0)
			return 0;               /* VMIN = VTIME = 0: a poll */
		need = 1;
	}
	for (;;) {
		if ((r = wait_readable(tty, f, need ? need : 1, timeout_ns)) < 0)
			return r;
		if (!(kbuf = kmalloc(n)))
			return -ENOMEM;
		spin_lock(&tty->lock);
		r = n_tty_read(&tty->ldisc, kbuf, (uint32_t)n);
		spin_unlock(&tty->lock);
		if (r != -EAGAIN)
			break;
		kfree(kbuf);
		if (timeout_ns)
			return 0;               /* VTIME ran out with nothing typed */
		/* Another reader took the line first: wait again. */
	}
	if (r > 0 && copy_to_user(ubuf, kbuf, (size_t)r) < 0)
		r = -EFAULT;
	kfree(kbuf);
	return r;
}

/*
 * Output processing for buf[0..k) until the device has no room for more:
 * one character makes at most two bytes (ONLCR's \r\n), so a character is
 * taken only while two bytes fit. Returns how many characters went. The
 * batch goes to the device under the tty lock, so no echo slips into it.
 */
static size_t write_batch(struct tty *tty, const char *buf, size_t k)
{
	size_t i;
	uint32_t room;

	spin_lock(&tty->lock);
	room = tty->dev->write_room();
	tty->batching = true;
	tty->out_len = 0;
	for (i = 0; i < k && tty->out_len + 2 <= room; i++)
		n_tty_write_char(&tty->ldisc, buf[i]);
	tty->batching = false;
	tty->dev->write(tty->out_batch, tty->out_len);
	spin_unlock(&tty->lock);
	return i;
}

static bool device_has_room(struct tty *tty)
{
	return tty->dev->write_room() >= tty->dev->wakeup_room;
}

/*
 * write(): copy a batch in, process it, queue it on the device; when the
 * device is full, sleep until its interrupt has sent enough. Each sleep
 * is a point where a signal ends the write, which then returns the bytes
 * it wrote so far (or -ERESTARTSYS if none), as Linux's n_tty_write does;
 * and a BKL holder lets the lock go while it sleeps there.
 */
ssize_t tty_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	struct tty *tty = f->private_data;
	char buf[TTY_WRITE_BATCH];
	size_t done = 0;
	int r;

	/* TOSTOP: a background job's output stops it (SIGTTOU), as its reads do. */
	if (READ_ONCE(tty->ldisc.termios.c_lflag) & TOSTOP) {
		if ((r = tty_check_change(tty)) < 0)
			return r;
	}
	if (f->f_flags & O_NONBLOCK) {
		if (!mutex_trylock(&tty->write_lock))
			return -EAGAIN;         /* another write is going on (Linux's tty_write_lock) */
	} else if ((r = mutex_lock_interruptible(&tty->write_lock)) < 0) {
		return r;
	}
	while (done < n) {
		size_t k = MIN(n - done, sizeof(buf)), i = 0;

		if (copy_from_user(buf, ubuf + done, k) < 0) {
			r = -EFAULT;
			break;
		}
		while (i < k) {
			/* Between batches too, as Linux's n_tty_write: a device that never fills must not hide a signal. */
			if (task_signal_pending()) {
				r = -ERESTARTSYS;
				break;
			}
			if ((f->f_flags & O_NONBLOCK) && !device_has_room(tty)) {
				r = -EAGAIN;    /* O_NONBLOCK: what fitted, or EAGAIN if nothing did */
				break;
			}
			if ((r = wait_event_interruptible(*tty->dev->write_wait(), device_has_room(tty))) < 0)
				break;
			i += write_batch(tty, buf + i, k - i);
		}
		done += i;
		if (r < 0)
			break;
	}
	mutex_unlock(&tty->write_lock);
	return done ? (ssize_t)done : r;
}

int tty_nread(struct file *f)
{
	return (int)readable(f->private_data);
}

/* poll: readable when the line discipline has something for read(); writable when the device has room. */
unsigned tty_poll(struct file *f)
{
	struct tty *tty = f->private_data;

	return (readable(tty) ? POLLIN | POLLRDNORM : 0) |
	       (device_has_room(tty) ? POLLOUT | POLLWRNORM : 0);
}
