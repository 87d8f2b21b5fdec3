/*
 * /bin/pipetest: pipes, as POSIX and Linux define them. Every rule of fs/pipe/pipe.c
 * has a test here: EOF, EPIPE and SIGPIPE, PIPE_BUF atomicity, O_NONBLOCK,
 * pipe2's flags, FIONREAD, blocking on both sides, bad pointers and bad fds,
 * named pipes (FIFOs: how their ends meet at open), and pipes used from every
 * CPU at once.
 *
 * Built twice: for smpix (tools/test/cases/45_pipes.py boots it as init) and
 * with the host's `gcc -m32 -static -DLINUX_HOST` to run on Linux, which must
 * pass it too. Nothing here depends on the pipe's capacity (64 KiB on both).
 */
#include "gtest.h"

#define TCGETS 0x5401           /* a tty ioctl: a pipe is no tty */

static char buf[3 * PIPE_BUF];

static int make_pipe(int fds[2], int flags)
{
	return (int)SYS2(__NR_pipe2, fds, flags);
}

static int fionread(int fd)
{
	int n = -1;
	long r = SYS3(__NR_ioctl, fd, FIONREAD, &n);

	return r < 0 ? (int)r : n;
}

static int set_nonblock(int fd, bool on)
{
	long fl = SYS2(__NR_fcntl64, fd, F_GETFL);

	if (fl < 0)
		return (int)fl;
	return (int)SYS3(__NR_fcntl64, fd, F_SETFL, on ? (fl | O_NONBLOCK) : (fl & ~O_NONBLOCK));
}

/* Fill a non-blocking pipe with PIPE_BUF writes until it says EAGAIN: the bytes written. */
static long fill(int wfd)
{
	long total = 0, r;

	memset(buf, 'f', PIPE_BUF);
	while ((r = gt_write(wfd, buf, PIPE_BUF)) == PIPE_BUF)
		total += r;
	return r == -EAGAIN ? total : -1;
}

/* Read everything a non-blocking pipe holds: the byte count. */
static long drain(int rfd)
{
	long total = 0, r;

	while ((r = gt_read(rfd, buf, sizeof(buf))) > 0)
		total += r;
	return r == -EAGAIN || r == 0 ? total : -1;
}

/* ---- the basics -------------------------------------------------------------------- */

static void t_basic(void)
{
	int p[2] = { -1, -1 };
	char got[8];

	CHECK(SYS1(__NR_pipe, p) == 0);
	CHECK(p[0] >= 0 && p[1] >= 0 && p[0] != p[1]);
	CHECK(gt_write(p[1], "hello", 5) == 5);
	CHECK(fionread(p[0]) == 5);
	CHECK(gt_read(p[0], got, 2) == 2 && memcmp(got, "he", 2) == 0);
	CHECK(fionread(p[0]) == 3);
	/* A read returns what is there, not what was asked for. */
	CHECK(gt_read(p[0], got, sizeof(got)) == 3 && memcmp(got, "llo", 3) == 0);
	CHECK(fionread(p[0]) == 0);
	CHECK(gt_write(p[1], "", 0) == 0);
	CHECK(gt_read(p[0], got, 0) == 0);
	CHECK(gt_close(p[0]) == 0 && gt_close(p[1]) == 0);
}

static void t_fstat_is_fifo(void)
{
	struct stat64 st;
	int p[2];

	CHECK(make_pipe(p, 0) == 0);
	CHECK(SYS2(__NR_fstat64, p[0], &st) == 0);
	CHECK(S_ISFIFO(st.st_mode));
	CHECK(SYS2(__NR_fstat64, p[1], &st) == 0);
	CHECK(S_ISFIFO(st.st_mode));
	gt_close(p[0]);
	gt_close(p[1]);
}

/* End of file comes only after the data, and only when no writer is left. */
static void t_eof_after_data(void)
{
	int p[2];
	char got[8];

	CHECK(make_pipe(p, 0) == 0);
	CHECK(gt_write(p[1], "abc", 3) == 3);
	CHECK(gt_close(p[1]) == 0);
	/* The buffer outlives the writer. */
	CHECK(gt_read(p[0], got, sizeof(got)) == 3 && memcmp(got, "abc", 3) == 0);
	CHECK(gt_read(p[0], got, sizeof(got)) == 0);
	CHECK(gt_read(p[0], got, sizeof(got)) == 0);
	CHECK(gt_close(p[0]) == 0);
}

