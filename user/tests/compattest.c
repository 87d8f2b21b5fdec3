/*
 * /bin/compattest: the calls real Linux programs make (busybox first among
 * them) that smpix answers as Linux does: getgroups and setgroups in both
 * widths, getcpu, the old fcntl, sendfile in both widths, mount and umount.
 *
 * Built for smpix and, with -DLINUX_HOST, for this Linux host
 * (build/compattest-linux): every expectation here is Linux's. Tests that
 * change the process (its groups, its affinity, the mount table) run in a
 * forked child. mount and umount need root in a mount namespace of their
 * own on Linux (tools/testcases/45_compat.py runs it under `unshare -m`);
 * without that they say so and are not counted.
 *
 *   compattest [--groups G...]   --groups: exit 0 if getgroups() is exactly G (after exec)
 */
#include "gtest.h"

#ifndef __NR_getgroups
#define __NR_fcntl 55
#define __NR_getgroups 80
#define __NR_setgroups 81
#define __NR_getgroups32 205
#define __NR_setgroups32 206
#define __NR_getcpu 318
#endif
#ifndef __NR_sched_setaffinity
#define __NR_sched_setaffinity 241
#define __NR_sched_getaffinity 242
#endif
#ifndef __NR_execve
#define __NR_execve 11
#endif
#ifndef __NR_geteuid32
#define __NR_geteuid32 201
#endif

#define NGROUPS 65536           /* Linux's NGROUPS_MAX */

static char *self_path;
static char **self_envp;
static bool is_root;

static void skip(const char *name, const char *why)
{
	printf("%s: %s skipped: %s\n", gt_suite, name, why);
}

/*
 * Run fn in a child, so what it changes dies with it. A failed CHECK in the
 * child prints its line and makes the child exit 1; the parent fails then.
 */
static void in_child(void (*fn)(void))
{
	int pid = gt_fork(), st;

	if (pid == 0) {
		gt_failure = 0;
		fn();
		if (gt_failure)
			printf("%s:   in the child: %s\n", gt_suite, gt_failure);
		gt_exit(gt_failure ? 1 : 0);
	}
	st = gt_wait(pid);
	if (st != 0) {
		snprintf(gt_why, sizeof(gt_why), "the child failed (status 0x%x)", st);
		gt_failure = gt_why;
	}
}

/* ---- getgroups, setgroups ---------------------------------------------------------------- */

static uint32_t gids[NGROUPS + 2];
static uint16_t gids16[8];

static void t_getgroups_count(void)
{
	long n = SYS2(__NR_getgroups32, 0, 0);

	CHECK(n >= 0);
	CHECK(SYS2(__NR_getgroups, 0, 0) == n);         /* the 16-bit call counts the same list */
	CHECK(SYS2(__NR_getgroups32, -1, gids) == -EINVAL);
	CHECK(SYS2(__NR_getgroups, -1, gids16) == -EINVAL);
	CHECK(SYS2(__NR_getgroups32, NGROUPS, gids) == n);
}

static void groups_roundtrip(void)
{
	static const uint32_t set[] = { 7, 3, 100000 };

	CHECK(SYS2(__NR_setgroups32, 3, set) == 0);
	CHECK(SYS2(__NR_getgroups32, 0, 0) == 3);
	gids[3] = 0xdead;
	CHECK(SYS2(__NR_getgroups32, 3, gids) == 3);
	/* Sorted, as Linux keeps them; nothing written past the list. */
	CHECK(gids[0] == 3 && gids[1] == 7 && gids[2] == 100000 && gids[3] == 0xdead);
	CHECK(SYS2(__NR_getgroups32, 2, gids) == -EINVAL);      /* too small for the list */
	CHECK(SYS2(__NR_getgroups32, 3, BAD_UNMAP) == -EFAULT);
	CHECK(SYS2(__NR_getgroups32, 0, BAD_UNMAP) == 3);       /* size 0: the count, no copy */
	/* The 16-bit call: a gid past 65535 shows as the overflow gid, 65534 (high2lowgid). */
	CHECK(SYS2(__NR_getgroups, 3, gids16) == 3);
	CHECK(gids16[0] == 3 && gids16[1] == 7 && gids16[2] == 65534);
	CHECK(SYS2(__NR_getgroups, 3, BAD_UNMAP) == -EFAULT);
	/* And back to none. */
	CHECK(SYS2(__NR_setgroups32, 0, 0) == 0);
	CHECK(SYS2(__NR_getgroups32, 0, 0) == 0);
	CHECK(SYS2(__NR_getgroups32, 3, BAD_UNMAP) == 0);       /* nothing to copy */
}

static void t_setgroups_roundtrip(void)
{
	in_child(groups_roundtrip);
}

