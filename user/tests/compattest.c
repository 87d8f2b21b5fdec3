/*
 * /bin/compattest: the calls real Linux programs make (busybox first among
 * them) that smpix answers as Linux does: getgroups and setgroups in both
 * widths, getcpu, the old fcntl, sendfile in both widths, mount and umount;
 * and the segment registers a program set, as it set them after a system call.
 *
 * Built for smpix and, with -DLINUX_HOST, for this Linux host
 * (build/compattest-linux): every expectation here is Linux's. Tests that
 * change the process (its groups, its affinity, the mount table) run in a
 * forked child. mount and umount need root in a mount namespace of their
 * own on Linux (tools/test/cases/45_compat.py runs it under `unshare -m`);
 * without that they say so and are not counted.
 *
 *   compattest [--groups G...]   --groups: exit 0 if getgroups() is exactly G (after exec)
 */
#include "gtest.h"

#include "kernel/uapi/statfs.h"

#ifndef __NR_getgroups
#define __NR_statfs64 268
#define __NR_fstatfs64 269
#define __NR_utimensat 320
#define __NR_mount 21
#define __NR_umount 22
#define __NR_umount2 52
#define __NR_sendfile 187
#define __NR_sendfile64 239
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
#ifndef __NR_set_thread_area
#define __NR_set_thread_area 243
#endif
#ifndef __NR_getpid
#define __NR_getpid 20
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

/* A source of 2 GiB of zeros for sendfile: /dev/zero, or where the kernel cannot splice from
 * /dev/zero (Linux before 6.5: -EINVAL), a sparse file of that size, which every kernel reads
 * as zeros without storing them. */