static void t_pipe2_flags(void)
{
	int p[2];
	char c;

	CHECK(make_pipe(p, O_CLOEXEC) == 0);
	CHECK(SYS2(__NR_fcntl64, p[0], F_GETFD) == FD_CLOEXEC);
	CHECK(SYS2(__NR_fcntl64, p[1], F_GETFD) == FD_CLOEXEC);
	CHECK((SYS2(__NR_fcntl64, p[0], F_GETFL) & O_NONBLOCK) == 0);
	gt_close(p[0]);
	gt_close(p[1]);

	CHECK(make_pipe(p, 0) == 0);
	CHECK(SYS2(__NR_fcntl64, p[0], F_GETFD) == 0);
	CHECK((SYS2(__NR_fcntl64, p[0], F_GETFL) & O_ACCMODE) == O_RDONLY);
	CHECK((SYS2(__NR_fcntl64, p[1], F_GETFL) & O_ACCMODE) == O_WRONLY);
	gt_close(p[0]);
	gt_close(p[1]);

	CHECK(make_pipe(p, O_NONBLOCK | O_CLOEXEC) == 0);
	CHECK(SYS2(__NR_fcntl64, p[0], F_GETFL) & O_NONBLOCK);
	CHECK(SYS2(__NR_fcntl64, p[1], F_GETFL) & O_NONBLOCK);
	CHECK(gt_read(p[0], &c, 1) == -EAGAIN);
	gt_close(p[0]);
	gt_close(p[1]);

	CHECK(make_pipe(p, O_APPEND) == -EINVAL);
	CHECK(make_pipe(p, 0x40000000) == -EINVAL);
}

/*
 * O_CLOEXEC across a real exec: the child runs this program again (through
 * /proc/self/exe, on smpix and on Linux alike, or by argv[0] where no /proc
 * is mounted, as in a bare chroot) to check that the read end is closed in
 * the new program and the plain write end is not.
 */
static const char *self_exe = "/proc/self/exe";

static void t_cloexec_across_exec(void)
{
	int p[2], q[2], pid, status;
	char rd[16], wr[16];

	CHECK(make_pipe(p, O_CLOEXEC) == 0);
	CHECK(make_pipe(q, 0) == 0);
	snprintf(rd, sizeof(rd), "%d", p[0]);
	snprintf(wr, sizeof(wr), "%d", q[1]);
	pid = gt_fork();
	if (pid == 0) {
		char *argv[] = { "pipetest", "--after-exec", rd, wr, 0 };
		char *envp[] = { 0 };

		SYS3(__NR_execve, self_exe, argv, envp);
		gt_exit(99);            /* exec failed */
	}
	CHECK(pid > 0);
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	gt_close(p[0]);
	gt_close(p[1]);
	gt_close(q[0]);
	gt_close(q[1]);
}

/* The exec'd half: argv[2] must be closed, argv[3] open and still a pipe's write end. */
static int after_exec(char **argv)
{
	int closed = 0, open = 0;

	for (const char *c = argv[2]; *c; c++)
		closed = closed * 10 + (*c - '0');
	for (const char *c = argv[3]; *c; c++)
		open = open * 10 + (*c - '0');
	if (SYS2(__NR_fcntl64, closed, F_GETFD) != -EBADF)
		return 1;
	if (SYS2(__NR_fcntl64, open, F_GETFD) != 0)
		return 2;
	if ((SYS2(__NR_fcntl64, open, F_GETFL) & O_ACCMODE) != O_WRONLY)
		return 3;
	return gt_write(open, "e", 1) == 1 ? 0 : 4;
}

/* ---- bad input ---------------------------------------------------------------------- */

/* A failed pipe() must not leave descriptors behind: the next pipe gets the same numbers. */
static void t_bad_fd_array(void)
{
	int p[2], q[2];

	CHECK(make_pipe(p, 0) == 0);
	gt_close(p[0]);
	gt_close(p[1]);
	CHECK(SYS1(__NR_pipe, BAD_NULL) == -EFAULT);
	CHECK(SYS1(__NR_pipe, BAD_KERNEL) == -EFAULT);
	CHECK(SYS1(__NR_pipe, BAD_UNMAP) == -EFAULT);
	CHECK(make_pipe(BAD_NULL, 0) == -EFAULT);
	CHECK(make_pipe(BAD_UNMAP, O_CLOEXEC) == -EFAULT);
	CHECK(make_pipe(q, 0) == 0);
	CHECK(q[0] == p[0] && q[1] == p[1]);
	gt_close(q[0]);
	gt_close(q[1]);
}

static void t_bad_buffers(void)
{
	int p[2], n;
	char got[8];

	CHECK(make_pipe(p, O_NONBLOCK) == 0);
	CHECK(gt_write(p[1], BAD_NULL, 5) == -EFAULT);
	CHECK(gt_write(p[1], BAD_KERNEL, 5) == -EFAULT);
	CHECK(gt_write(p[1], BAD_UNMAP, 5) == -EFAULT);
	CHECK(fionread(p[0]) == 0);             /* nothing went in */
	CHECK(gt_write(p[1], "data", 4) == 4);
	CHECK(gt_read(p[0], BAD_NULL, 4) == -EFAULT);
	CHECK(gt_read(p[0], BAD_KERNEL, 4) == -EFAULT);
	CHECK(gt_read(p[0], BAD_UNMAP, 4) == -EFAULT);
	/* A failed copy consumes nothing. */
	CHECK(fionread(p[0]) == 4);
	CHECK(gt_read(p[0], got, sizeof(got)) == 4 && memcmp(got, "data", 4) == 0);
	CHECK(SYS3(__NR_ioctl, p[0], FIONREAD, BAD_NULL) == -EFAULT);
	CHECK(SYS3(__NR_ioctl, p[0], FIONREAD, BAD_UNMAP) == -EFAULT);
	n = 0;
	CHECK(SYS3(__NR_ioctl, p[1], FIONREAD, &n) == 0 && n == 0);   /* either end answers */
	gt_close(p[0]);
	gt_close(p[1]);
}