static void groups_16bit(void)
{
	static const uint16_t set[] = { 500, 1, 500 };

	CHECK(SYS2(__NR_setgroups, 3, set) == 0);
	CHECK(SYS2(__NR_getgroups32, 4, gids) == 3);            /* duplicates kept */
	CHECK(gids[0] == 1 && gids[1] == 500 && gids[2] == 500);
}

static void t_setgroups_16bit(void)
{
	in_child(groups_16bit);
}

static void groups_errors(void)
{
	static const uint32_t minus_one[] = { 5, 0xFFFFFFFFu };
	static const uint16_t minus_one16[] = { 0xFFFF };
	static const uint32_t two[] = { 2, 1 };

	CHECK(SYS2(__NR_setgroups32, 2, two) == 0);
	CHECK(SYS2(__NR_setgroups32, 2, minus_one) == -EINVAL);         /* (gid_t)-1 names no group */
	CHECK(SYS2(__NR_setgroups, 1, minus_one16) == -EINVAL);         /* nor does 0xFFFF in 16 bits */
	CHECK(SYS2(__NR_setgroups32, NGROUPS + 1, gids) == -EINVAL);
	CHECK(SYS2(__NR_setgroups32, -1, gids) == -EINVAL);
	CHECK(SYS2(__NR_setgroups, NGROUPS + 1, gids16) == -EINVAL);
	CHECK(SYS2(__NR_setgroups32, 2, BAD_UNMAP) == -EFAULT);
	CHECK(SYS2(__NR_setgroups, 2, BAD_UNMAP) == -EFAULT);
	/* A failed call changes nothing. */
	CHECK(SYS2(__NR_getgroups32, 2, gids) == 2 && gids[0] == 1 && gids[1] == 2);
}

static void t_setgroups_errors(void)
{
	in_child(groups_errors);
}

/* NGROUPS_MAX groups: the most Linux takes. */
static void groups_max(void)
{
	for (uint32_t i = 0; i < NGROUPS; i++)
		gids[i] = NGROUPS - i;
	CHECK(SYS2(__NR_setgroups32, NGROUPS, gids) == 0);
	CHECK(SYS2(__NR_getgroups32, 0, 0) == NGROUPS);
	CHECK(SYS2(__NR_getgroups32, NGROUPS, gids) == NGROUPS);
	CHECK(gids[0] == 1 && gids[NGROUPS - 1] == NGROUPS);
}

static void t_setgroups_max(void)
{
	in_child(groups_max);
}

/* Exit 0 if the list is exactly argv (numbers), else 1: what the program after exec sees. */
static int groups_are(char **argv, int n)
{
	long got = SYS2(__NR_getgroups32, NGROUPS, gids);

	if (got != n)
		return 1;
	for (int i = 0; i < n; i++) {
		uint32_t want = 0;

		for (const char *p = argv[i]; *p; p++)
			want = want * 10 + (uint32_t)(*p - '0');
		if (gids[i] != want)
			return 1;
	}
	return 0;
}

static void groups_inherited(void)
{
	static const uint32_t set[] = { 42, 9 };
	char *argv[] = { self_path, "--groups", "9", "42", NULL };
	int pid, st;

	CHECK(SYS2(__NR_setgroups32, 2, set) == 0);
	/* fork: the child has the same list, and its own from then on. */
	pid = gt_fork();
	if (pid == 0) {
		static const uint32_t other[] = { 1 };

		if (SYS2(__NR_getgroups32, 4, gids) != 2 || gids[0] != 9 || gids[1] != 42)
			gt_exit(1);
		gt_exit(SYS2(__NR_setgroups32, 1, other) == 0 ? 0 : 2);
	}
	CHECK(gt_wait(pid) == 0);
	CHECK(SYS2(__NR_getgroups32, 4, gids) == 2 && gids[0] == 9 && gids[1] == 42);
	/* exec: the new program has it too. */
	pid = gt_fork();
	if (pid == 0) {
		SYS3(__NR_execve, self_path, argv, self_envp);
		gt_exit(3);
	}
	st = gt_wait(pid);
	CHECK(st != (3 << 8));          /* exec itself failed */
	CHECK(st == 0);
}

static void t_groups_fork_exec(void)
{
	in_child(groups_inherited);
}

/* ---- fcntl (55), the old number ----------------------------------------------------------- */

