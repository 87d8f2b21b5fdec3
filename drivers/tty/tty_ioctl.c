/*
 * The tty ioctls, with Linux's numbers and answers (kernel/uapi/termios.h):
 * termios (TCGETS, TCSETS*), the window size, job control (TIOCSCTTY,
 * TIOCNOTTY, TIOCGPGRP, TIOCSPGRP, TIOCGSID) and TCFLSH. Anything else is
 * -ENOTTY, as for any file that is not a terminal.
 */
#include "drivers/tty/tty.h"

#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/pgrp.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/signal.h"
#include "kernel/uapi/termios.h"

static long get_termios(struct tty *tty, void *uarg)
{
	struct termios t;

	spin_lock(&tty->lock);
	t = tty->ldisc.termios;
	spin_unlock(&tty->lock);
	return copy_to_user(uarg, &t, sizeof(t)) < 0 ? -EFAULT : 0;
}

/* TCSETS: now; TCSETSW: after output drains (it never waits: output is synchronous); TCSETSF: also drop input. */
static long set_termios(struct tty *tty, unsigned cmd, const void *uarg)
{
	struct termios t;

	if (copy_from_user(&t, uarg, sizeof(t)) < 0)
		return -EFAULT;
	spin_lock(&tty->lock);
	if (cmd == TCSETSF)
		n_tty_flush_input(&tty->ldisc);
	n_tty_set_termios(&tty->ldisc, &t);
	spin_unlock(&tty->lock);
	wake_up(&tty->read_wait);       /* a new mode may make input readable */
	return 0;
}

static long set_winsize(struct tty *tty, const void *uarg)
{
	struct winsize ws;
	bool changed;
	int pgrp;

	if (copy_from_user(&ws, uarg, sizeof(ws)) < 0)
		return -EFAULT;
	spin_lock(&tty->lock);
	changed = memcmp(&ws, &tty->winsize, sizeof(ws)) != 0;
	tty->winsize = ws;
	pgrp = tty->pgrp;
	spin_unlock(&tty->lock);
	if (changed && pgrp > 0)
		pgrp_kill(pgrp, SIGWINCH);
	return 0;
}

static long get_winsize(struct tty *tty, void *uarg)
{
	struct winsize ws;

	spin_lock(&tty->lock);
	ws = tty->winsize;
	spin_unlock(&tty->lock);
	return copy_to_user(uarg, &ws, sizeof(ws)) < 0 ? -EFAULT : 0;
}

/* Is tty the controlling terminal of the caller? Job-control ioctls need that. */
static bool is_my_ctty(struct tty *tty)
{
	return current->sid > 0 && READ_ONCE(tty->session) == current->sid;
}

/* TIOCNOTTY: give up the terminal; a session leader takes it away from the whole session. */
static long drop_ctty(struct tty *tty)
{
	if (!is_my_ctty(tty))
		return -ENOTTY;
	if (current->sid == current->pid) {
		spin_lock(&tty->lock);
		tty->session = 0;
		tty->pgrp = 0;
		spin_unlock(&tty->lock);
	}
	return 0;
}

static long set_pgrp(struct tty *tty, const void *uarg)
{
	int pgrp, sid;

	if (!is_my_ctty(tty))
		return -ENOTTY;
	if (copy_from_user(&pgrp, uarg, sizeof(pgrp)) < 0)
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	sid = pgrp_session(pgrp);
	if (sid < 0)
		return -ESRCH;
	if (sid != current->sid)
		return -EPERM;
	spin_lock(&tty->lock);
	tty->pgrp = pgrp;
	spin_unlock(&tty->lock);
	return 0;
}

static long put_int(void *uarg, int v)
{
	return copy_to_user(uarg, &v, sizeof(v)) < 0 ? -EFAULT : 0;
}

static long flush(struct tty *tty, unsigned long which)
{
	if (which != TCIFLUSH && which != TCOFLUSH && which != TCIOFLUSH)
		return -EINVAL;
	if (which != TCOFLUSH) {
		spin_lock(&tty->lock);
		n_tty_flush_input(&tty->ldisc);
		spin_unlock(&tty->lock);
	}
	return 0;                       /* output is never queued: nothing to drop */
}

/* The ioctls that change the terminal: a background job is stopped first (tty_check_change). */
static bool changes_tty(unsigned cmd)
{
	return cmd == TCSETS || cmd == TCSETSW || cmd == TCSETSF || cmd == TIOCSPGRP || cmd == TCFLSH;
}

long tty_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	struct tty *tty = f->private_data;
	void *uarg = (void *)arg;
	long r;

	if (changes_tty(cmd) && (r = tty_check_change(tty)) < 0)
		return r;
	switch (cmd) {
	case TCGETS:
		return get_termios(tty, uarg);
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return set_termios(tty, cmd, uarg);
	case TIOCGWINSZ:
		return get_winsize(tty, uarg);
	case TIOCSWINSZ:
		return set_winsize(tty, uarg);
	case TIOCSCTTY:
		return tty_acquire_ctty(tty);
	case TIOCNOTTY:
		return drop_ctty(tty);
	case TIOCGPGRP:
		return is_my_ctty(tty) ? put_int(uarg, READ_ONCE(tty->pgrp)) : -ENOTTY;
	case TIOCSPGRP:
		return set_pgrp(tty, uarg);
	case TIOCGSID:
		return is_my_ctty(tty) ? put_int(uarg, READ_ONCE(tty->session)) : -ENOTTY;
	case TIOCOUTQ:
		return put_int(uarg, 0);
	case TCFLSH:
		return flush(tty, arg);
	default:
		return -ENOTTY;
	}
}