static void t_bad_fds(void)
{
	int p[2];
	char c = 'x';

	CHECK(make_pipe(p, 0) == 0);
	CHECK(gt_write(p[0], &c, 1) == -EBADF);         /* the read end */
	CHECK(gt_read(p[1], &c, 1) == -EBADF);          /* the write end */
	CHECK(SYS3(__NR_lseek, p[0], 0, SEEK_SET) == -ESPIPE);
	CHECK(SYS3(__NR_lseek, p[1], 0, SEEK_CUR) == -ESPIPE);
	CHECK(SYS3(__NR_ioctl, p[0], TCGETS, buf) == -ENOTTY);
	CHECK(gt_close(p[0]) == 0 && gt_close(p[0]) == -EBADF);
	CHECK(gt_close(p[1]) == 0);
	CHECK(gt_read(p[0], &c, 1) == -EBADF);
	CHECK(gt_write(p[1], &c, 1) == -EBADF);
	CHECK(gt_read(-1, &c, 1) == -EBADF);
	CHECK(gt_write(100000, &c, 1) == -EBADF);
	CHECK(SYS3(__NR_ioctl, 4000, FIONREAD, &p[0]) == -EBADF);
}

/* ---- O_NONBLOCK and PIPE_BUF ---------------------------------------------------------------- */

static void t_nonblocking_full(void)
{
	int p[2];
	long cap;

	CHECK(make_pipe(p, O_NONBLOCK) == 0);
	cap = fill(p[1]);
	CHECK(cap >= PIPE_BUF && cap % PIPE_BUF == 0);
	CHECK(fionread(p[0]) == cap);
	CHECK(gt_write(p[1], "x", 1) == -EAGAIN);
	/* One PIPE_BUF read makes room for exactly one PIPE_BUF write. */
	CHECK(gt_read(p[0], buf, PIPE_BUF) == PIPE_BUF);
	CHECK(gt_write(p[1], buf, PIPE_BUF) == PIPE_BUF);
	CHECK(gt_write(p[1], "x", 1) == -EAGAIN);
	/* A write up to PIPE_BUF is all or nothing: with 100 bytes free, 200 do not go in. */
	CHECK(gt_read(p[0], buf, 100) == 100);
	CHECK(gt_write(p[1], buf, 200) == -EAGAIN);
	CHECK(gt_write(p[1], buf, PIPE_BUF) == -EAGAIN);
	CHECK(fionread(p[0]) == cap - 100);
	/* A larger write goes in as far as it fits and says how far. */
	CHECK(drain(p[0]) == cap - 100);
	CHECK(fill(p[1]) == cap);
	CHECK(gt_read(p[0], buf, PIPE_BUF) == PIPE_BUF);
	CHECK(gt_write(p[1], buf, 2 * PIPE_BUF) == PIPE_BUF);
	CHECK(gt_write(p[1], buf, 2 * PIPE_BUF) == -EAGAIN);
	gt_close(p[0]);
	gt_close(p[1]);
}

/* fcntl(F_SETFL) and FIONBIO switch O_NONBLOCK on an open pipe. */
static void t_nonblock_switch(void)
{
	int p[2], on = 1, off = 0;
	char c;

	CHECK(make_pipe(p, 0) == 0);
	CHECK(set_nonblock(p[0], true) == 0);
	CHECK(gt_read(p[0], &c, 1) == -EAGAIN);
	CHECK(set_nonblock(p[0], false) == 0);
	CHECK((SYS2(__NR_fcntl64, p[0], F_GETFL) & O_NONBLOCK) == 0);
	CHECK(SYS3(__NR_ioctl, p[0], FIONBIO, &on) == 0);
	CHECK(SYS2(__NR_fcntl64, p[0], F_GETFL) & O_NONBLOCK);
	CHECK(gt_read(p[0], &c, 1) == -EAGAIN);
	CHECK(SYS3(__NR_ioctl, p[0], FIONBIO, &off) == 0);
	CHECK((SYS2(__NR_fcntl64, p[0], F_GETFL) & O_NONBLOCK) == 0);
	gt_close(p[0]);
	gt_close(p[1]);
}

/* ---- blocking, on both sides ---------------------------------------------------------------- */

static void t_read_blocks_until_data(void)
{
	int p[2], pid, status;
	int64_t start;
	char got[4];

	CHECK(make_pipe(p, 0) == 0);
	pid = gt_fork();
	if (pid == 0) {
		gt_close(p[0]);
		gt_msleep(150);
		gt_exit(gt_write(p[1], "late", 4) == 4 ? 0 : 1);
	}
	CHECK(pid > 0);
	start = gt_now_ms();
	CHECK(gt_read(p[0], got, sizeof(got)) == 4 && memcmp(got, "late", 4) == 0);
	CHECK(gt_now_ms() - start >= 100);      /* it really waited */
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	gt_close(p[0]);
	gt_close(p[1]);
}

