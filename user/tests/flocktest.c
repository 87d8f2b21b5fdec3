/*
 * /bin/flocktest: flock(2), whole-file advisory locks, as Linux has them: who
 * conflicts with whom, conversions, LOCK_NB, a wait that ends when the holder
 * unlocks (or is killed), locks shared across fork() and dup() and dropped by
 * the last close, bad arguments; on smpix also that the lock code runs under
 * the BKL (its site in /proc/bkl) and leaves nothing behind (/dev/kcounts).
 *
 * Built twice, like pipetest: for smpix (booted as init by
 * tools/test/cases/46_pipes_proc.py) and with the host's gcc -m32 -static
 * -DLINUX_HOST, so the same expectations are checked against Linux.
 */
#include "gtest.h"

#ifndef __NR_flock
#define __NR_flock 143
#endif
#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8

static char path[64];
static struct counts before;

static long lock(int fd, unsigned op) { return SYS2(__NR_flock, fd, op); }

/* A fresh file in /tmp, named after this process so that host runs never collide. */
static void make_path(void)
{
	int pid = (int)SYS0(__NR_getpid), n = 0, fd;
	char digits[12];

	SYS2(__NR_mkdir, "/tmp", 01777);        /* EEXIST is fine */
	do
		digits[n++] = (char)('0' + pid % 10);
	while ((pid /= 10) > 0);
	memcpy(path, "/tmp/flocktest.", 16);
	for (int i = 15; n > 0; i++)
		path[i] = digits[--n], path[i + 1] = 0;
	fd = (int)SYS3(__NR_open, path, O_CREAT | O_RDWR, 0600);
	if (fd >= 0)
		gt_close(fd);
}

/* An open file of its own (a new struct file): the unit that owns flock locks. */
static int open_own(void) { return (int)SYS2(__NR_open, path, O_RDONLY); }

/* Shared locks coexist; an exclusive one excludes every other file's. */
static void t_conflicts(void)
{
	int a = open_own(), b = open_own(), c = open_own();

	CHECK(a >= 0 && b >= 0 && c >= 0);
	CHECK(lock(a, LOCK_SH) == 0);
	CHECK(lock(b, LOCK_SH | LOCK_NB) == 0);
	CHECK(lock(c, LOCK_EX | LOCK_NB) == -EAGAIN);           /* EWOULDBLOCK */
	CHECK(lock(a, LOCK_UN) == 0);
	CHECK(lock(c, LOCK_EX | LOCK_NB) == -EAGAIN);           /* b still shares it */
	CHECK(lock(b, LOCK_UN) == 0);
	CHECK(lock(c, LOCK_EX | LOCK_NB) == 0);
	CHECK(lock(a, LOCK_SH | LOCK_NB) == -EAGAIN);
	CHECK(lock(c, LOCK_EX) == 0);                           /* again: nothing changes */
	CHECK(lock(c, LOCK_UN) == 0);
	CHECK(lock(c, LOCK_UN) == 0);                           /* unlocking nothing is fine */
	gt_close(a);
	gt_close(b);
	gt_close(c);
}

/* A conversion is not atomic: the old lock goes first, and stays gone if the new one fails. */
static void t_conversion(void)
{
	int a = open_own(), b = open_own(), c = open_own();

	CHECK(a >= 0 && b >= 0 && c >= 0);
	CHECK(lock(a, LOCK_EX) == 0);
	CHECK(lock(a, LOCK_SH) == 0);                           /* down: fine */
	CHECK(lock(b, LOCK_SH | LOCK_NB) == 0);
	CHECK(lock(a, LOCK_EX | LOCK_NB) == -EAGAIN);           /* up: b is in the way */
	CHECK(lock(b, LOCK_UN) == 0);
	CHECK(lock(c, LOCK_EX | LOCK_NB) == 0);                 /* so a holds nothing now */
	gt_close(a);
	gt_close(b);
	gt_close(c);
}

/* A blocked LOCK_EX sleeps until the holder unlocks. */
static void t_wait_for_unlock(void)
{
	int a = open_own(), pid, status;
	int64_t start;

	CHECK(a >= 0 && lock(a, LOCK_EX) == 0);
	start = gt_now_ms();
	pid = gt_fork();
	if (pid == 0) {
		int b = open_own();

		gt_exit(b >= 0 && lock(b, LOCK_EX) == 0 ? 0 : 1);
	}
	CHECK(pid > 0);
	gt_msleep(150);
	CHECK(SYS3(__NR_wait4, pid, &status, WNOHANG) == 0);    /* still waiting */
	CHECK(lock(a, LOCK_UN) == 0);
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(gt_now_ms() - start >= 100);
	gt_close(a);
}

