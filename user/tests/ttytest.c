/*
 * /bin/ttytest: the console tty with a person at the keyboard. Booted as
 * init; tools/test/cases/47_ioctl.py types at each "ttytest: type ..." prompt.
 * Canonical editing (erase, word erase) and ^D, a raw read that edits
 * nothing, job control (TIOCSCTTY, TIOCSPGRP and their errors, /dev/tty),
 * and ^C, which must reach the foreground group and nobody else.
 */
#include "gtest.h"

#include "kernel/uapi/termios.h"


static void prompt(const char *what)
{
	printf("ttytest: type %s\n", what);
}

static void t_controlling_tty(void)
{
	int pgrp = -1, sid = -1, fd, pid;

	CHECK(gt_ioctl(0, TIOCGPGRP, &pgrp) == -ENOTTY);         /* not our terminal yet */
	CHECK(gt_ioctl(0, TIOCSCTTY, 0) == 0);                    /* init leads a session: it may */
	CHECK(gt_ioctl(0, TIOCSCTTY, 0) == 0);                    /* already ours: fine */
	CHECK(gt_ioctl(0, TIOCGPGRP, &pgrp) == 0 && pgrp == SYS0(__NR_getpgrp));
	CHECK(gt_ioctl(0, TIOCGSID, &sid) == 0 && sid == SYS0(__NR_getpid));
	CHECK(gt_ioctl(0, TIOCGPGRP, BAD_UNMAP) == -EFAULT);
	pgrp = -5;
	CHECK(gt_ioctl(0, TIOCSPGRP, &pgrp) == -EINVAL);
	pgrp = 31999;
	CHECK(gt_ioctl(0, TIOCSPGRP, &pgrp) == -ESRCH);
	CHECK((fd = (int)SYS2(__NR_open, "/dev/tty", O_RDWR)) >= 0);      /* our terminal, by its other name */
	CHECK(gt_write(fd, "ttytest: hello through /dev/tty\n", 32) == 32);
	gt_close(fd);
	if ((pid = gt_fork()) == 0) {
		/* A child is no session leader: it may not take a terminal. In a new session it has none. */
		if (gt_ioctl(0, TIOCSCTTY, 0) != -EPERM)
			gt_exit(1);
		if (SYS0(__NR_setsid) < 0)
			gt_exit(2);
		if (SYS2(__NR_open, "/dev/tty", O_RDWR) != -ENXIO)
			gt_exit(3);
		pgrp = (int)SYS0(__NR_getpid);
		if (gt_ioctl(0, TIOCSPGRP, &pgrp) != -ENOTTY)     /* not its terminal */
			gt_exit(4);
		gt_exit(0);
	}
	CHECK(gt_wait(pid) == 0);
}

static void t_canonical_editing(void)
{
	char buf[64];
	long n;

	prompt("a line");
	n = gt_read(0, buf, sizeof(buf) - 1);
	CHECK(n > 0);
	buf[n] = 0;
	printf("ttytest: read %ld bytes: %s", n, buf);
	CHECK(n == 11 && strcmp(buf, "helo world\n") == 0);      /* typed: hel<DEL>lo wor^Wworld<CR> */
	prompt("^D");
	CHECK(gt_read(0, buf, sizeof(buf)) == 0);                  /* end of file on an empty line */
}

static void t_raw_read(void)
{
	struct termios saved, raw;
	char buf[16];
	long n;

	CHECK(gt_ioctl(0, TCGETS, &saved) == 0);
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 3;
	raw.c_cc[VTIME] = 0;
	CHECK(gt_ioctl(0, TCSETSF, &raw) == 0);
	prompt("3 raw bytes");
	n = gt_read(0, buf, sizeof(buf));
	CHECK(gt_ioctl(0, TCSETS, &saved) == 0);
	CHECK(n == 3 && buf[0] == 'a' && buf[1] == 0x7F && buf[2] == 'b');     /* DEL did not erase */
	printf("ttytest: raw read %ld bytes\n", n);
}

/* ^C kills the foreground job and only it: a bystander in the background group survives. */
static void t_ctrl_c_reaches_foreground_only(void)
{
	struct gt_timespec forever = { 60, 0 };
	struct k_sigaction ignore = { SIG_IGN, 0, 0, 0 };
	int job, bystander, mine = (int)SYS0(__NR_getpgrp), st_job, st_by;

	if ((bystander = gt_fork()) == 0) {
		SYS2(__NR_nanosleep, &forever, 0);
		gt_exit(0);
	}
	if ((job = gt_fork()) == 0) {
		SYS2(__NR_setpgid, 0, 0);
		SYS2(__NR_nanosleep, &forever, 0);
		gt_exit(0);
	}
	CHECK(job > 0 && bystander > 0);
	SYS2(__NR_setpgid, job, job);                              /* no race with the child's own call */
	CHECK(gt_ioctl(0, TIOCSPGRP, &job) == 0);
	prompt("^C");
	st_job = gt_wait(job);
	/*
	 * Taking the terminal back from the background: as a shell does, with
	 * SIGTTOU ignored, or Linux's tty_check_change stops us (or, our group
	 * being orphaned, answers -EIO).
	 */
	CHECK(SYS4(__NR_rt_sigaction, SIGTTOU, &ignore, 0, 8) == 0);
	CHECK(gt_ioctl(0, TIOCSPGRP, &mine) == 0);
	CHECK(SYS2(__NR_kill, bystander, 0) == 0);                /* still alive */
	SYS2(__NR_kill, bystander, SIGTERM);
	st_by = gt_wait(bystander);
	printf("ttytest: job status 0x%x, bystander status 0x%x\n", st_job, st_by);
	CHECK((st_job & 0x7F) == SIGINT);
	CHECK((st_by & 0x7F) == SIGTERM);
}

int main(void)
{
	gt_start("ttytest");
	gt_run("controlling-tty", t_controlling_tty);
	gt_run("canonical-editing", t_canonical_editing);
	gt_run("raw-read", t_raw_read);
	gt_run("ctrl-c-reaches-foreground-only", t_ctrl_c_reaches_foreground_only);
	gt_finish();
}