/* A reader asleep on an empty pipe wakes with end of file when the last writer goes. */
static void t_eof_wakes_reader(void)
{
	int p[2], pid, status;
	char c;

	CHECK(make_pipe(p, 0) == 0);
	pid = gt_fork();
	if (pid == 0) {
		gt_close(p[1]);
		gt_exit(gt_read(p[0], &c, 1) == 0 ? 0 : 1);
	}
	CHECK(pid > 0);
	gt_msleep(100);
	CHECK(SYS3(__NR_wait4, pid, &status, WNOHANG) == 0);      /* still asleep */
	gt_close(p[1]);
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	gt_close(p[0]);
}

/* A writer is any holder of the write end: a forked child keeps EOF away until it closes. */
static void t_shared_writer_across_fork(void)
{
	int p[2], pid, status;
	char c;

	CHECK(make_pipe(p, 0) == 0);
	pid = gt_fork();
	if (pid == 0) {
		gt_close(p[0]);
		gt_msleep(150);
		gt_write(p[1], "z", 1);
		gt_exit(0);                     /* exit closes the child's write end */
	}
	gt_close(p[1]);
	CHECK(gt_read(p[0], &c, 1) == 1 && c == 'z');
	CHECK(gt_read(p[0], &c, 1) == 0);
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	gt_close(p[0]);
}

static void t_write_blocks_until_room(void)
{
	int p[2], pid, status;
	long cap;

	CHECK(make_pipe(p, O_NONBLOCK) == 0);
	cap = fill(p[1]);
	CHECK(cap > 0);
	CHECK(set_nonblock(p[1], false) == 0);
	pid = gt_fork();
	if (pid == 0) {
		memset(buf, 'w', PIPE_BUF);
		gt_exit(gt_write(p[1], buf, PIPE_BUF) == PIPE_BUF ? 0 : 1);
	}
	CHECK(pid > 0);
	gt_msleep(100);
	CHECK(SYS3(__NR_wait4, pid, &status, WNOHANG) == 0);      /* blocked: the pipe is full */
	CHECK(fionread(p[0]) == cap);
	CHECK(gt_read(p[0], buf, PIPE_BUF) == PIPE_BUF);        /* room for the child's write */
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(fionread(p[0]) == cap);
	gt_close(p[0]);
	gt_close(p[1]);
}

/* ---- no readers: SIGPIPE, and EPIPE when SIGPIPE is ignored ---------------------------------- */

static void t_sigpipe_kills_writer(void)
{
	int p[2], pid, status;

	CHECK(make_pipe(p, 0) == 0);
	gt_close(p[0]);                 /* before the fork: no reader anywhere, ever */
	pid = gt_fork();
	if (pid == 0) {
		gt_write(p[1], "x", 1);        /* SIGPIPE's default action ends the child here */
		gt_exit(0);
	}
	gt_close(p[1]);
	status = gt_wait(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE);
}

/* A writer asleep on a full pipe is woken by the last reader's close, and gets SIGPIPE. */
static void t_sigpipe_wakes_blocked_writer(void)
{
	int p[2], pid, status;

	CHECK(make_pipe(p, 0) == 0);
	pid = gt_fork();
	if (pid == 0) {
		gt_close(p[0]);
		memset(buf, 'b', sizeof(buf));
		for (;;)
			gt_write(p[1], buf, sizeof(buf));      /* fills the pipe, then sleeps */
	}
	gt_close(p[1]);
	gt_msleep(100);
	CHECK(SYS3(__NR_wait4, pid, &status, WNOHANG) == 0);
	gt_close(p[0]);
	status = gt_wait(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE);
}

/* poll(2) on pipes: what each end reports, timeouts, a poll that waits for a writer, bad input. */
struct gt_pollfd {
	int fd;
	short events, revents;
};

#define GT_POLLIN   0x0001
#define GT_POLLOUT  0x0004
#define GT_POLLERR  0x0008
#define GT_POLLHUP  0x0010
#define GT_POLLNVAL 0x0020
#ifndef __NR_poll
#define __NR_poll 168
#endif