static int zeros_source(int null)
{
	char path[64];
	int zero = (int)SYS2(__NR_open, "/dev/zero", O_RDONLY), fd;

	if (zero < 0 || SYS4(__NR_sendfile64, null, zero, 0, 1) != -EINVAL)
		return zero;
	SYS1(__NR_close, zero);
	snprintf(path, sizeof(path), "/tmp/compattest.%ld.zeros", SYS0(__NR_getpid));
	fd = (int)SYS3(__NR_open, path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	SYS1(__NR_unlink, path);
	if (fd < 0 || SYS2(__NR_ftruncate, fd, 0x7FFFF000) != 0)
		return -1;
	return fd;
}

/* A signal ends a long sendfile: 2 GiB of zeros to /dev/null, with SIGALRM due in 1 s. */
static void t_sendfile_signal(void)
{
	int64_t start = gt_now_ms();
	int pid = gt_fork(), st;

	if (pid == 0) {
		int null = (int)SYS2(__NR_open, "/dev/null", O_WRONLY);
		int zero = null < 0 ? -1 : zeros_source(null);

		if (zero < 0 || null < 0)
			gt_exit(2);
		SYS1(__NR_alarm, 1);    /* SIGALRM's default action ends the process */
		gt_exit(SYS4(__NR_sendfile64, null, zero, 0, 0x7FFFF000) > 0 ? 0 : 3);
	}
	st = gt_wait(pid);
	if (!((WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) || st == 0))
		printf("compattest: sendfile_signal: the child's wait status is %#x after %lld ms\n", st,
		       (long long)(gt_now_ms() - start));
	/* Linux may finish first (it splices fast); either way, not long after the alarm. */
	CHECK((WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) || st == 0);
	CHECK(gt_now_ms() - start < 6000);
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

/* ---- sendfile, sendfile64 ------------------------------------------------------------------- */

static char src_path[64], dst_path[64];
static char big[10000], back[10000];

static int make_file(const char *path, const char *data, size_t n)
{
	int fd = (int)SYS3(__NR_open, path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0 && gt_write(fd, data, n) != (long)n)
		return -1;
	return fd;
}

static long pos_of(int fd)
{
	return SYS3(__NR_lseek, fd, 0, SEEK_CUR);
}

/* The whole of path, into buf (n bytes at most): its length. */
static long contents(const char *path, char *buf, size_t n)
{
	int fd = (int)SYS2(__NR_open, path, O_RDONLY);
	long got = 0, r;

	if (fd < 0)
		return fd;
	while (got < (long)n && (r = gt_read(fd, buf + got, n - got)) > 0)
		got += r;
	gt_close(fd);
	return got;
}

static void sendfile_paths(void)
{
	int pid = (int)SYS0(__NR_getpid);

	snprintf(src_path, sizeof(src_path), "/tmp/compattest.%d.src", pid);
	snprintf(dst_path, sizeof(dst_path), "/tmp/compattest.%d.dst", pid);
}

static void sendfile_cleanup(void)
{
	SYS1(__NR_unlink, src_path);
	SYS1(__NR_unlink, dst_path);
}

static void t_sendfile(void)
{
	int in, out;
	int64_t off;
	int32_t off32;
	char buf[32];

	sendfile_paths();
	in = make_file(src_path, "0123456789", 10);
	out = make_file(dst_path, "", 0);
	CHECK(in >= 0 && out >= 0);
	CHECK(SYS3(__NR_lseek, in, 0, SEEK_SET) == 0);
	/* No offset: from in's position, which moves; out's moves too. */
	CHECK(SYS4(__NR_sendfile64, out, in, 0, 4) == 4);
	CHECK(pos_of(in) == 4 && pos_of(out) == 4);
	/* An offset: read there, the offset moves, in's position does not. */
	off = 6;
	CHECK(SYS4(__NR_sendfile64, out, in, &off, 3) == 3);
	CHECK(off == 9 && pos_of(in) == 4 && pos_of(out) == 7);
	off = 100;
	CHECK(SYS4(__NR_sendfile64, out, in, &off, 5) == 0 && off == 100);     /* past the end */
	CHECK(SYS4(__NR_sendfile64, out, in, 0, 0) == 0 && pos_of(in) == 4);   /* count 0 */
	/* The rest, asking for more than there is. */
	CHECK(SYS4(__NR_sendfile64, out, in, 0, 100) == 6 && pos_of(in) == 10);
	CHECK(SYS4(__NR_sendfile64, out, in, 0, 100) == 0);
	/* The 32-bit call, with and without an offset. */
	off32 = 2;
	CHECK(SYS4(__NR_sendfile, out, in, &off32, 2) == 2 && off32 == 4);
	CHECK(SYS3(__NR_lseek, in, 8, SEEK_SET) == 8);
	CHECK(SYS4(__NR_sendfile, out, in, 0, 5) == 2 && pos_of(in) == 10);
	CHECK(contents(dst_path, buf, sizeof(buf)) == 17);
	CHECK(memcmp(buf, "01236784567892389", 17) == 0);
	gt_close(in);
	gt_close(out);
	sendfile_cleanup();
}

/* More than a page, to a pipe and to a file: every byte arrives, in order. */
static void t_sendfile_big(void)
{
	int in, out, p[2];
	int64_t off = 0;
	long got = 0, r;

	sendfile_paths();
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + (i * 7 + i / 26) % 26);
	in = make_file(src_path, big, sizeof(big));
	out = make_file(dst_path, "", 0);
	CHECK(in >= 0 && out >= 0);
	CHECK(SYS4(__NR_sendfile64, out, in, &off, sizeof(big)) == (long)sizeof(big));
	CHECK(off == (int64_t)sizeof(big) && pos_of(in) == (long)sizeof(big));
	CHECK(contents(dst_path, back, sizeof(back)) == (long)sizeof(big));
	CHECK(memcmp(big, back, sizeof(big)) == 0);
	/* To a pipe (in pieces: a pipe holds less than the file). */
	CHECK(SYS1(__NR_pipe, p) == 0);
	off = 0;
	memset(back, 0, sizeof(back));
	while (got < (long)sizeof(big)) {
		r = SYS4(__NR_sendfile64, p[1], in, &off, MIN(3000, sizeof(big) - off));
		CHECK(r > 0);
		CHECK(gt_read(p[0], back + got, sizeof(back) - got) == r);
		got += r;
	}
	CHECK(memcmp(big, back, sizeof(big)) == 0);
	gt_close(p[0]);
	gt_close(p[1]);
	gt_close(in);
	gt_close(out);
	sendfile_cleanup();
}

static void t_sendfile_errors(void)
{
	int in, out, ro, wo, app, dir, p[2];
	int64_t off;
	int32_t off32;

	sendfile_paths();
	in = make_file(src_path, "0123456789", 10);
	out = make_file(dst_path, "", 0);
	CHECK(in >= 0 && out >= 0 && SYS1(__NR_pipe, p) == 0);
	ro = (int)SYS2(__NR_open, dst_path, O_RDONLY);
	wo = (int)SYS2(__NR_open, src_path, O_WRONLY);
	app = (int)SYS2(__NR_open, dst_path, O_WRONLY | O_APPEND);
	dir = (int)SYS2(__NR_open, "/", O_RDONLY);
	CHECK(ro >= 0 && wo >= 0 && app >= 0 && dir >= 0);
	off = 0;
	CHECK(SYS4(__NR_sendfile64, out, 99, &off, 1) == -EBADF);
	CHECK(SYS4(__NR_sendfile64, 99, in, &off, 1) == -EBADF);
	CHECK(SYS4(__NR_sendfile64, 99, in, &off, 0) == -EBADF);       /* fds first, even for 0 bytes */
	CHECK(SYS4(__NR_sendfile64, out, wo, &off, 1) == -EBADF);      /* in not open for reading */
	CHECK(SYS4(__NR_sendfile64, ro, in, &off, 1) == -EBADF);       /* out not open for writing */
	CHECK(SYS4(__NR_sendfile64, out, p[0], &off, 1) == -ESPIPE);   /* an offset into a pipe */
	CHECK(gt_write(p[1], "x", 1) == 1);
	CHECK(SYS4(__NR_sendfile64, out, p[0], 0, 1) == -EINVAL);      /* a pipe is no source */
	CHECK(SYS4(__NR_sendfile64, out, dir, 0, 1) == -EINVAL);       /* nor is a directory */
	CHECK(SYS4(__NR_sendfile64, app, in, &off, 1) == -EINVAL);     /* out may not be O_APPEND */
	off = -1;
	CHECK(SYS4(__NR_sendfile64, out, in, &off, 1) == -EINVAL);
	CHECK(SYS4(__NR_sendfile64, out, in, BAD_UNMAP, 1) == -EFAULT);
	CHECK(SYS4(__NR_sendfile, out, in, BAD_UNMAP, 1) == -EFAULT);
	CHECK(SYS4(__NR_sendfile64, 98, 99, BAD_UNMAP, 1) == -EFAULT); /* the offset is read first */
	/* The 32-bit call stops at 2 GiB - 1; the 64-bit one does not. */
	off32 = 0x7FFFFFFF;
	CHECK(SYS4(__NR_sendfile, out, in, &off32, 1) == -EOVERFLOW);
	off = 0x7FFFFFFF;
	CHECK(SYS4(__NR_sendfile64, out, in, &off, 1) == 0);
	CHECK(pos_of(out) == 0);        /* nothing was written by any of these */
	gt_close(in);
	gt_close(out);
	gt_close(ro);
	gt_close(wo);
	gt_close(app);
	gt_close(dir);
	gt_close(p[0]);
	gt_close(p[1]);
	sendfile_cleanup();
}

/* ---- utimensat ------------------------------------------------------------------------------ */

#define UTIME_NOW  ((1 << 30) - 1)
#define UTIME_OMIT ((1 << 30) - 2)

struct ts32 {
	int32_t sec, nsec;
};

static bool times_are(const char *path, uint32_t atime, uint32_t mtime)
{
	struct stat64 st;

	return SYS2(__NR_stat64, path, &st) == 0 && st.st_atime == atime && st.st_mtime == mtime;
}

static void t_utimensat(void)
{
	struct ts32 t[2] = { { 1000000000, 0 }, { 1234567890, 0 } };
	struct stat64 st;
	int fd, dirfd;
	int32_t now;

	sendfile_paths();
	fd = make_file(src_path, "x", 1);
	CHECK(fd >= 0);
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, src_path, t, 0) == 0);
	CHECK(times_are(src_path, 1000000000, 1234567890));
	/* UTIME_OMIT keeps one, UTIME_NOW sets it to now. */
	t[0].sec = 5;
	t[1].nsec = UTIME_OMIT;
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, src_path, t, 0) == 0);
	CHECK(times_are(src_path, 5, 1234567890));
	now = (int32_t)SYS1(__NR_time, 0);
	t[1].nsec = UTIME_NOW;
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, src_path, t, 0) == 0);
	CHECK(SYS2(__NR_stat64, src_path, &st) == 0 && st.st_atime == 5);
	CHECK((int32_t)st.st_mtime >= now - 1 && (int32_t)st.st_mtime <= now + 2);
	/* NULL times: both now (touch). */
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, src_path, 0, 0) == 0);
	CHECK(SYS2(__NR_stat64, src_path, &st) == 0 && (int32_t)st.st_atime >= now - 1);
	/* A NULL path: the file dirfd is open on (futimens). */
	t[0].sec = 77;
	t[0].nsec = 0;
	t[1].sec = 88;
	t[1].nsec = 999999999;
	CHECK(SYS4(__NR_utimensat, fd, 0, t, 0) == 0);
	CHECK(times_are(src_path, 77, 88));
	CHECK(SYS4(__NR_utimensat, fd, 0, t, AT_SYMLINK_NOFOLLOW) == -EINVAL);
	/* Relative to a directory fd, and AT_EMPTY_PATH. */
	dirfd = (int)SYS2(__NR_open, "/tmp", O_RDONLY);
	CHECK(dirfd >= 0);
	t[0].sec = 1;
	CHECK(SYS4(__NR_utimensat, dirfd, src_path + 5, t, 0) == 0);   /* "compattest.PID.src" */
	CHECK(times_are(src_path, 1, 88));
	t[0].sec = 2;
	CHECK(SYS4(__NR_utimensat, fd, "", t, AT_EMPTY_PATH) == 0);
	CHECK(times_are(src_path, 2, 88));
	/* Errors, in Linux's order. */
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, src_path, BAD_UNMAP, 0) == -EFAULT);
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, "/nonexistent", t, 0) == -ENOENT);
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, "", t, 0) == -ENOENT);
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, 0, t, 0) == -EFAULT);
	CHECK(SYS4(__NR_utimensat, 99, 0, t, 0) == -EBADF);
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, src_path, t, 0x8000) == -EINVAL);
	t[1].nsec = 1000000000;
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, src_path, t, 0) == -EINVAL);
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, "/nonexistent", t, 0) == -ENOENT);  /* the path before the time */
	t[0].nsec = t[1].nsec = UTIME_OMIT;
	CHECK(SYS4(__NR_utimensat, AT_FDCWD, "/nonexistent", t, 0) == 0);       /* nothing to do: 0 at once */
	CHECK(times_are(src_path, 2, 88));
	gt_close(dirfd);
	gt_close(fd);
	sendfile_cleanup();
}