/* A waiter that is killed leaves no lock; a holder that is killed gives its lock back. */
static void t_killed(void)
{
	int a = open_own(), b, pid, status;

	CHECK(a >= 0 && lock(a, LOCK_EX) == 0);
	pid = gt_fork();
	if (pid == 0) {
		b = open_own();
		lock(b, LOCK_EX);               /* waits until killed */
		gt_exit(3);
	}
	gt_msleep(100);
	CHECK(SYS2(__NR_kill, pid, SIGKILL) == 0);
	status = gt_wait(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK(lock(a, LOCK_UN) == 0);
	pid = gt_fork();
	if (pid == 0) {
		b = open_own();
		if (lock(b, LOCK_EX | LOCK_NB) != 0)
			gt_exit(1);
		for (;;)
			gt_msleep(1000);        /* holds it until killed */
	}
	gt_msleep(100);
	CHECK(lock(a, LOCK_SH | LOCK_NB) == -EAGAIN);
	CHECK(SYS2(__NR_kill, pid, SIGKILL) == 0);
	status = gt_wait(pid);
	CHECK(WIFSIGNALED(status));
	CHECK(lock(a, LOCK_SH | LOCK_NB) == 0);                 /* its exit closed the file */
	gt_close(a);
}

/* fork and dup share the open file, so they share its lock; only the last close drops it. */
static void t_shared_file(void)
{
	int a = open_own(), b = open_own(), d, pid, status;

	CHECK(a >= 0 && b >= 0);
	CHECK(lock(a, LOCK_EX) == 0);
	pid = gt_fork();
	if (pid == 0)
		gt_exit(lock(a, LOCK_EX | LOCK_NB) == 0 ? 0 : 1);       /* the same lock: already ours */
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(lock(b, LOCK_EX | LOCK_NB) == -EAGAIN);           /* the child's exit did not drop it */
	d = (int)SYS1(__NR_dup, a);
	CHECK(d >= 0);
	gt_close(a);
	CHECK(lock(b, LOCK_EX | LOCK_NB) == -EAGAIN);           /* d still holds the file */
	pid = gt_fork();
	if (pid == 0)
		gt_exit(lock(d, LOCK_UN) == 0 ? 0 : 1);         /* a child may unlock it for all */
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(lock(b, LOCK_EX | LOCK_NB) == 0);
	CHECK(lock(b, LOCK_UN) == 0);
	CHECK(lock(d, LOCK_SH) == 0);
	gt_close(d);                                            /* the last close drops it */
	CHECK(lock(b, LOCK_EX | LOCK_NB) == 0);
	gt_close(b);
}

/* Any open file can be locked, a pipe too; its two ends are two files on one inode, so they conflict. */
static void t_any_file(void)
{
	int p[2];

	CHECK(SYS1(__NR_pipe, p) == 0);
	CHECK(lock(p[0], LOCK_EX | LOCK_NB) == 0);
	CHECK(lock(p[1], LOCK_EX | LOCK_NB) == -EAGAIN);
	CHECK(lock(p[0], LOCK_UN) == 0 && lock(p[1], LOCK_EX | LOCK_NB) == 0);
	gt_close(p[0]);
	gt_close(p[1]);
}

static void t_bad_arguments(void)
{
	int a = open_own();

	CHECK(a >= 0);
	CHECK(lock(-1, LOCK_EX) == -EBADF);
	CHECK(lock(999, LOCK_SH) == -EBADF);
	CHECK(lock(a, 0) == -EINVAL);
	CHECK(lock(a, LOCK_NB) == -EINVAL);
	CHECK(lock(a, LOCK_SH | LOCK_EX) == -EINVAL);
	CHECK(lock(a, 16) == -EINVAL);
	gt_close(a);
	CHECK(lock(a, LOCK_UN) == -EBADF);                      /* closed */
}

/*
 * smpix: flock() takes no BKL: lab 10's reference solution pushed it out
 * (fs/flock.c, docs/labs/lab10-open-pushdown.md), so /proc/bkl has no site
 * in fs/flock.c (and the kernel built without the BKL, make ERA=2.6.39, none
 * at all); and no lock or object is left.
 */
static void t_outside_the_bkl(void)
{
	static char text[16384];
	struct counts now;
	int fd = (int)SYS2(__NR_open, "/proc/bkl", O_RDONLY);
	long n, total = 0;

	CHECK(fd >= 0);
	while ((n = gt_read(fd, text + total, sizeof(text) - 1 - total)) > 0)
		total += n;
	gt_close(fd);
	text[total] = 0;
	CHECK(gt_strstr(text, "fs/flock.c:") == NULL);
	CHECK(gt_strstr(text, "sys_flock") == NULL);
	CHECK(gt_read_counts(&now) == 0);
	CHECK(now.flocks == 0);
	CHECK(now.files == before.files);
	CHECK(now.heap_objects <= before.heap_objects);
}

int main(void)
{
	gt_start("flocktest");
	make_path();
	if (!ON_LINUX)
		gt_read_counts(&before);
	gt_run("conflicts", t_conflicts);
	gt_run("conversion", t_conversion);
	gt_run("wait_for_unlock", t_wait_for_unlock);
	gt_run("killed", t_killed);
	gt_run("shared_file", t_shared_file);
	gt_run("any_file", t_any_file);
	gt_run("bad_arguments", t_bad_arguments);
	if (!ON_LINUX)
		gt_run("outside_the_bkl", t_outside_the_bkl);
	SYS1(__NR_unlink, path);
	gt_finish();
}