static void t_poll(void)
{
	struct gt_pollfd pf[3];
	int p[2], pid;
	int64_t t0, took;

	CHECK(SYS1(__NR_pipe, p) == 0);
	pf[0] = (struct gt_pollfd){ p[0], GT_POLLIN, 0 };
	pf[1] = (struct gt_pollfd){ p[1], GT_POLLOUT, 0 };
	CHECK(SYS3(__NR_poll, pf, 1, 0) == 0 && pf[0].revents == 0);           /* empty: not readable */
	CHECK(SYS3(__NR_poll, pf, 2, 0) == 1 && pf[1].revents == GT_POLLOUT);  /* room: writable */
	t0 = gt_now_ms();
	CHECK(SYS3(__NR_poll, pf, 1, 120) == 0);                               /* the timeout runs out */
	took = gt_now_ms() - t0;
	CHECK(took >= 110 && took < 2000);
	CHECK(gt_write(p[1], "x", 1) == 1);
	CHECK(SYS3(__NR_poll, pf, 2, -1) == 2 && pf[0].revents == GT_POLLIN);
	CHECK(gt_read(p[0], pf + 2, 1) == 1);
	/* A poll that waits is woken when another process writes. */
	if ((pid = gt_fork()) == 0) {
		gt_msleep(100);
		gt_exit(gt_write(p[1], "y", 1) == 1 ? 0 : 1);
	}
	t0 = gt_now_ms();
	CHECK(SYS3(__NR_poll, pf, 1, 5000) == 1 && pf[0].revents == GT_POLLIN);
	took = gt_now_ms() - t0;
	CHECK(gt_wait(pid) == 0);
	CHECK(took >= 50 && took < 4000);
	/* Bad fds are POLLNVAL, negative ones ignored; a hung-up pipe says so even if not asked. */
	pf[0] = (struct gt_pollfd){ 999, GT_POLLIN, 0 };
	pf[1] = (struct gt_pollfd){ -1, GT_POLLIN, 0 };
	CHECK(SYS3(__NR_poll, pf, 2, 0) == 1 && pf[0].revents == GT_POLLNVAL && pf[1].revents == 0);
	gt_close(p[1]);
	pf[0] = (struct gt_pollfd){ p[0], GT_POLLIN, 0 };
	CHECK(SYS3(__NR_poll, pf, 1, 0) == 1 && (pf[0].revents & GT_POLLHUP) && (pf[0].revents & GT_POLLIN));
	gt_close(p[0]);
	CHECK(SYS1(__NR_pipe, p) == 0);
	gt_close(p[0]);
	pf[0] = (struct gt_pollfd){ p[1], GT_POLLOUT, 0 };
	CHECK(SYS3(__NR_poll, pf, 1, 0) == 1 && (pf[0].revents & GT_POLLERR));  /* no reader left */
	gt_close(p[1]);
	CHECK(SYS3(__NR_poll, BAD_UNMAP, 1, 0) == -EFAULT);
	CHECK(SYS3(__NR_poll, pf, 100000, 0) == -EINVAL);                      /* beyond RLIMIT_NOFILE */
	CHECK(SYS3(__NR_poll, 0, 0, 10) == 0);                                 /* nothing: just a sleep */
}

/* struct sigaction as rt_sigaction takes it on i386. */
struct gt_sigaction {
	uint32_t handler, flags, restorer;
	uint32_t mask[2];
};

static void t_epipe_when_ignored(void)
{
	struct gt_sigaction ign = { 1 /* SIG_IGN */, 0, 0, { 0, 0 } };
	int p[2], pid, status;
	long r;

	CHECK(make_pipe(p, 0) == 0);
	gt_close(p[0]);
	pid = gt_fork();
	if (pid == 0) {
		r = SYS4(__NR_rt_sigaction, SIGPIPE, &ign, 0, 8);
		if (r == -ENOSYS)
			gt_exit(2);     /* no signal actions on this kernel yet */
		if (r != 0)
			gt_exit(3);
		gt_exit(gt_write(p[1], "x", 1) == -EPIPE ? 0 : 1);
	}
	gt_close(p[1]);
	status = gt_wait(pid);
	CHECK(WIFEXITED(status));
	if (WEXITSTATUS(status) == 2) {
		printf("pipetest: (rt_sigaction is -ENOSYS here: EPIPE with SIGPIPE ignored not checked)\n");
		return;
	}
	CHECK(WEXITSTATUS(status) == 0);
}

/* ---- named pipes (FIFOs) ------------------------------------------------------------------- */

static char fifo[64];

/* A fresh FIFO in /tmp, named after this process so that host runs never collide. */
static int make_fifo(void)
{
	int pid = (int)SYS0(__NR_getpid), n = 0;
	char digits[12];

	SYS2(__NR_mkdir, "/tmp", 01777);        /* smpix's initrd may not have it: EEXIST is fine */
	do
		digits[n++] = (char)('0' + pid % 10);
	while ((pid /= 10) > 0);
	memcpy(fifo, "/tmp/pipetest-fifo.", 20);
	for (int i = 19; n > 0; i++)
		fifo[i] = digits[--n], fifo[i + 1] = 0;
	SYS1(__NR_unlink, fifo);
	return (int)SYS3(__NR_mknod, fifo, S_IFIFO | 0600, 0);
}

static int open_fifo(int flags) { return (int)SYS2(__NR_open, fifo, flags); }

/* Opening without waiting, reading and writing through the name, EOF, and a last close that empties it. */
static void t_fifo_basics(void)
{
	struct stat64 st;
	int r, w, rw;
	char got[4];

	CHECK(make_fifo() == 0);
	CHECK(SYS2(__NR_stat64, fifo, &st) == 0 && S_ISFIFO(st.st_mode));
	CHECK(open_fifo(O_WRONLY | O_NONBLOCK) == -ENXIO);     /* nobody reads */
	CHECK((r = open_fifo(O_RDONLY | O_NONBLOCK)) >= 0);     /* a reader never has to wait */
	CHECK(gt_read(r, got, sizeof(got)) == 0);               /* no writer: end of file */
	CHECK((w = open_fifo(O_WRONLY | O_NONBLOCK)) >= 0);     /* now there is a reader */
	CHECK(gt_read(r, got, sizeof(got)) == -EAGAIN);         /* a writer, nothing written */
	CHECK(gt_write(w, "abc", 3) == 3);
	CHECK(fionread(r) == 3);
	CHECK(gt_read(r, got, sizeof(got)) == 3 && memcmp(got, "abc", 3) == 0);
	CHECK(SYS3(__NR_lseek, r, 0, 0) == -ESPIPE);
	CHECK(SYS2(__NR_fstat64, w, &st) == 0 && S_ISFIFO(st.st_mode));
	gt_close(w);
	CHECK(gt_read(r, got, sizeof(got)) == 0);               /* the writer went */
	gt_close(r);
	/* O_RDWR is both ends (Linux): it never waits and reads what it wrote. */
	CHECK((rw = open_fifo(O_RDWR)) >= 0);
	CHECK(gt_write(rw, "xy", 2) == 2);
	CHECK(gt_read(rw, got, sizeof(got)) == 2 && memcmp(got, "xy", 2) == 0);
	CHECK(gt_write(rw, "left", 4) == 4);
	gt_close(rw);
	/* The last close took the pipe down with what was left in it. */
	CHECK((rw = open_fifo(O_RDWR | O_NONBLOCK)) >= 0);
	CHECK(gt_read(rw, got, sizeof(got)) == -EAGAIN);
	gt_close(rw);
	CHECK(SYS1(__NR_unlink, fifo) == 0);
}