/* ---- statfs64, fstatfs64 ----------------------------------------------------------------------- */

static void t_statfs(void)
{
	struct statfs64 st;
	int fd, p[2];

	memset(&st, 0xff, sizeof(st));
	CHECK(SYS3(__NR_statfs64, "/proc", sizeof(st), &st) == 0);
	CHECK(st.f_type == PROC_SUPER_MAGIC && st.f_bsize == 4096 && st.f_namelen == 255);
	CHECK(st.f_flags & ST_VALID);
	CHECK(SYS3(__NR_statfs64, "/proc/self", sizeof(st), &st) == 0 && st.f_type == PROC_SUPER_MAGIC);
	fd = (int)SYS2(__NR_open, "/proc/uptime", O_RDONLY);
	CHECK(fd >= 0);
	CHECK(SYS3(__NR_fstatfs64, fd, sizeof(st), &st) == 0 && st.f_type == PROC_SUPER_MAGIC);
	CHECK(SYS3(__NR_fstatfs64, fd, sizeof(st) - 1, &st) == -EINVAL);
	CHECK(SYS3(__NR_fstatfs64, fd, sizeof(st), BAD_UNMAP) == -EFAULT);
	gt_close(fd);
	CHECK(SYS1(__NR_pipe, p) == 0);
	CHECK(SYS3(__NR_fstatfs64, p[0], sizeof(st), &st) == 0 && st.f_type == PIPEFS_MAGIC);
	gt_close(p[0]);
	gt_close(p[1]);
	CHECK(SYS3(__NR_fstatfs64, 99, sizeof(st), &st) == -EBADF);
	CHECK(SYS3(__NR_statfs64, "/nonexistent", sizeof(st), &st) == -ENOENT);
	CHECK(SYS3(__NR_statfs64, "/proc", sizeof(st), BAD_UNMAP) == -EFAULT);
	CHECK(SYS3(__NR_statfs64, "/proc", 88, &st) == -EINVAL);
	CHECK(SYS3(__NR_statfs64, BAD_UNMAP, sizeof(st), &st) == -EFAULT);
}