static void t_fcntl_old(void)
{
	int fd = (int)SYS2(__NR_open, "/", O_RDONLY), dup;

	CHECK(fd >= 0);
	CHECK(SYS3(__NR_fcntl, fd, F_GETFD, 0) == 0);
	CHECK(SYS3(__NR_fcntl, fd, F_SETFD, FD_CLOEXEC) == 0);
	CHECK(SYS3(__NR_fcntl, fd, F_GETFD, 0) == FD_CLOEXEC);
	CHECK((SYS3(__NR_fcntl, fd, F_GETFL, 0) & O_NONBLOCK) == 0);
	CHECK(SYS3(__NR_fcntl, fd, F_SETFL, O_NONBLOCK) == 0);
	CHECK(SYS3(__NR_fcntl, fd, F_GETFL, 0) & O_NONBLOCK);
	CHECK(SYS3(__NR_fcntl64, fd, F_GETFL, 0) == SYS3(__NR_fcntl, fd, F_GETFL, 0));
	dup = (int)SYS3(__NR_fcntl, fd, F_DUPFD, 50);
	CHECK(dup >= 50);
	CHECK(SYS3(__NR_fcntl, dup, F_GETFD, 0) == 0);          /* F_DUPFD: no close-on-exec */
	gt_close(dup);
	dup = (int)SYS3(__NR_fcntl, fd, F_DUPFD_CLOEXEC, 60);
	CHECK(dup >= 60 && SYS3(__NR_fcntl, dup, F_GETFD, 0) == FD_CLOEXEC);
	gt_close(dup);
	CHECK(SYS3(__NR_fcntl, fd, F_DUPFD, -1) == -EINVAL);
	CHECK(SYS3(__NR_fcntl, fd, 9999, 0) == -EINVAL);
	gt_close(fd);
	CHECK(SYS3(__NR_fcntl, fd, F_GETFD, 0) == -EBADF);
	CHECK(SYS3(__NR_fcntl, fd, 9999, 0) == -EBADF);
}

/* ---- getcpu -------------------------------------------------------------------------------- */

static void t_getcpu(void)
{
	uint32_t mask = 0, cpu = 99, node = 99;

	CHECK(SYS3(__NR_sched_getaffinity, 0, sizeof(mask), &mask) > 0);
	CHECK(SYS3(__NR_getcpu, &cpu, &node, 0) == 0);
	CHECK(cpu < 32 && (mask & (1u << cpu)));                /* a CPU it may run on */
	CHECK(node == 0);
	CHECK(SYS3(__NR_getcpu, 0, 0, 0) == 0);                 /* either pointer may be NULL */
	CHECK(SYS3(__NR_getcpu, &cpu, 0, 0) == 0);
	CHECK(SYS3(__NR_getcpu, 0, &node, 0) == 0 && node == 0);
	CHECK(SYS3(__NR_getcpu, BAD_UNMAP, &node, 0) == -EFAULT);
	CHECK(SYS3(__NR_getcpu, &cpu, BAD_UNMAP, 0) == -EFAULT);
	if (!ON_LINUX)
		CHECK(SYS3(__NR_getcpu, BAD_KERNEL, 0, 0) == -EFAULT);
}

/* Pinned to each CPU in turn, getcpu names that CPU. */
static void getcpu_pinned(void)
{
	uint32_t mask = 0, cpu;
	int tried = 0;

	CHECK(SYS3(__NR_sched_getaffinity, 0, sizeof(mask), &mask) > 0);
	for (uint32_t c = 0; c < 32; c++) {
		uint32_t one = 1u << c;

		if (!(mask & one))
			continue;
		CHECK(SYS3(__NR_sched_setaffinity, 0, sizeof(one), &one) == 0);
		cpu = 99;
		CHECK(SYS3(__NR_getcpu, &cpu, 0, 0) == 0);
		CHECK(cpu == c);
		tried++;
	}
	CHECK(tried >= 1);
}

static void t_getcpu_pinned(void)
{
	in_child(getcpu_pinned);
}

int main(int argc, char **argv)
{
	char **envp = argv + argc + 1;

	if (argc >= 2 && strcmp(argv[1], "--groups") == 0)
		return groups_are(argv + 2, argc - 2);
	self_path = argv[0];
	self_envp = envp;
	is_root = SYS0(__NR_geteuid32) == 0;
	gt_start("compattest");
	gt_run("getgroups_count", t_getgroups_count);
	if (is_root) {
		gt_run("setgroups_roundtrip", t_setgroups_roundtrip);
		gt_run("setgroups_16bit", t_setgroups_16bit);
		gt_run("setgroups_errors", t_setgroups_errors);
		gt_run("setgroups_max", t_setgroups_max);
		gt_run("groups_fork_exec", t_groups_fork_exec);
	} else {
		skip("setgroups", "not root (setgroups needs CAP_SETGID on Linux)");
	}
	gt_run("fcntl_old", t_fcntl_old);
	gt_run("getcpu", t_getcpu);
	gt_run("getcpu_pinned", t_getcpu_pinned);
	gt_finish();
}
