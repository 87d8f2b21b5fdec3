/*
 * /bin/linuxabi: answers smpix gives exactly as Linux does. The same binary
 * runs on the build host's Linux (it makes raw int $0x80 calls, like every
 * smpix program), and tools/test/cases/45_linuxabi.py runs it there too:
 * every expectation below is Linux's, not only ours. Each test prints
 * "linuxabi: NAME ok|FAIL"; the last line is a summary.
 */
#define GT_ISOLATED     /* each test in a child of its own (gtest.h) */
#include "gtest.h"

#define BAD_KERNEL2 ((void *)0xC0100000)
#define WEXITED_FLAG 4                          /* waitid's flag: wait4 refuses it */
#define MASK_BYTES 128                          /* a cpu_set_t big enough for any host */

/* A child that exits with code at once; returns its pid. */
static int child_exits(int code)
{
	int pid = fork();

	if (pid == 0)
		exit(code);
	return pid;
}

/* A child that sleeps ms, then exits 0. */
static int child_sleeps(int ms)
{
	int pid = fork();

	if (pid == 0) {
		msleep(ms);
		exit(0);
	}
	return pid;
}

static void t_wait_flags_accepted(void)
{
	int flags[] = { WUNTRACED, WCONTINUED, __WALL, WUNTRACED | WCONTINUED | __WALL };
	int st;

	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		int pid = child_exits(7);

		CHECK(pid > 0);
		st = 0;
		CHECK(wait4(pid, &st, flags[i], 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	}
	CHECK(waitpid(-1, &st, WUNTRACED) == -ECHILD);
	CHECK(wait4(-1, &st, WEXITED_FLAG, 0) == -EINVAL);
}

static void t_zombie_still_exists(void)
{
	unsigned char mask[MASK_BYTES], mine[MASK_BYTES];
	int pid = child_exits(0), st;

	CHECK(pid > 0);
	msleep(300);            /* it has exited by now (it exits at once): a zombie until we reap it */
	CHECK(kill(pid, 0) == 0);
	CHECK(kill(pid, SIGTERM) == 0);         /* dropped: it is dead already */
	memset(mask, 0, sizeof(mask));
	memset(mine, 0, sizeof(mine));
	CHECK(sched_getaffinity(pid, sizeof(mask), mask) > 0);
	/* Ours, inherited: whichever CPUs this machine (or container) lets us use, CPU 0 or not. */
	CHECK(sched_getaffinity(0, sizeof(mine), mine) > 0);
	CHECK(memcmp(mask, mine, sizeof(mask)) == 0);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);   /* the SIGTERM did not count */
	CHECK(kill(pid, 0) == -ESRCH);          /* reaped: gone */
}

static void t_affinity_negative_pid(void)
{
	unsigned char mask[MASK_BYTES];
	uint32_t one = 1, none = 0;

	CHECK(sched_getaffinity(-5, sizeof(mask), mask) == -ESRCH);
	CHECK(sched_getaffinity(-1, sizeof(mask), mask) == -ESRCH);
	CHECK(sched_setaffinity(-5, sizeof(one), &one) == -ESRCH);
	CHECK(sched_setaffinity(NO_PID, sizeof(none), &none) == -ESRCH);  /* no such task comes first */
	CHECK(sched_setaffinity(0, sizeof(none), &none) == -EINVAL);
}

static void t_execve_missing(void)
{
	char *argv[] = { "nope", 0 };

	CHECK(execve("/bin/no-such-program-here", argv, 0) == -ENOENT);
	CHECK(execve("/no-such-dir/x", argv, 0) == -ENOENT);
}

static void t_wait4_answers_before_efault(void)
{
	int st = 0x5A5A, pid;

	/* No child at all: -ECHILD whatever the pointers, and nothing written. */
	CHECK(wait4(-1, BAD_KERNEL, 0, 0) == -ECHILD);
	CHECK(wait4(-1, BAD_UNMAP, WNOHANG, 0) == -ECHILD);
	CHECK(wait4(-1, &st, 0, BAD_KERNEL) == -ECHILD);
	CHECK(wait4(-1, &st, 0, 0) == -ECHILD && st == 0x5A5A);
	/* A child that has not exited (2 s leaves room for a slow machine): WNOHANG answers 0, writes nothing. */
	pid = child_sleeps(2000);
	CHECK(pid > 0);
	CHECK(wait4(pid, BAD_KERNEL, WNOHANG, 0) == 0);
	CHECK(wait4(-1, BAD_UNMAP, WNOHANG, BAD_KERNEL) == 0);
	CHECK(wait4(pid, &st, WNOHANG, 0) == 0);
	CHECK(st == 0x5A5A);
	CHECK(wait4(pid, &st, 0, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/*
 * A zero-length buffer is checked as Linux's i386 access_ok() checks any range: it must end at
 * or below the top of user space (3 GiB), whatever it touches. So NULL and exactly 3 GiB pass,
 * anything above is -EFAULT. On a 64-bit kernel's compat layer the i386 program's user space
 * reaches 4 GiB and every such write is 0: the one place the two Linux references differ.
 */
static void t_zero_length_anywhere(void)
{
	long above = gt_on_64bit_kernel() ? 0 : -EFAULT;

	CHECK(write(1, BAD_KERNEL, 0) == 0);
	CHECK(write(1, (void *)0, 0) == 0);
	CHECK(write(1, BAD_KERNEL2, 0) == above);
	CHECK(write(1, (void *)0xFFFFFFF0, 0) == above);
	CHECK(write(1, BAD_KERNEL2, 4) == -EFAULT);     /* one byte is enough to fault */
}

/*
 * An orphan's exit signal becomes SIGCHLD when its new parent adopts it: a
 * clone() child that asked for SIGKILL must not kill init when it dies (the
 * fuzzer found that). Run as init, linuxabi is that new parent; on the
 * host, some other process is, and nothing is seen.
 */
static void t_orphan_exit_signal(void)
{
	int a = fork(), st;

	if (a == 0) {
		int b = syscall(__NR_clone, SIGKILL, 0, 0, 0, 0);       /* like fork, exit signal SIGKILL */

		if (b == 0) {
			msleep(200);    /* outlive the parent: an orphan */
			exit(0);
		}
		exit(b > 0 ? 0 : 1);
	}
	CHECK(a > 0);
	CHECK(waitpid(a, &st, 0) == a);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/*
	 * By now the orphan has died and told its new parent. If that killed
	 * init (us, in the guest), no "ok" line and no summary follow: the
	 * harness fails the run.
	 */
	msleep(500);
}

static void t_unknown_numbers(void)
{
	CHECK(syscall(9999, 0) == -ENOSYS);
	CHECK(syscall(-1, 0) == -ENOSYS);
	CHECK(syscall(0x7FFFFFFF, 0) == -ENOSYS);
}

int main(void)
{
	gt_start("linuxabi");
	printf("linuxabi: starting as pid %d\n", getpid());
	gt_run("wait_flags_accepted", t_wait_flags_accepted);
	gt_run("zombie_still_exists", t_zombie_still_exists);
	gt_run("affinity_negative_pid", t_affinity_negative_pid);
	gt_run("execve_missing", t_execve_missing);
	gt_run("wait4_answers_before_efault", t_wait4_answers_before_efault);
	gt_run("zero_length_anywhere", t_zero_length_anywhere);
	gt_run("unknown_numbers", t_unknown_numbers);
	gt_run("orphan_exit_signal", t_orphan_exit_signal);
	gt_finish();
}