/* ---- mount, umount2, umount ------------------------------------------------------------------- */

#define MNT_FORCE   1
#define MNT_DETACH  2
#define MNT_EXPIRE  4
#define MS_BIND     0x1000
#define MS_REMOUNT  0x20

static char mnt[64], sub[80], file_in[80];

static inline long gt_syscall5(long nr, long a, long b, long c, long d, long e)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e) : "memory");
	return r;
}

static long do_mount(const char *source, const char *target, const char *type, unsigned long flags)
{
	return gt_syscall5(__NR_mount, (long)source, (long)target, (long)type, (long)flags, 0);
}

static long umount2(const char *target, int flags)
{
	return SYS2(__NR_umount2, target, flags);
}

/*
 * On Linux, the mount tests must never touch the host's own mount table:
 * each runs in a child that first moves to a mount namespace of its own
 * (unshare(CLONE_NEWNS)) and makes every mount in it private, as
 * `unshare -m` does. That needs root; without it they are skipped. smpix
 * has one mount table, and the test is alone in it.
 */
#define __NR_unshare 310
#define CLONE_NEWNS  0x00020000
#define MS_REC       0x4000
#define MS_PRIVATE   (1 << 18)

static int own_mount_namespace(void)
{
	long r;

	if (!ON_LINUX)
		return 0;
	r = SYS1(__NR_unshare, CLONE_NEWNS);
	if (r == 0)
		r = do_mount(NULL, "/", NULL, MS_REC | MS_PRIVATE);
	return (int)r;
}