/* A blocking open waits for the other end, in both directions. */
static void t_fifo_open_waits_for_partner(void)
{
	int pid, fd, status;
	int64_t start;
	char got[4];

	CHECK(make_fifo() == 0);
	pid = gt_fork();
	if (pid == 0) {
		gt_msleep(150);
		fd = open_fifo(O_WRONLY);
		gt_exit(fd >= 0 && gt_write(fd, "hi", 2) == 2 ? 0 : 1);
	}
	CHECK(pid > 0);
	start = gt_now_ms();
	CHECK((fd = open_fifo(O_RDONLY)) >= 0);                /* waits for the writer */
	CHECK(gt_now_ms() - start >= 100);
	CHECK(gt_read(fd, got, sizeof(got)) == 2 && memcmp(got, "hi", 2) == 0);
	CHECK(gt_read(fd, got, sizeof(got)) == 0);              /* it exited: end of file */
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	gt_close(fd);
	/* And a writer waits for a reader. */
	pid = gt_fork();
	if (pid == 0) {
		fd = open_fifo(O_WRONLY);
		gt_exit(fd >= 0 && gt_write(fd, "w", 1) == 1 ? 0 : 1);
	}
	CHECK(pid > 0);
	gt_msleep(100);
	CHECK(SYS3(__NR_wait4, pid, &status, WNOHANG) == 0);    /* still waiting in open */
	CHECK((fd = open_fifo(O_RDONLY)) >= 0);
	CHECK(gt_read(fd, got, 1) == 1 && got[0] == 'w');
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	gt_close(fd);
	CHECK(SYS1(__NR_unlink, fifo) == 0);
}