static bool mounts_ok(void)
{
	int pid, st;

	if (!ON_LINUX)
		return true;
	pid = gt_fork();
	if (pid == 0)
		gt_exit(own_mount_namespace() == 0 ? 0 : 1);
	st = gt_wait(pid);
	if (st != 0)
		skip("mount", "cannot make a mount namespace of its own here (unshare(CLONE_NEWNS) needs root)");
	return st == 0;
}

static bool exists(const char *path)
{
	struct stat64 st;

	return SYS2(__NR_stat64, path, &st) == 0;
}

/* A fresh directory to mount on, /tmp/compattest.PID.mnt, and names inside it. */
static void mount_paths(void)
{
	int pid = (int)SYS0(__NR_getpid);

	snprintf(mnt, sizeof(mnt), "/tmp/compattest.%d.mnt", pid);
	snprintf(sub, sizeof(sub), "%s/sub", mnt);
	snprintf(file_in, sizeof(file_in), "%s/file", mnt);
	SYS2(__NR_mkdir, mnt, 0755);
}

static long inodes_now(void)
{
	struct counts c;

	return gt_read_counts(&c) < 0 ? -1 : c.inodes;
}

/* Is there a line "SOURCE PATH TYPE ..." in /proc/mounts? */
static bool in_proc_mounts(const char *source, const char *path, const char *type)
{
	static char text[8192], line[200];
	int fd = (int)SYS2(__NR_open, "/proc/mounts", O_RDONLY);
	long n = 0, r;

	if (fd < 0)
		return false;
	while (n < (long)sizeof(text) - 1 && (r = gt_read(fd, text + n, sizeof(text) - 1 - n)) > 0)
		n += r;
	gt_close(fd);
	text[n] = 0;
	snprintf(line, sizeof(line), "%s %s %s ", source, path, type);
	return gt_strstr(text, line) != NULL;
}

static void mount_proc(void)
{
	char link[16], want[16];
	char self[96];
	long n;

	CHECK(own_mount_namespace() == 0);
	mount_paths();
	CHECK(do_mount("proc", mnt, "proc", 0) == 0);
	snprintf(self, sizeof(self), "%s/self", mnt);
	n = SYS3(__NR_readlink, self, link, sizeof(link) - 1);
	CHECK(n > 0);
	link[n] = 0;
	snprintf(want, sizeof(want), "%d", (int)SYS0(__NR_getpid));
	CHECK(strcmp(link, want) == 0);                         /* a working procfs: /proc/self is us */
	CHECK(in_proc_mounts("proc", mnt, "proc"));
	CHECK(umount2(mnt, 0) == 0);
	CHECK(!exists(self));
	CHECK(!in_proc_mounts("proc", mnt, "proc"));
	CHECK(SYS1(__NR_rmdir, mnt) == 0);
}

static void t_mount_proc(void)
{
	in_child(mount_proc);
}

static void mount_tmpfs(void)
{
	static const char *const types[] = { "tmpfs", "ramfs" };
	long before = ON_LINUX ? 0 : inodes_now();

	CHECK(own_mount_namespace() == 0);
	mount_paths();
	for (int i = 0; i < 2; i++) {
		int fd;

		struct statfs64 sf;

		CHECK(do_mount("none", mnt, types[i], 0) == 0);
		CHECK(in_proc_mounts("none", mnt, types[i]));
		CHECK(SYS3(__NR_statfs64, mnt, sizeof(sf), &sf) == 0);
		CHECK(sf.f_type == (i == 0 ? TMPFS_MAGIC : RAMFS_MAGIC));
		CHECK(!exists(file_in));                        /* a new, empty file system */
		fd = (int)SYS3(__NR_open, file_in, O_WRONLY | O_CREAT, 0644);
		CHECK(fd >= 0 && gt_write(fd, "data", 4) == 4);
		gt_close(fd);
		CHECK(SYS2(__NR_mkdir, sub, 0755) == 0);
		CHECK(exists(file_in) && exists(sub));
		CHECK(umount2(mnt, 0) == 0);
		CHECK(!exists(file_in) && !exists(sub));       /* gone with the file system */
	}
	CHECK(SYS1(__NR_rmdir, mnt) == 0);
	if (!ON_LINUX)
		CHECK(inodes_now() == before);                  /* every inode of the instances freed */
}

static void t_mount_tmpfs(void)
{
	in_child(mount_tmpfs);
}

static void mount_devtmpfs(void)
{
	char null[96];
	struct stat64 st;
	struct statfs64 sf;

	CHECK(own_mount_namespace() == 0);
	mount_paths();
	snprintf(null, sizeof(null), "%s/null", mnt);
	CHECK(do_mount("devtmpfs", mnt, "devtmpfs", 0) == 0);
	CHECK(SYS2(__NR_stat64, null, &st) == 0 && S_ISCHR(st.st_mode));
	CHECK(SYS3(__NR_statfs64, mnt, sizeof(sf), &sf) == 0 && sf.f_type == TMPFS_MAGIC);
	CHECK(umount2(mnt, 0) == 0);
	CHECK(!exists(null));
	CHECK(SYS1(__NR_rmdir, mnt) == 0);
}

static void t_mount_devtmpfs(void)
{
	in_child(mount_devtmpfs);
}

static void mount_errors(void)
{
	int fd;

	CHECK(own_mount_namespace() == 0);
	mount_paths();
	fd = (int)SYS3(__NR_open, file_in, O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0);
	gt_close(fd);
	CHECK(do_mount("x", mnt, "nosuchfs", 0) == -ENODEV);
	CHECK(do_mount("x", "/nonexistent/dir", "nosuchfs", 0) == -ENOENT);    /* the target first */
	CHECK(do_mount("x", "/nonexistent", "tmpfs", 0) == -ENOENT);
	CHECK(do_mount("x", file_in, "tmpfs", 0) == -ENOTDIR);
	CHECK(do_mount("x", file_in, "proc", 0) == -ENOTDIR);
	CHECK(do_mount("x", mnt, NULL, 0) == -EINVAL);
	CHECK(do_mount("x", mnt, BAD_UNMAP, 0) == -EFAULT);
	CHECK(do_mount(BAD_UNMAP, mnt, "tmpfs", 0) == -EFAULT);
	CHECK(do_mount("x", BAD_UNMAP, "tmpfs", 0) == -EFAULT);
	CHECK(do_mount("x", "", "tmpfs", 0) == -ENOENT);
	if (!ON_LINUX) {
		/* smpix has no bind mounts (Linux has); a remount of what is not a mount's root is -EINVAL on both. */
		CHECK(do_mount("/", mnt, NULL, MS_BIND) == -EINVAL);
		CHECK(do_mount("x", mnt, "tmpfs", MS_REMOUNT) == -EINVAL);
	}
	CHECK(SYS1(__NR_unlink, file_in) == 0);
	CHECK(SYS1(__NR_rmdir, mnt) == 0);
}

static void t_mount_errors(void)
{
	in_child(mount_errors);
}