/* A reader killed while it waits in open() leaves no reader behind. */
static void t_fifo_waiting_open_killed(void)
{
	int pid, status;

	CHECK(make_fifo() == 0);
	pid = gt_fork();
	if (pid == 0)
		gt_exit(open_fifo(O_RDONLY) >= 0 ? 3 : 4);      /* never returns: no writer comes */
	CHECK(pid > 0);
	gt_msleep(100);
	CHECK(SYS3(__NR_wait4, pid, &status, WNOHANG) == 0);
	CHECK(SYS2(__NR_kill, pid, SIGKILL) == 0);
	status = gt_wait(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK(open_fifo(O_WRONLY | O_NONBLOCK) == -ENXIO);     /* its reader count went with it */
	CHECK(SYS1(__NR_unlink, fifo) == 0);
}

/* ---- every CPU at once --------------------------------------------------------------------- */

#define WRITERS 4
#define RECORDS 64

static void fill_record(char *rec, int writer, int seq)
{
	memset(rec, 'a' + writer, PIPE_BUF);
	memcpy(rec, &writer, sizeof(writer));
	memcpy(rec + 4, &seq, sizeof(seq));
}

static void pin_to_cpu(int n)
{
	uint32_t mask = 1u << n;

	SYS3(__NR_sched_setaffinity, 0, sizeof(mask), &mask);  /* fails harmlessly on fewer CPUs */
}

/*
 * Four writers (one per CPU where there are four) each send RECORDS records of
 * PIPE_BUF bytes into one pipe. Atomic writes mean the stream is whole
 * records, never two interleaved; each writer's records arrive in order.
 */
static void t_atomic_writes_from_all_cpus(void)
{
	static char rec[PIPE_BUF];
	int p[2], pids[WRITERS], next_seq[WRITERS] = { 0 }, status;
	long got = 0, r;
	bool whole = true, ordered = true;

	CHECK(make_pipe(p, 0) == 0);
	for (int w = 0; w < WRITERS; w++) {
		pids[w] = gt_fork();
		if (pids[w] == 0) {
			gt_close(p[0]);
			pin_to_cpu(w);
			for (int s = 0; s < RECORDS; s++) {
				fill_record(buf, w, s);
				if (gt_write(p[1], buf, PIPE_BUF) != PIPE_BUF)
					gt_exit(1);
			}
			gt_exit(0);
		}
		CHECK(pids[w] > 0);
	}
	gt_close(p[1]);
	/* Read in odd sizes: reads are not atomic, only the writes are. */
	for (;;) {
		size_t at = 0;

		while (at < PIPE_BUF && (r = gt_read(p[0], rec + at, MIN(1000, PIPE_BUF - at))) > 0)
			at += r;
		if (at == 0)
			break;
		CHECK(at == PIPE_BUF);
		got++;
		int w, s;

		memcpy(&w, rec, 4);
		memcpy(&s, rec + 4, 4);
		if (w < 0 || w >= WRITERS) {
			whole = false;
			break;
		}
		for (int i = 8; i < PIPE_BUF; i++)
			if (rec[i] != 'a' + w)
				whole = false;
		if (s != next_seq[w]++)
			ordered = false;
	}
	CHECK(whole);
	CHECK(ordered);
	CHECK(got == WRITERS * RECORDS);
	for (int w = 0; w < WRITERS; w++) {
		status = gt_wait(pids[w]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	gt_close(p[0]);
}

#define PAIRS 4
#define ROUNDS 300

/* Four pairs of processes bat a counter back and forth through two pipes each. */
static void t_ping_pong_pairs(void)
{
	int pids[PAIRS], status;

	for (int i = 0; i < PAIRS; i++) {
		pids[i] = gt_fork();
		if (pids[i] == 0) {
			int ping[2], pong[2], child, v = 0;

			if (make_pipe(ping, 0) || make_pipe(pong, 0))
				gt_exit(10);
			child = gt_fork();
			if (child == 0) {
				gt_close(ping[1]);
				gt_close(pong[0]);
				pin_to_cpu((2 * i + 1) % 4);
				for (;;) {
					if (gt_read(ping[0], &v, 4) != 4)
						gt_exit(0);     /* EOF: the other side is done */
					v++;
					if (gt_write(pong[1], &v, 4) != 4)
						gt_exit(11);
				}
			}
			pin_to_cpu((2 * i) % 4);
			gt_close(ping[0]);
			gt_close(pong[1]);
			for (int r = 0; r < ROUNDS; r++) {
				int want = v + 1;

				if (gt_write(ping[1], &v, 4) != 4 || gt_read(pong[0], &v, 4) != 4 || v != want)
					gt_exit(12);
				v++;
			}
			gt_close(ping[1]);
			status = gt_wait(child);
			gt_exit(v == 2 * ROUNDS && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 13);
		}
		CHECK(pids[i] > 0);
	}
	for (int i = 0; i < PAIRS; i++) {
		status = gt_wait(pids[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

/* Many pipes made and dropped from every CPU: nothing leaks, nothing breaks. */
static void t_churn_from_all_cpus(void)
{
	int pids[4], status;

	for (int i = 0; i < 4; i++) {
		pids[i] = gt_fork();
		if (pids[i] == 0) {
			pin_to_cpu(i);
			for (int n = 0; n < 200; n++) {
				int p[2];
				char c;

				if (make_pipe(p, n & 1 ? O_CLOEXEC : 0) != 0)
					gt_exit(1);
				if (gt_write(p[1], "q", 1) != 1 || gt_read(p[0], &c, 1) != 1 || c != 'q')
					gt_exit(2);
				/* Close in either order: the pipe goes with its last end. */
				if (n & 2) {
					gt_close(p[0]);
					gt_close(p[1]);
				} else {
					gt_close(p[1]);
					gt_close(p[0]);
				}
			}
			gt_exit(0);
		}
		CHECK(pids[i] > 0);
	}
	for (int i = 0; i < 4; i++) {
		status = gt_wait(pids[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

/*
 * One FIFO opened and closed by a process on each CPU at once, so that a last
 * close and a first open keep meeting (fs/pipe/fifo.c: the inode's i_mutex
 * decides who owns the pipe; lab 11 is about its order). Each open is both
 * ends: write a token, read one back (anyone's: they share the pipe), close.
 * An open that counted itself into a pipe a last close was freeing finds its
 * token gone, or the kernel says "BUG: pipe: freed with ... attached".
 */
#define FIFO_STORM_ROUNDS 300

static void t_fifo_opens_and_closes_from_all_cpus(void)
{
	int pids[4], status, fd;
	char got[4];

	CHECK(make_fifo() == 0);
	for (int i = 0; i < 4; i++) {
		pids[i] = gt_fork();
		if (pids[i] == 0) {
			pin_to_cpu(i);
			for (int n = 0; n < FIFO_STORM_ROUNDS; n++) {
				char tok[4] = { 'f', 'i', (char)('0' + i), (char)n }, back[4];
				int rw = open_fifo(O_RDWR | O_NONBLOCK);

				if (rw < 0)
					gt_exit(1);
				if (gt_write(rw, tok, 4) != 4)
					gt_exit(2);
				/* What it wrote is in the pipe until read: a read finds 4 bytes. */
				if (gt_read(rw, back, 4) != 4 || back[0] != 'f' || back[1] != 'i')
					gt_exit(3);
				gt_close(rw);
			}
			gt_exit(0);
		}
		CHECK(pids[i] > 0);
	}
	for (int i = 0; i < 4; i++) {
		status = gt_wait(pids[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	/* Every token was read back and the last close took the pipe down: a new one is empty. */
	CHECK((fd = open_fifo(O_RDWR | O_NONBLOCK)) >= 0);
	CHECK(gt_read(fd, got, sizeof(got)) == -EAGAIN);
	gt_close(fd);
	CHECK(SYS1(__NR_unlink, fifo) == 0);
}

/* ---- the descriptor limit ------------------------------------------------------------------- */

/* With one descriptor free, pipe() needs two: -EMFILE, and the free one stays free. */
static void t_emfile(void)
{
	int p[2], first, last = -1, fd, n = 0;
	uint32_t lim[4] = { 64, 0, 64, 0 };     /* struct rlimit64 { cur, max } for RLIMIT_NOFILE */

	/* Linux's limit may be thousands: lower it to 64 for this test (smpix: FD_MAX). */
	SYS4(__NR_prlimit64, 0, 7, lim, 0);
	CHECK(make_pipe(p, 0) == 0);
	first = p[0];
	gt_close(p[0]);
	gt_close(p[1]);
	while ((fd = (int)SYS1(__NR_dup, 0)) >= 0) {
		last = fd;
		n++;
	}
	CHECK(fd == -EMFILE);
	CHECK(n > 2);
	CHECK(make_pipe(p, 0) == -EMFILE);
	CHECK(gt_close(last) == 0);
	CHECK(make_pipe(p, 0) == -EMFILE);
	CHECK(SYS1(__NR_dup, 0) == last);       /* the free slot was not used up */
	for (fd = first; fd <= last; fd++)
		gt_close(fd);
	CHECK(make_pipe(p, 0) == 0);
	gt_close(p[0]);
	gt_close(p[1]);
}

/* ---- leaks (smpix only: /dev/kcounts) ------------------------------------------------------- */

static struct counts before;

/*
 * Every pipe made above is gone: its inode, its two files, its ring and its
 * struct. The heap may hold fewer objects than at the start (boot's last
 * objects are freed lazily), never more; and a second round of pipe churn
 * from every CPU must leave the count exactly where the first left it.
 */
static void t_no_leaks(void)
{
	struct counts mid, after;

	CHECK(gt_read_counts(&mid) == 0);
	CHECK(mid.inodes == before.inodes);
	CHECK(mid.files == before.files);
	if (mid.heap_objects > before.heap_objects)
		printf("pipetest: heap objects %ld before, %ld after\n", before.heap_objects, mid.heap_objects);
	CHECK(mid.heap_objects <= before.heap_objects);
	t_churn_from_all_cpus();
	t_atomic_writes_from_all_cpus();
	CHECK(gt_read_counts(&after) == 0);
	CHECK(after.inodes == mid.inodes && after.files == mid.files);
	if (after.heap_objects != mid.heap_objects)
		printf("pipetest: heap objects %ld, then %ld\n", mid.heap_objects, after.heap_objects);
	CHECK(after.heap_objects == mid.heap_objects);
}

int main(int argc, char **argv)
{
	bool on_smpix = !ON_LINUX;

	if (argc == 4 && strcmp(argv[1], "--after-exec") == 0)
		gt_exit(after_exec(argv));
	gt_start("pipetest");
	if (!gt_exists(self_exe) && argc > 0)
		self_exe = argv[0];     /* pipetest never changes directory: a relative path serves */
	gt_run("basic", t_basic);
	/* Counted once the first pipe has come and gone and boot's last objects are freed. */
	if (on_smpix && gt_read_counts(&before) < 0)
		printf("pipetest: cannot read /dev/kcounts\n");
	gt_run("fstat_is_fifo", t_fstat_is_fifo);
	gt_run("eof_after_data", t_eof_after_data);
	gt_run("pipe2_flags", t_pipe2_flags);
	gt_run("cloexec_across_exec", t_cloexec_across_exec);
	gt_run("bad_fd_array", t_bad_fd_array);
	gt_run("bad_buffers", t_bad_buffers);
	gt_run("bad_fds", t_bad_fds);
	gt_run("nonblocking_full", t_nonblocking_full);
	gt_run("nonblock_switch", t_nonblock_switch);
	gt_run("read_blocks_until_data", t_read_blocks_until_data);
	gt_run("eof_wakes_reader", t_eof_wakes_reader);
	gt_run("shared_writer_across_fork", t_shared_writer_across_fork);
	gt_run("write_blocks_until_room", t_write_blocks_until_room);
	gt_run("sigpipe_kills_writer", t_sigpipe_kills_writer);
	gt_run("sigpipe_wakes_blocked_writer", t_sigpipe_wakes_blocked_writer);
	gt_run("epipe_when_ignored", t_epipe_when_ignored);
	gt_run("fifo_basics", t_fifo_basics);
	gt_run("fifo_open_waits_for_partner", t_fifo_open_waits_for_partner);
	gt_run("fifo_waiting_open_killed", t_fifo_waiting_open_killed);
	gt_run("fifo_opens_and_closes_from_all_cpus", t_fifo_opens_and_closes_from_all_cpus);
	gt_run("atomic_writes_from_all_cpus", t_atomic_writes_from_all_cpus);
	gt_run("ping_pong_pairs", t_ping_pong_pairs);
	gt_run("churn_from_all_cpus", t_churn_from_all_cpus);
	gt_run("emfile", t_emfile);
	gt_run("poll", t_poll);
	if (on_smpix)
		gt_run("no_leaks", t_no_leaks);
	gt_finish();
}