static void umount_busy(void)
{
	int fd;
	char buf[8];

	CHECK(own_mount_namespace() == 0);
	mount_paths();
	CHECK(umount2(mnt, 0) == -EINVAL);                      /* not a mount point */
	CHECK(umount2("/nonexistent", 0) == -ENOENT);
	CHECK(umount2(BAD_UNMAP, 0) == -EFAULT);
	CHECK(umount2(mnt, 0x100) == -EINVAL);                  /* an unknown flag, checked first */
	CHECK(umount2("/nonexistent", 0x100) == -EINVAL);
	CHECK(do_mount("none", mnt, "tmpfs", 0) == 0);
	CHECK(umount2(mnt, MNT_EXPIRE | MNT_DETACH) == -EINVAL);
	/* An open file inside: busy. */
	fd = (int)SYS3(__NR_open, file_in, O_RDWR | O_CREAT, 0644);
	CHECK(fd >= 0 && gt_write(fd, "kept", 4) == 4);
	CHECK(umount2(mnt, 0) == -EBUSY);
	CHECK(umount2(mnt, MNT_EXPIRE) == -EBUSY);
	gt_close(fd);
	/* The current directory inside: busy. */
	CHECK(SYS2(__NR_mkdir, sub, 0755) == 0);
	CHECK(SYS1(__NR_chdir, sub) == 0);
	CHECK(umount2(mnt, 0) == -EBUSY);
	CHECK(SYS1(__NR_chdir, "/") == 0);
	/* A mount below it: busy; that one first. */
	CHECK(do_mount("none", sub, "tmpfs", 0) == 0);
	CHECK(umount2(mnt, 0) == -EBUSY);
	CHECK(umount2(sub, 0) == 0);
	/* MNT_FORCE, where nothing is in use, is a plain umount. */
	CHECK(umount2(mnt, MNT_FORCE) == 0);
	CHECK(umount2(mnt, 0) == -EINVAL);
	/* MNT_DETACH: out of the tree at once, while an open file inside still works. */
	CHECK(do_mount("none", mnt, "tmpfs", 0) == 0);
	fd = (int)SYS3(__NR_open, file_in, O_RDWR | O_CREAT, 0644);
	CHECK(fd >= 0 && gt_write(fd, "held", 4) == 4);
	CHECK(umount2(mnt, MNT_DETACH) == 0);
	CHECK(!exists(file_in));
	CHECK(SYS3(__NR_lseek, fd, 0, SEEK_SET) == 0 && gt_read(fd, buf, 4) == 4 && memcmp(buf, "held", 4) == 0);
	gt_close(fd);
	CHECK(SYS1(__NR_rmdir, mnt) == 0);
}

static void t_umount_busy(void)
{
	in_child(umount_busy);
}

static void umount_expire_stack(void)
{
	char self[96];
	int fd;

	CHECK(own_mount_namespace() == 0);
	mount_paths();
	/* MNT_EXPIRE: the first call marks it, a second one (nothing used it since) unmounts. */
	CHECK(do_mount("none", mnt, "tmpfs", 0) == 0);
	CHECK(umount2(mnt, MNT_EXPIRE) == -EAGAIN);
	CHECK(umount2(mnt, MNT_EXPIRE) == 0);
	CHECK(do_mount("none", mnt, "tmpfs", 0) == 0);
	CHECK(umount2(mnt, MNT_EXPIRE) == -EAGAIN);
	CHECK(!exists(file_in));                                /* a use: the mark is gone */
	CHECK(umount2(mnt, MNT_EXPIRE) == -EAGAIN);
	CHECK(umount2(mnt, MNT_EXPIRE) == 0);
	/* Stacked on one directory: each umount takes the top one off. */
	CHECK(do_mount("none", mnt, "tmpfs", 0) == 0);
	CHECK(do_mount("proc", mnt, "proc", 0) == 0);
	CHECK(do_mount("none", mnt, "ramfs", 0) == 0);
	fd = (int)SYS3(__NR_open, file_in, O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0);
	gt_close(fd);
	snprintf(self, sizeof(self), "%s/self", mnt);
	CHECK(exists(file_in) && !exists(self));
	CHECK(umount2(mnt, 0) == 0);
	CHECK(!exists(file_in) && exists(self));                /* proc, below */
	CHECK(SYS1(__NR_umount, mnt) == 0);                     /* the oldest call: umount2 without flags */
	CHECK(!exists(self));
	CHECK(umount2(mnt, 0) == 0);                            /* the tmpfs at the bottom */
	CHECK(umount2(mnt, 0) == -EINVAL);
	CHECK(SYS1(__NR_rmdir, mnt) == 0);
}

static void t_umount_expire_stack(void)
{
	in_child(umount_expire_stack);
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

/* ---- segment registers across a system call ----------------------------------------- */

/* struct user_desc, the argument of set_thread_area(2). */
struct seg_desc {
	uint32_t entry_number, base_addr, limit;
	uint32_t flags;         /* seg_32bit:1 contents:2 read_exec_only:1 limit_in_pages:1 ... */
};

#define SEG_32BIT 0x1
#define SEG_LIMIT_IN_PAGES 0x10

#define READ_SEG(reg) ({ uint16_t v_; __asm__ volatile("movw %%" reg ", %0" : "=r"(v_)); v_; })
#define LOAD_SEG(reg, sel) __asm__ volatile("movw %w0, %%" reg : : "r"((uint16_t)(sel)) : "memory")

/*
 * The kernel saves a program's %ds, %es and %fs on entry and gives them back
 * on the way out, whatever they hold: the flat user segment they start with,
 * a TLS segment of the program's own, or (%es, %fs) the null selector. smpix
 * leaves %ds and %es alone when they hold the user segment it runs with
 * itself (kernel/x86/trapentry.S): this checks the other cases come back.
 * In a child: a flat TLS slot of its own is used as a data segment.
 */
static void segments_kept(void)
{
	struct seg_desc d = { 0xFFFFFFFF, 0, 0xFFFFF, SEG_32BIT | SEG_LIMIT_IN_PAGES };
	uint16_t user_ds = READ_SEG("ds"), tls;

	CHECK(READ_SEG("es") == user_ds);
	LOAD_SEG("es", 0);
	CHECK(SYS0(__NR_getpid) > 0);
	CHECK(READ_SEG("es") == 0 && READ_SEG("ds") == user_ds);
	CHECK(SYS1(__NR_set_thread_area, &d) == 0);
	tls = (uint16_t)(d.entry_number * 8 + 3);
	LOAD_SEG("ds", tls);
	LOAD_SEG("es", tls);
	LOAD_SEG("fs", tls);
	CHECK(SYS0(__NR_getpid) > 0);
	CHECK(READ_SEG("ds") == tls && READ_SEG("es") == tls && READ_SEG("fs") == tls);
	LOAD_SEG("ds", user_ds);
	LOAD_SEG("es", user_ds);
	CHECK(SYS0(__NR_getpid) > 0);
	CHECK(READ_SEG("ds") == user_ds && READ_SEG("es") == user_ds && READ_SEG("fs") == tls);
}

static void t_segments_kept(void)
{
	in_child(segments_kept);
}

/*
 * The slot a program has loaded in %ds and %es is cleared under it: the
 * kernel cannot give back a selector that names nothing (loading it would
 * fault, in the kernel). Linux gives back the null selector instead (its
 * exit path catches the fault), and so must smpix. With the null selector
 * in %ds the program's next data access faults on hardware (under QEMU's
 * TCG it does not: TCG checks no segment on an ordinary access), so the
 * call and the look at %ds and %es are one piece of assembly that touches
 * no memory through them, and puts the user segment back.
 */
static void clear_loaded_slot(void)
{
	struct seg_desc d = { 0xFFFFFFFF, 0, 0xFFFFF, SEG_32BIT | SEG_LIMIT_IN_PAGES };
	struct seg_desc clear = { 0, 0, 0, 0x08 | 0x20 };       /* read_exec_only, seg_not_present */
	uint16_t user_ds = READ_SEG("ds"), tls, ds_after, es_after;
	long r;

	CHECK(SYS1(__NR_set_thread_area, &d) == 0);
	tls = (uint16_t)(d.entry_number * 8 + 3);
	clear.entry_number = d.entry_number;
	__asm__ volatile("movw %w[tls], %%ds\n\t"
			 "movw %w[tls], %%es\n\t"
			 "int $0x80\n\t"
			 "movw %%ds, %w[ds]\n\t"
			 "movw %%es, %w[es]\n\t"
			 "movw %w[user], %%ds\n\t"
			 "movw %w[user], %%es"
			 : "=a"(r), [ds] "=&r"(ds_after), [es] "=&r"(es_after)
			 : "a"(__NR_set_thread_area), "b"(&clear), [tls] "r"(tls), [user] "r"(user_ds)
			 : "memory");
	CHECK(r == 0);
	CHECK(ds_after == 0 && es_after == 0);
}

static void t_clear_loaded_slot(void)
{
	in_child(clear_loaded_slot);
}

static void gt_run_mounts(void)
{
	gt_run("mount_proc", t_mount_proc);
	gt_run("mount_tmpfs", t_mount_tmpfs);
	gt_run("mount_devtmpfs", t_mount_devtmpfs);
	gt_run("mount_errors", t_mount_errors);
	gt_run("umount_busy", t_umount_busy);
	gt_run("umount_expire_stack", t_umount_expire_stack);
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
	gt_run("sendfile", t_sendfile);
	gt_run("sendfile_big", t_sendfile_big);
	gt_run("sendfile_errors", t_sendfile_errors);
	gt_run("sendfile_signal", t_sendfile_signal);
	if (mounts_ok())
		gt_run_mounts();
	gt_run("utimensat", t_utimensat);
	gt_run("statfs", t_statfs);
	gt_run("getcpu", t_getcpu);
	gt_run("getcpu_pinned", t_getcpu_pinned);
	gt_run("segments_kept", t_segments_kept);
	gt_run("clear_loaded_slot", t_clear_loaded_slot);
	gt_finish();
}
