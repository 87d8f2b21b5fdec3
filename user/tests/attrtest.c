/*
 * attrtest: owners, times and mount flags (fs/attr.c, fs/chown.c,
 * fs/utimes.c, fs/atime.c, mount -o remount in fs/sys_mount.c; nodev in
 * fs/open.c, noexec in kernel/process/exec.c and kernel/mm/mmap.c, sync in
 * fs/read_write.c, a read-only tmpfs in fs/ramfs/), the same binary on
 * smpix and on Linux. The flag tests mount a tmpfs of their own on
 * DIR/attr/sub; sync needs DIR on a disk, relatime's day the ext2 image's
 * relatime/ files: elsewhere (a tmpfs) they SKIP, saying so.
 *
 *   attrtest DIR          DIR is the root of a mount the test may remount
 *                         (smpix: ext2 on /mnt, run by ext2test; Linux: a
 *                         loop mount of an ext2 image, tools/test/cases/57_ext2.py)
 *   attrtest --tmpfs DIR  Linux only: mount a tmpfs on DIR first (the Linux
 *                         reference in QEMU has no ext2 disk: tools/test/linuxref.py)
 *
 * It works in DIR/attr and leaves there, for the host's debugfs after an
 * ext2 run, owned.txt (uid 70000, gid 80000: both halves of the 32-bit ids)
 * and atime.txt (its atime moved by a read, past ATIME_MTIME: written to
 * the disk lazily, by the power off or the umount).
 *
 * smpix has one user, root: the rules for other users are checked where
 * setuid() works (Linux) and skipped, saying so, where it does not.
 */
#define GT_ISOLATED
#include "gtest.h"
#include "kernel/uapi/mman.h"
#include "kernel/uapi/statfs.h"

#define __NR_unlink 10
#define __NR_time 13
#define __NR_lchown16 16
#define __NR_mount 21
#define __NR_utime 30
#define __NR_mkdir 39
#define __NR_fchown16 95
#define __NR_symlink 83
#define __NR_chown16 182
#define __NR_stat64 195
#define __NR_lstat64 196
#define __NR_fstat64 197
#define __NR_lchown32 198
#define __NR_fchown32 207
#define __NR_setgroups32 206
#define __NR_setuid32 213
#define __NR_setgid32 214
#define __NR_chown32 212
#define __NR_getdents64 220
#define __NR_statfs64 268
#define __NR_utimes 271
#define __NR_fchownat 298
#define __NR_futimesat 299
#define __NR_openat 295
#define __NR_chmod 15

#define MS_RDONLY      0x1
#define MS_NODEV       0x4
#define MS_NOEXEC      0x8
#define MS_SYNCHRONOUS 0x10
#define MS_DIRSYNC 0x80
#define MS_REMOUNT     0x20
#define MS_NOATIME     0x400
#define MS_RELATIME    (1 << 21)
#define MS_STRICTATIME (1 << 24)
#define ST_RDONLY      1

#define OWNED_UID 70000
#define OWNED_GID 80000
#define ATIME_ATIME 1000000000          /* atime.txt before its read: older than its mtime */
#define ATIME_MTIME 1200000000
#define NOBODY 1000                     /* the non-root user of the rules' tests */
#define GROUP_IN 100                    /* one of its supplementary groups */
#define GROUP_OUT 200                   /* not one of them */
#define RAN 42                          /* "attrtest --exit" exits so: the exec tests' program ran */
#define DAY (24 * 60 * 60)
#define EXT2_MAGIC 0xEF53
#define __NR_mmap2 192

static const char *mnt = "/mnt";
static char dir[128];

struct timeval32 {
	int32_t tv_sec, tv_usec;
};

/* DIR/attr/name, in one of four rotating buffers (a call may use two). */
static const char *at(const char *name)
{
	static char paths[4][192];
	static int next;
	char *p = paths[next++ % 4];

	snprintf(p, sizeof(paths[0]), "%s/%s", dir, name);
	return p;
}

static long now(void) { return SYS1(__NR_time, 0); }

static int make_file(const char *name, int mode)
{
	int fd = (int)SYS3(__NR_open, at(name), O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0)
		return fd;
	gt_write(fd, "attrtest\n", 9);
	gt_close(fd);
	return (int)SYS2(__NR_chmod, at(name), mode);   /* the umask may have cut it */
}

static int st(const char *name, struct stat64 *s) { return (int)SYS2(__NR_stat64, at(name), s); }

static long set_utimes(const char *name, long atime, long mtime)
{
	struct timeval32 tv[2] = { { (int32_t)atime, 0 }, { (int32_t)mtime, 0 } };

	return SYS2(__NR_utimes, at(name), tv);
}

/* mount(2) with its fifth argument, the options, NULL: Linux reads it when it is not. */
static long mount5(const char *source, const void *target, unsigned long flags)
{
	return gt_syscall6(__NR_mount, (long)source, (long)target, 0, (long)flags, 0, 0);
}

static long remount(unsigned long flags)
{
	return mount5("none", mnt, MS_REMOUNT | flags);
}

/* Cut the next space-separated field off *p. */
static char *field(char **p)
{
	char *f = *p, *end;

	while (*f == ' ')
		f++;
	end = strchr(f, ' ');
	if (end)
		*end++ = 0;
	*p = end ? end : f + strlen(f);
	return f;
}

/* /proc/mounts' fields: the source, the path, the type, the options. */
enum mount_field { MF_SOURCE, MF_PATH, MF_TYPE, MF_OPTIONS };

/* Field want of the line of the mount on path in /proc/mounts (the top one), or "" if none. */
static const char *mount_field_of(const char *where, enum mount_field want)
{
	static char text[8192], got[128];
	char *line, *p = text;
	long n = gt_read_file("/proc/mounts", text, sizeof(text) - 1);

	got[0] = 0;
	text[n > 0 ? n : 0] = 0;
	while (*(line = p)) {
		char *rest = line, *fields[MF_OPTIONS + 1];

		p = strchr(line, '\n');
		if (p)
			*p++ = 0;
		else
			p = line + strlen(line);
		for (int i = 0; i <= MF_OPTIONS; i++)
			fields[i] = field(&rest);
		if (strcmp(fields[MF_PATH], where) == 0)
			snprintf(got, sizeof(got), "%s", fields[want]);        /* the last one is the top */
	}
	return got;
}

static const char *mount_options_of(const char *where) { return mount_field_of(where, MF_OPTIONS); }

static const char *mount_options(void) { return mount_options_of(mnt); }

static bool option_shown_at(const char *where, const char *name)
{
	char want[48], opts[136];

	snprintf(want, sizeof(want), ",%s,", name);
	snprintf(opts, sizeof(opts), ",%s,", mount_options_of(where));
	return gt_strstr(opts, want) != NULL;
}

static bool option_shown(const char *name) { return option_shown_at(mnt, name); }

/* ---- chown ------------------------------------------------------------------------------ */

/* Root gives a file to anyone; -1 leaves an id; the *32 calls carry 32-bit ids. */
static void t_chown_root(void)
{
	struct stat64 s;
	int fd;

	CHECK(make_file("owned.txt", 0644) == 0);
	CHECK(SYS3(__NR_chown32, at("owned.txt"), 1234, 5678) == 0);
	CHECK(st("owned.txt", &s) == 0 && s.st_uid == 1234 && s.st_gid == 5678);
	CHECK(SYS3(__NR_chown32, at("owned.txt"), -1, 42) == 0);
	CHECK(st("owned.txt", &s) == 0 && s.st_uid == 1234 && s.st_gid == 42);
	CHECK(SYS3(__NR_chown32, at("owned.txt"), 7, -1) == 0);
	CHECK(st("owned.txt", &s) == 0 && s.st_uid == 7 && s.st_gid == 42);
	fd = gt_open(at("owned.txt"), O_RDONLY);
	CHECK(fd >= 0);
	CHECK(SYS3(__NR_fchown32, fd, OWNED_UID, OWNED_GID) == 0);
	CHECK(SYS2(__NR_fstat64, fd, &s) == 0 && s.st_uid == OWNED_UID && s.st_gid == OWNED_GID);
	gt_close(fd);
	CHECK(SYS3(__NR_chown32, at("owned.txt"), -1, -1) == 0);
	CHECK(st("owned.txt", &s) == 0 && s.st_uid == OWNED_UID && s.st_gid == OWNED_GID);
}

/* The 16-bit calls: 0xFFFF is "unchanged", and only the low 16 bits of an id count. */
static void t_chown16(void)
{
	struct stat64 s;
	int fd;

	CHECK(make_file("c16.txt", 0644) == 0);
	CHECK(SYS3(__NR_chown16, at("c16.txt"), 300, 400) == 0);
	CHECK(st("c16.txt", &s) == 0 && s.st_uid == 300 && s.st_gid == 400);
	CHECK(SYS3(__NR_chown16, at("c16.txt"), 0xFFFF, 401) == 0);
	CHECK(st("c16.txt", &s) == 0 && s.st_uid == 300 && s.st_gid == 401);
	CHECK(SYS3(__NR_chown16, at("c16.txt"), 0x10005, 0xFFFF) == 0);
	CHECK(st("c16.txt", &s) == 0 && s.st_uid == 5 && s.st_gid == 401);
	fd = gt_open(at("c16.txt"), O_RDONLY);
	CHECK(fd >= 0 && SYS3(__NR_fchown16, fd, 6, 7) == 0);
	gt_close(fd);
	CHECK(st("c16.txt", &s) == 0 && s.st_uid == 6 && s.st_gid == 7);
}

/* lchown and fchownat(AT_SYMLINK_NOFOLLOW) change the link; chown follows it to its target. */
static void t_chown_symlinks(void)
{
	struct stat64 s, l;

	CHECK(make_file("target.txt", 0644) == 0);
	SYS1(__NR_unlink, at("link"));
	CHECK(SYS2(__NR_symlink, "target.txt", at("link")) == 0);
	CHECK(SYS3(__NR_lchown32, at("link"), 11, 12) == 0);
	CHECK(SYS2(__NR_lstat64, at("link"), &l) == 0 && l.st_uid == 11 && l.st_gid == 12);
	CHECK(st("target.txt", &s) == 0 && s.st_uid == 0 && s.st_gid == 0);
	CHECK(SYS3(__NR_lchown16, at("link"), 13, 0xFFFF) == 0);
	CHECK(SYS2(__NR_lstat64, at("link"), &l) == 0 && l.st_uid == 13 && l.st_gid == 12);
	CHECK(SYS3(__NR_chown32, at("link"), 21, 22) == 0);
	CHECK(st("target.txt", &s) == 0 && s.st_uid == 21 && s.st_gid == 22);
	CHECK(SYS2(__NR_lstat64, at("link"), &l) == 0 && l.st_uid == 13);
	CHECK(gt_syscall6(__NR_fchownat, AT_FDCWD, (long)at("link"), 31, 32, AT_SYMLINK_NOFOLLOW, 0) == 0);
	CHECK(SYS2(__NR_lstat64, at("link"), &l) == 0 && l.st_uid == 31 && l.st_gid == 32);
	CHECK(gt_syscall6(__NR_fchownat, AT_FDCWD, (long)at("link"), 41, 42, 0, 0) == 0);
	CHECK(st("target.txt", &s) == 0 && s.st_uid == 41 && s.st_gid == 42);
}

/* fchownat relative to a directory descriptor, and on the descriptor itself with AT_EMPTY_PATH. */
static void t_fchownat_dirfd(void)
{
	struct stat64 s;
	int d = gt_open(dir, O_RDONLY | O_DIRECTORY);

	CHECK(d >= 0);
	CHECK(make_file("rel.txt", 0644) == 0);
	CHECK(gt_syscall6(__NR_fchownat, d, (long)"rel.txt", 51, 52, 0, 0) == 0);
	CHECK(st("rel.txt", &s) == 0 && s.st_uid == 51 && s.st_gid == 52);
	CHECK(gt_syscall6(__NR_fchownat, d, (long)"", 53, 54, AT_EMPTY_PATH, 0) == 0);
	CHECK(SYS2(__NR_stat64, dir, &s) == 0 && s.st_uid == 53 && s.st_gid == 54);
	CHECK(gt_syscall6(__NR_fchownat, d, (long)"", 0, 0, AT_EMPTY_PATH, 0) == 0);
	gt_close(d);
}

/*
 * chown drops set-user-ID from anything but a directory, even root's chown,
 * even with -1 -1; set-group-ID too, where group execute makes it mean
 * "run as the group" (Linux's ATTR_KILL_SUID, ATTR_KILL_SGID).
 */
static void t_chown_kills_setid(void)
{
	struct stat64 s;

	CHECK(make_file("suid", 06755) == 0);
	CHECK(st("suid", &s) == 0 && (s.st_mode & 07777) == 06755);
	CHECK(SYS3(__NR_chown32, at("suid"), -1, -1) == 0);
	CHECK(st("suid", &s) == 0 && (s.st_mode & 07777) == 0755);
	CHECK(make_file("sgid-nox", 02744) == 0);
	CHECK(SYS3(__NR_chown32, at("sgid-nox"), 5, 5) == 0);
	CHECK(st("sgid-nox", &s) == 0 && (s.st_mode & 07777) == 02744);
	SYS1(40 /* rmdir */, at("sdir"));
	CHECK(SYS2(__NR_mkdir, at("sdir"), 0755) == 0);
	CHECK(SYS2(__NR_chmod, at("sdir"), 06755) == 0);
	CHECK(SYS3(__NR_chown32, at("sdir"), 5, 5) == 0);
	CHECK(st("sdir", &s) == 0 && (s.st_mode & 07777) == 06755);
}

static void t_chown_errors(void)
{
	CHECK(SYS3(__NR_chown32, at("no-such-file"), 1, 1) == -ENOENT);
	CHECK(SYS3(__NR_chown32, BAD_UNMAP, 1, 1) == -EFAULT);
	CHECK(SYS3(__NR_lchown32, BAD_NULL, 1, 1) == -EFAULT);
	CHECK(SYS3(__NR_chown16, at("no-dir/x"), 1, 1) == -ENOENT);
	CHECK(SYS3(__NR_fchown32, -1, 1, 1) == -EBADF);
	CHECK(SYS3(__NR_fchown32, 999, 1, 1) == -EBADF);
	CHECK(SYS3(__NR_fchown16, -1, 1, 1) == -EBADF);
	CHECK(gt_syscall6(__NR_fchownat, AT_FDCWD, (long)at("owned.txt"), 1, 1, 0x4, 0) == -EINVAL);
	CHECK(gt_syscall6(__NR_fchownat, 999, (long)"rel.txt", 1, 1, 0, 0) == -EBADF);
	CHECK(gt_syscall6(__NR_fchownat, AT_FDCWD, (long)"", 1, 1, 0, 0) == -ENOENT);
}

/*
 * The rules for a user other than root (Linux's inode_change_ok): the owner
 * may "change" the owner to itself and the group to one it is in; nothing
 * else, and not on another's file. Then set-user-ID is gone. Utimes with
 * times of its choice: its own files only.
 */
static void t_chown_rules_non_root(void)
{
	struct stat64 s;
	uint32_t groups[1] = { GROUP_IN };

	CHECK(make_file("mine", 04755) == 0);
	CHECK(make_file("theirs", 0644) == 0);
	CHECK(SYS3(__NR_chown32, at("mine"), NOBODY, NOBODY) == 0);
	CHECK(SYS2(__NR_chmod, at("mine"), 04755) == 0);
	SKIP_IF(SYS2(__NR_setgroups32, 1, groups) == -ENOSYS || SYS1(__NR_setgid32, NOBODY) == -ENOSYS ||
		SYS1(__NR_setuid32, NOBODY) == -ENOSYS, "no setuid here: every process is root");
	CHECK(SYS1(49 /* geteuid */, 0) == NOBODY);
	CHECK(SYS3(__NR_chown32, at("mine"), 0, -1) == -EPERM);
	CHECK(SYS3(__NR_chown32, at("mine"), NOBODY + 1, -1) == -EPERM);
	CHECK(SYS3(__NR_chown32, at("mine"), -1, GROUP_OUT) == -EPERM);
	CHECK(SYS3(__NR_chown32, at("theirs"), -1, GROUP_IN) == -EPERM);
	CHECK(SYS3(__NR_chown32, at("theirs"), NOBODY, -1) == -EPERM);
	CHECK(st("mine", &s) == 0 && s.st_uid == NOBODY && (s.st_mode & 07777) == 04755);
	CHECK(SYS3(__NR_chown32, at("mine"), NOBODY, -1) == 0);          /* to itself */
	CHECK(SYS3(__NR_chown32, at("mine"), -1, GROUP_IN) == 0);        /* to its group */
	CHECK(st("mine", &s) == 0 && s.st_uid == NOBODY && s.st_gid == GROUP_IN && (s.st_mode & 07777) == 0755);
	CHECK(set_utimes("theirs", 1, 2) == -EPERM);
	CHECK(set_utimes("mine", 1, 2) == 0);
}

/* ---- utime, utimes, futimesat ------------------------------------------------------------ */

static void t_utime_utimes_futimesat(void)
{
	struct stat64 s;
	int32_t ub[2] = { 100000, 200000 };
	struct timeval32 tv[2] = { { 300000, 5 }, { 400000, 999999 } };
	long t0 = now();
	int d;

	CHECK(make_file("times.txt", 0644) == 0);
	CHECK(SYS2(__NR_utime, at("times.txt"), ub) == 0);
	CHECK(st("times.txt", &s) == 0 && (long)s.st_atime == 100000 && (long)s.st_mtime == 200000 && (long)s.st_ctime >= t0);
	CHECK(SYS2(__NR_utime, at("times.txt"), NULL) == 0);
	CHECK(st("times.txt", &s) == 0 && (long)s.st_atime >= t0 && (long)s.st_mtime >= t0 && (long)s.st_mtime <= now());
	CHECK(SYS2(__NR_utimes, at("times.txt"), tv) == 0);
	CHECK(st("times.txt", &s) == 0 && (long)s.st_atime == 300000 && (long)s.st_mtime == 400000);
	CHECK(SYS2(__NR_utimes, at("times.txt"), NULL) == 0);
	CHECK(st("times.txt", &s) == 0 && (long)s.st_mtime >= t0);
	d = gt_open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(d >= 0);
	CHECK(SYS3(__NR_futimesat, d, "times.txt", tv) == 0);
	CHECK(st("times.txt", &s) == 0 && (long)s.st_atime == 300000 && (long)s.st_mtime == 400000);
	gt_close(d);
	d = gt_open(at("times.txt"), O_RDONLY);
	tv[1].tv_sec = 500000;
	CHECK(d >= 0 && SYS3(__NR_futimesat, d, NULL, tv) == 0);     /* NULL path: the descriptor's file */
	gt_close(d);
	CHECK(st("times.txt", &s) == 0 && (long)s.st_mtime == 500000);
}

static void t_utimes_errors(void)
{
	struct timeval32 bad[2] = { { 1, 0 }, { 2, 1000000 } }, neg[2] = { { 1, -1 }, { 2, 0 } };
	struct timeval32 tv[2] = { { 1, 0 }, { 2, 0 } };
	int32_t ub[2] = { 1, 2 };

	CHECK(make_file("times.txt", 0644) == 0);
	CHECK(SYS2(__NR_utimes, at("times.txt"), bad) == -EINVAL);
	CHECK(SYS2(__NR_utimes, at("times.txt"), neg) == -EINVAL);
	CHECK(SYS2(__NR_utimes, at("no-such"), bad) == -EINVAL);        /* the times first */
	CHECK(SYS2(__NR_utimes, at("no-such"), tv) == -ENOENT);
	CHECK(SYS2(__NR_utimes, at("times.txt"), BAD_UNMAP) == -EFAULT);
	CHECK(SYS2(__NR_utimes, BAD_UNMAP, tv) == -EFAULT);
	CHECK(SYS2(__NR_utime, at("times.txt"), BAD_UNMAP) == -EFAULT);
	CHECK(SYS2(__NR_utime, at("no-such"), ub) == -ENOENT);
	CHECK(SYS2(__NR_utime, BAD_NULL, ub) == -EFAULT);
	CHECK(SYS3(__NR_futimesat, 999, NULL, tv) == -EBADF);
	CHECK(SYS3(__NR_futimesat, 999, "times.txt", tv) == -EBADF);
	CHECK(SYS3(__NR_futimesat, AT_FDCWD, NULL, tv) == -EFAULT);
}

/* ---- access times ------------------------------------------------------------------------- */

/* Read a file once (a byte is enough); its atime afterwards. */
static long read_atime(const char *name)
{
	struct stat64 s;
	char c;
	int fd = gt_open(at(name), O_RDONLY);

	if (fd < 0)
		return fd;
	gt_read(fd, &c, 1);
	gt_close(fd);
	return st(name, &s) == 0 ? (long)(long)s.st_atime : -1;
}

/*
 * relatime, the default: a read moves the atime when it is not newer than
 * the mtime (or the ctime), and not when it is (here: in the future, since
 * utimes makes the ctime now; the 24-hour rule needs a file whose ctime is
 * older than its atime: t_relatime_day()).
 */
static void t_relatime(void)
{
	long t0;
	struct stat64 s;
	char dents[512];
	int d;

	CHECK(remount(MS_RELATIME) == 0);
	CHECK(option_shown("relatime"));
	t0 = now();
	CHECK(make_file("ra.txt", 0644) == 0);
	CHECK(set_utimes("ra.txt", t0 - 100, t0 - 50) == 0);
	CHECK(read_atime("ra.txt") >= t0);
	CHECK(set_utimes("ra.txt", t0 + 3600, t0 - 50) == 0);
	CHECK(read_atime("ra.txt") == t0 + 3600);
	/* A listing reads the directory. */
	CHECK(SYS2(__NR_utimes, dir, NULL) == 0);
	CHECK(SYS2(__NR_stat64, dir, &s) == 0);
	{
		struct timeval32 tv[2] = { { (int32_t)(t0 - 100), 0 }, { (int32_t)(t0 - 50), 0 } };

		CHECK(SYS2(__NR_utimes, dir, tv) == 0);
	}
	d = gt_open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(d >= 0 && SYS3(__NR_getdents64, d, dents, sizeof(dents)) > 0);
	gt_close(d);
	CHECK(SYS2(__NR_stat64, dir, &s) == 0 && (long)s.st_atime >= t0);
}

/* noatime: never; strictatime: on every read; O_NOATIME on the file: never. */
static void t_noatime_strictatime(void)
{
	long t0 = now();
	int fd;
	char c;
	struct stat64 s;

	CHECK(make_file("na.txt", 0644) == 0);
	CHECK(remount(MS_NOATIME) == 0);
	CHECK(option_shown("noatime") && !option_shown("relatime"));
	CHECK(set_utimes("na.txt", t0 - 100, t0 - 50) == 0);
	CHECK(read_atime("na.txt") == t0 - 100);
	CHECK(remount(MS_STRICTATIME) == 0);
	CHECK(!option_shown("noatime") && !option_shown("relatime"));
	CHECK(set_utimes("na.txt", t0 + 3600, t0 - 50) == 0);
	CHECK(read_atime("na.txt") >= t0 && read_atime("na.txt") <= now());
	CHECK(set_utimes("na.txt", t0 - 100, t0 - 50) == 0);
	fd = gt_open(at("na.txt"), O_RDONLY | O_NOATIME);
	CHECK(fd >= 0 && gt_read(fd, &c, 1) == 1);
	gt_close(fd);
	CHECK(st("na.txt", &s) == 0 && (long)s.st_atime == t0 - 100);
	CHECK(remount(0) == 0);         /* no atime flag: they stay as they were */
	CHECK(!option_shown("noatime") && !option_shown("relatime"));
	CHECK(remount(MS_RELATIME) == 0);
	CHECK(option_shown("relatime"));
}

/* atime.txt for the host: a read moves its atime; only its dirty inode carries it to the disk. */
static void t_atime_left_for_host(void)
{
	long t0 = now();

	CHECK(remount(MS_RELATIME) == 0);
	CHECK(make_file("atime.txt", 0644) == 0);
	CHECK(set_utimes("atime.txt", ATIME_ATIME, ATIME_MTIME) == 0);
	CHECK(SYS0(36 /* sync */) == 0);
	CHECK(read_atime("atime.txt") >= t0);
}

/* ---- remount read-only and back ------------------------------------------------------------ */

static bool statfs_rdonly(void)
{
	struct statfs64 sf;

	return SYS3(__NR_statfs64, mnt, sizeof(sf), &sf) == 0 && (sf.f_flags & ST_RDONLY);
}

static void t_remount_ro_rw(void)
{
	struct stat64 s;
	struct timeval32 tv[2] = { { 1, 0 }, { 2, 0 } };
	long t0 = now();
	int fd;

	remount(0);
	CHECK(make_file("ro.txt", 0644) == 0);
	fd = gt_open(at("ro.txt"), O_WRONLY | O_APPEND);
	CHECK(fd >= 0);
	CHECK(remount(MS_RDONLY) == -EBUSY);            /* a file open for writing */
	CHECK(gt_write(fd, "more\n", 5) == 5);
	gt_close(fd);
	CHECK(set_utimes("ro.txt", t0 - 100, t0 - 50) == 0);
	CHECK(remount(MS_RDONLY) == 0);
	CHECK(gt_strstr(mount_options(), "ro") == mount_options());
	CHECK(statfs_rdonly());
	CHECK(gt_open(at("ro.txt"), O_WRONLY) == -EROFS);
	CHECK(gt_open(at("ro.txt"), O_RDWR) == -EROFS);
	CHECK(SYS3(__NR_open, at("new.txt"), O_WRONLY | O_CREAT, 0644) == -EROFS);
	CHECK(SYS2(__NR_mkdir, at("newdir"), 0755) == -EROFS);
	CHECK(SYS1(__NR_unlink, at("ro.txt")) == -EROFS);
	CHECK(SYS3(__NR_chown32, at("ro.txt"), 1, 1) == -EROFS);
	CHECK(SYS3(__NR_chown32, at("no-such"), 1, 1) == -ENOENT);     /* the path first */
	CHECK(SYS2(__NR_chmod, at("ro.txt"), 0600) == -EROFS);
	CHECK(SYS2(__NR_utimes, at("ro.txt"), tv) == -EROFS);
	CHECK(SYS2(__NR_utime, at("ro.txt"), NULL) == -EROFS);
	/* Reading works, and moves no atime: nothing changes on a read-only mount. */
	CHECK(read_atime("ro.txt") == t0 - 100);
	CHECK(remount(MS_RDONLY) == 0);                 /* again: nothing to do */
	CHECK(remount(0) == 0);
	CHECK(gt_strstr(mount_options(), "rw") == mount_options() && !statfs_rdonly());
	CHECK(st("ro.txt", &s) == 0 && s.st_size == 14);
	fd = gt_open(at("ro.txt"), O_WRONLY | O_APPEND);
	CHECK(fd >= 0 && gt_write(fd, "rw again\n", 9) == 9);
	gt_close(fd);
	CHECK(SYS1(__NR_unlink, at("ro.txt")) == 0);
}

/* An unlinked file still open: a read-only file system could not free it at its last close. */
static void t_remount_ro_unlinked_open(void)
{
	int fd;

	remount(0);
	CHECK(make_file("orphan.txt", 0644) == 0);
	fd = gt_open(at("orphan.txt"), O_RDONLY);
	CHECK(fd >= 0 && SYS1(__NR_unlink, at("orphan.txt")) == 0);
	CHECK(remount(MS_RDONLY) == -EBUSY);
	gt_close(fd);
	CHECK(remount(MS_RDONLY) == 0);
	CHECK(remount(0) == 0);
}

static void t_remount_errors(void)
{
	CHECK(mount5("none", dir, MS_REMOUNT) == -EINVAL);     /* not a mount's root */
	CHECK(mount5("none", at("no-such"), MS_REMOUNT) == -ENOENT);
	CHECK(mount5("none", BAD_UNMAP, MS_REMOUNT) == -EFAULT);
	CHECK(option_shown("rw"));
}

/* ---- the per-mount flags: nodev, noexec, sync; a tmpfs read-only -------------------------- */

/*
 * DIR/attr/sub: a tmpfs of the test's own, mounted with the flags a test
 * looks at (smpix's tmpfs is ramfs; Linux's its own). A test that failed
 * half-way may have left one: gone first.
 */
static char sub[160];

static const char *in_sub(const char *name)
{
	static char paths[4][224];
	static int next;
	char *p = paths[next++ % 4];

	snprintf(p, sizeof(paths[0]), "%s/%s", sub, name);
	return p;
}

static long mount_sub(unsigned long flags)
{
	while (SYS2(52 /* umount2 */, sub, 2 /* MNT_DETACH */) == 0)
		;
	SYS2(__NR_mkdir, sub, 0755);
	return gt_syscall6(__NR_mount, (long)"attrtest", (long)sub, (long)"tmpfs", (long)flags, 0, 0);
}

static long remount_sub(unsigned long flags)
{
	return mount5("none", sub, MS_REMOUNT | flags);
}

static void umount_sub(void)
{
	CHECK(SYS2(52 /* umount2 */, sub, 0) == 0);
}

/* path made anew with text in it, then mode. */
static int write_new(const char *path, const char *text, int mode)
{
	int fd = (int)SYS3(__NR_open, path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	long n = fd < 0 ? fd : gt_write(fd, text, strlen(text));

	if (fd >= 0)
		gt_close(fd);
	return n < 0 ? (int)n : (int)SYS2(__NR_chmod, path, mode);
}

/*
 * nodev: a device node on the mount does not open (-EACCES, before its
 * driver is looked for: a block device of no disk too); the same node on
 * DIR does, and on the mount again once remounted without nodev.
 */
static void t_nodev(void)
{
	const uint32_t null_dev = (1 << 8) | 3;        /* /dev/null, Linux's and smpix's */
	int fd;

	CHECK(mount_sub(MS_NODEV) == 0);
	CHECK(option_shown_at(sub, "nodev"));
	CHECK(SYS3(__NR_mknod, in_sub("null"), S_IFCHR | 0666, null_dev) == 0);
	CHECK(SYS3(__NR_mknod, in_sub("blk"), S_IFBLK | 0600, (250 << 8) | 7) == 0);
	SYS1(__NR_unlink, at("null"));
	CHECK(SYS3(__NR_mknod, at("null"), S_IFCHR | 0666, null_dev) == 0);
	CHECK(gt_open(in_sub("null"), O_RDWR) == -EACCES);
	CHECK(gt_open(in_sub("null"), O_RDONLY) == -EACCES);
	CHECK(gt_open(in_sub("blk"), O_RDONLY) == -EACCES);
	CHECK(write_new(in_sub("file"), "plain\n", 0644) == 0);    /* not a device: opens */
	fd = gt_open(at("null"), O_RDWR);
	CHECK(fd >= 0 && gt_write(fd, "x", 1) == 1);
	gt_close(fd);
	CHECK(remount_sub(0) == 0 && !option_shown_at(sub, "nodev"));
	fd = gt_open(in_sub("null"), O_RDWR);
	CHECK(fd >= 0 && gt_write(fd, "x", 1) == 1);
	gt_close(fd);
	CHECK(remount_sub(MS_NODEV) == 0 && gt_open(in_sub("null"), O_RDWR) == -EACCES);
	CHECK(SYS1(__NR_unlink, at("null")) == 0);
	umount_sub();
}

/* A copy of this program (/proc/self/exe) at path, mode 0755. */
static int copy_self(const char *path)
{
	static char buf[16384];
	int in = gt_open("/proc/self/exe", O_RDONLY);
	int out = (int)SYS3(__NR_open, path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	long n = 0;

	if (in >= 0 && out >= 0)
		while ((n = gt_read(in, buf, sizeof(buf))) > 0 && gt_write(out, buf, n) == n)
			;
	if (in >= 0)
		gt_close(in);
	if (out >= 0)
		gt_close(out);
	return in < 0 ? in : out < 0 ? out : n < 0 ? (int)n : (int)SYS2(__NR_chmod, path, 0755);
}

/* execve path ("path --exit") in a child: RAN if it ran, 200 + errno if execve failed. */
static int exec_status(const char *path)
{
	const char *argv[] = { path, "--exit", NULL };
	char *envp[] = { NULL };
	int pid = gt_fork(), st;

	if (pid == 0)
		gt_exit(200 + (int)-SYS3(__NR_execve, path, argv, envp));
	st = pid > 0 ? gt_wait(pid) : -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* mmap2's answer is an address (above 2 GiB as a long may be negative) unless it is -1..-4095. */
#define MAPPED(a) ((unsigned long)(a) % 4096 == 0 && (unsigned long)(a) < -4096ul && (a) != 0)

static long map_file(const char *path, int prot)
{
	int fd = gt_open(path, O_RDONLY);
	long r = fd < 0 ? fd : gt_syscall6(__NR_mmap2, 0, 4096, prot, MAP_PRIVATE, fd, 0);

	if (fd >= 0)
		gt_close(fd);
	return r;
}

/*
 * noexec: neither a program nor a "#!" script on the mount runs (-EACCES),
 * nor does one whose interpreter is there; access(X_OK) says so; mmap with
 * PROT_EXEC is -EPERM, and mprotect adding it to a mapping of such a file
 * -EACCES. The same program on DIR runs, and on the mount once remounted
 * without noexec.
 */
static void t_noexec(void)
{
	char script[256];
	long a;

	CHECK(mount_sub(MS_NOEXEC) == 0);
	CHECK(option_shown_at(sub, "noexec"));
	CHECK(copy_self(in_sub("prog")) == 0);
	CHECK(copy_self(at("prog")) == 0);
	CHECK(exec_status(at("prog")) == RAN);
	CHECK(exec_status(in_sub("prog")) == 200 + EACCES);
	CHECK(SYS2(__NR_access, in_sub("prog"), X_OK) == -EACCES);
	CHECK(SYS2(__NR_access, at("prog"), X_OK) == 0);
	/* A script on the mount, its interpreter on DIR; and the other way round. */
	snprintf(script, sizeof(script), "#!%s --exit\n", at("prog"));
	CHECK(write_new(in_sub("script"), script, 0755) == 0);
	CHECK(write_new(at("script"), script, 0755) == 0);
	CHECK(exec_status(at("script")) == RAN);
	CHECK(exec_status(in_sub("script")) == 200 + EACCES);
	snprintf(script, sizeof(script), "#!%s --exit\n", in_sub("prog"));
	CHECK(write_new(at("script2"), script, 0755) == 0);
	CHECK(exec_status(at("script2")) == 200 + EACCES);
	/* Mapped: readable, never executable. */
	CHECK(map_file(in_sub("prog"), PROT_READ | PROT_EXEC) == -EPERM);
	a = map_file(in_sub("prog"), PROT_READ);
	CHECK(MAPPED(a) && memcmp((const char *)a + 1, "ELF", 3) == 0);
	CHECK(SYS3(__NR_mprotect, a, 4096, PROT_READ | PROT_EXEC) == -EACCES);
	CHECK(SYS3(__NR_mprotect, a, 4096, PROT_READ | PROT_WRITE) == 0);
	CHECK(SYS2(__NR_munmap, a, 4096) == 0);
	a = map_file(at("prog"), PROT_READ | PROT_EXEC);
	CHECK(MAPPED(a) && SYS2(__NR_munmap, a, 4096) == 0);
	CHECK(remount_sub(0) == 0 && !option_shown_at(sub, "noexec"));
	CHECK(exec_status(in_sub("prog")) == RAN);
	CHECK(exec_status(in_sub("script")) == RAN);
	umount_sub();
	SYS1(__NR_unlink, at("prog"));
	SYS1(__NR_unlink, at("script"));
	SYS1(__NR_unlink, at("script2"));
}

/* A field of /proc/vmstat ("pgpgout": KiB written to block devices; "nr_dirty"), or -1. */
static long vmstat(const char *name)
{
	static char text[4096];

	if (gt_read_file("/proc/vmstat", text, sizeof(text)) <= 0)
		return -1;
	return gt_count_of(text, name);
}

static bool on_a_disk(void)
{
	struct statfs64 sf;

	return SYS3(__NR_statfs64, mnt, sizeof(sf), &sf) == 0 && sf.f_type == EXT2_MAGIC;
}

/*
 * KiB that reached a block device while 64 KiB went to fd, all else written
 * first by sync(): pgpgout counts what a disk was sent, when it is sent.
 */
static long kib_out_during_write(int fd)
{
	static char block[64 * 1024];
	long before;

	memset(block, 's', sizeof(block));
	SYS0(__NR_sync);
	before = vmstat("pgpgout");
	if (before < 0 || gt_write(fd, block, sizeof(block)) != (long)sizeof(block))
		return -1;
	return vmstat("pgpgout") - before;
}

/*
 * sync (MS_SYNCHRONOUS): a write returns once the disk was sent its data.
 * Without it, the data waits in the cache (smpix's flusher writes a buffer
 * 30 seconds old; the count on a busy host is everyone's, so the "not yet"
 * half is checked on smpix only).
 */
static void t_sync_mount(void)
{
	int fd;
	long out;

	SKIP_IF(!on_a_disk(), "%s is not on a disk: nothing to write through", mnt);
	CHECK(vmstat("pgpgout") >= 0);
	CHECK(remount(MS_SYNCHRONOUS) == 0 && option_shown("sync") && option_shown("relatime"));
	fd = (int)SYS3(__NR_open, at("sync.bin"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	out = kib_out_during_write(fd);
	CHECK(out >= 64);
	CHECK(ON_LINUX || vmstat("nr_dirty") == 0);
	gt_close(fd);
	CHECK(remount(0) == 0 && !option_shown("sync"));
	fd = gt_open(at("sync.bin"), O_WRONLY);
	CHECK(fd >= 0);
	out = kib_out_during_write(fd);
	CHECK(ON_LINUX || (out == 0 && vmstat("nr_dirty") > 0));
	gt_close(fd);
	CHECK(SYS1(__NR_unlink, at("sync.bin")) == 0);
}

/*
 * KiB that reached a block device while op() changed a directory, all else
 * written first by sync().
 */
static long kib_out_during(void (*op)(void))
{
	long before;

	SYS0(__NR_sync);
	before = vmstat("pgpgout");
	op();
	return before < 0 ? -1 : vmstat("pgpgout") - before;
}

static void make_dir(void) { SYS2(__NR_mkdir, at("ds.dir"), 0755); }
static void make_file_in_dir(void) { gt_close((int)SYS3(__NR_open, at("ds.dir/f"), O_WRONLY | O_CREAT, 0644)); }
static void rename_in_dir(void) { SYS2(__NR_rename, at("ds.dir/f"), at("ds.dir/g")); }
static void unlink_in_dir(void) { SYS1(__NR_unlink, at("ds.dir/g")); }
static void remove_dir(void) { SYS1(__NR_rmdir, at("ds.dir")); }

/* Unmount mnt and mount its file system there again, with flags: a remount cannot change dirsync. */
static int mount_again(unsigned long flags)
{
	char source[64], type[16];

	snprintf(source, sizeof(source), "%s", mount_field_of(mnt, MF_SOURCE));
	snprintf(type, sizeof(type), "%s", mount_field_of(mnt, MF_TYPE));
	if (SYS2(52 /* umount2 */, mnt, 0) != 0)
		return -1;
	return (int)gt_syscall6(__NR_mount, (long)source, (long)mnt, (long)type, (long)flags, 0, 0);
}

/*
 * dirsync (MS_DIRSYNC): a name made, renamed or removed is on the disk when
 * the call returns; a file's data is not (that is -o sync). In Linux it is
 * the file system's, not one mount's: a remount leaves it as it was (it is
 * not in MS_RMT_MASK), so the test mounts the disk anew with it, and again
 * without it. Without it, the change waits in the cache (checked on smpix
 * only, as above).
 */
static void t_dirsync_mount(void)
{
	static void (*const ops[])(void) = { make_dir, make_file_in_dir, rename_in_dir, unlink_in_dir, remove_dir };
	struct stat64 s;
	long out;
	int fd;

	SKIP_IF(!on_a_disk(), "%s is not on a disk: nothing to write through", mnt);
	CHECK(remount(MS_DIRSYNC) == 0 && !option_shown("dirsync"));
	CHECK(mount_again(MS_DIRSYNC) == 0 && option_shown("dirsync") && !option_shown("sync"));
	CHECK(remount(0) == 0 && option_shown("dirsync"));     /* kept, not asked for */
	for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		CHECK(kib_out_during(ops[i]) > 0);
		CHECK(ON_LINUX || vmstat("nr_dirty") == 0);
	}
	CHECK(st("ds.dir", &s) == -ENOENT);
	fd = (int)SYS3(__NR_open, at("dsdata.bin"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	CHECK(ON_LINUX || kib_out_during_write(fd) == 0);      /* data: not a directory change */
	gt_close(fd);
	CHECK(SYS1(__NR_unlink, at("dsdata.bin")) == 0);
	CHECK(mount_again(0) == 0 && !option_shown("dirsync"));
	out = kib_out_during(make_dir);
	CHECK(ON_LINUX || (out == 0 && vmstat("nr_dirty") > 0));
	CHECK(SYS1(__NR_rmdir, at("ds.dir")) == 0);
}

/*
 * O_SYNC and O_DSYNC, on a mount without -o sync: a write through such an
 * fd returns once the disk was sent its data; through a plain fd to the
 * same file, it waits in the cache (checked on smpix only, as above).
 */
static void t_o_sync(void)
{
	static const int flags[] = { O_SYNC, O_DSYNC };
	int fd;

	SKIP_IF(!on_a_disk(), "%s is not on a disk: nothing to write through", mnt);
	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		fd = (int)SYS3(__NR_open, at("osync.bin"), O_WRONLY | O_CREAT | flags[i], 0644);
		CHECK(fd >= 0);
		CHECK(kib_out_during_write(fd) >= 64);
		CHECK(ON_LINUX || vmstat("nr_dirty") == 0);
		gt_close(fd);
	}
	fd = gt_open(at("osync.bin"), O_WRONLY);
	CHECK(fd >= 0);
	CHECK(ON_LINUX || (kib_out_during_write(fd) == 0 && vmstat("nr_dirty") > 0));
	gt_close(fd);
	CHECK(SYS1(__NR_unlink, at("osync.bin")) == 0);
}

/*
 * A tmpfs (smpix: ramfs) remounted read-only: every change -EROFS, as ext2
 * (t_remount_ro_rw); not while a file is open for writing (-EBUSY). Reading
 * works; back to read-write, writing does. And a tmpfs mounted -o ro.
 */
static void t_tmpfs_remount_ro(void)
{
	struct timeval32 tv[2] = { { 1, 0 }, { 2, 0 } };
	struct stat64 s;
	char text[16];
	int fd;

	CHECK(mount_sub(0) == 0);
	CHECK(write_new(in_sub("f"), "attrtest\n", 0644) == 0);
	CHECK(SYS2(__NR_mkdir, in_sub("d"), 0755) == 0);
	fd = gt_open(in_sub("f"), O_WRONLY | O_APPEND);
	CHECK(fd >= 0);
	CHECK(remount_sub(MS_RDONLY) == -EBUSY);
	gt_close(fd);
	CHECK(remount_sub(MS_RDONLY) == 0);
	CHECK(gt_strstr(mount_options_of(sub), "ro,") == mount_options_of(sub));
	CHECK(gt_open(in_sub("f"), O_WRONLY) == -EROFS);
	CHECK(gt_open(in_sub("f"), O_RDWR) == -EROFS);
	CHECK(gt_open(in_sub("f"), O_RDONLY | O_TRUNC) == -EROFS);
	CHECK(SYS3(__NR_open, in_sub("new"), O_WRONLY | O_CREAT, 0644) == -EROFS);
	CHECK(SYS2(__NR_mkdir, in_sub("newdir"), 0755) == -EROFS);
	CHECK(SYS3(__NR_mknod, in_sub("fifo"), S_IFIFO | 0644, 0) == -EROFS);
	CHECK(SYS2(__NR_symlink, "f", in_sub("link")) == -EROFS);
	CHECK(SYS2(__NR_link, in_sub("f"), in_sub("hard")) == -EROFS);
	CHECK(SYS2(__NR_rename, in_sub("f"), in_sub("g")) == -EROFS);
	CHECK(SYS1(__NR_unlink, in_sub("f")) == -EROFS);
	CHECK(SYS1(40 /* rmdir */, in_sub("d")) == -EROFS);
	CHECK(SYS2(__NR_truncate, in_sub("f"), 0) == -EROFS);
	CHECK(SYS2(__NR_chmod, in_sub("f"), 0600) == -EROFS);
	CHECK(SYS3(__NR_chown32, in_sub("f"), 1, 1) == -EROFS);
	CHECK(SYS2(__NR_utimes, in_sub("f"), tv) == -EROFS);
	CHECK(SYS2(__NR_access, in_sub("f"), W_OK) == -EROFS);
	CHECK(SYS2(__NR_access, in_sub("f"), R_OK) == 0);
	CHECK(gt_read_file(in_sub("f"), text, sizeof(text)) == 9 && strcmp(text, "attrtest\n") == 0);
	CHECK(SYS2(__NR_stat64, in_sub("f"), &s) == 0 && s.st_size == 9 && (s.st_mode & 0777) == 0644);
	CHECK(remount_sub(0) == 0);
	CHECK(gt_strstr(mount_options_of(sub), "rw,") == mount_options_of(sub));
	fd = gt_open(in_sub("f"), O_WRONLY | O_APPEND);
	CHECK(fd >= 0 && gt_write(fd, "rw\n", 3) == 3);
	gt_close(fd);
	CHECK(SYS1(__NR_unlink, in_sub("f")) == 0 && SYS1(40 /* rmdir */, in_sub("d")) == 0);
	umount_sub();
	CHECK(mount_sub(MS_RDONLY) == 0);
	CHECK(SYS3(__NR_open, in_sub("new"), O_WRONLY | O_CREAT, 0644) == -EROFS);
	umount_sub();
}

/*
 * relatime's day: a read moves an atime a day old or more even when it is
 * newer than the mtime and the ctime, and not one younger. utimes makes the
 * ctime now, so only a file that came with such times shows it: the ext2
 * image's relatime/old.txt (atime 25 hours ago, ctime 26, mtime 27) and
 * relatime/fresh.txt (1, 2, 3 hours ago), set by debugfs (57_ext2.py).
 */
static void t_relatime_day(void)
{
	char old[160], fresh[160];
	struct stat64 s;
	long t0 = now();

	snprintf(old, sizeof(old), "%s/relatime/old.txt", mnt);
	snprintf(fresh, sizeof(fresh), "%s/relatime/fresh.txt", mnt);
	SKIP_IF(SYS2(__NR_stat64, old, &s) != 0, "no relatime/old.txt: only an image made by debugfs has a ctime older than the atime");
	CHECK(remount(MS_RELATIME) == 0);
	CHECK(s.st_atime > s.st_mtime && s.st_atime > s.st_ctime && t0 - (long)s.st_atime >= DAY);
	CHECK(gt_read_file(old, (char[8]){ 0 }, 8) > 0);
	CHECK(SYS2(__NR_stat64, old, &s) == 0 && (long)s.st_atime >= t0 && (long)s.st_atime <= now());
	CHECK(SYS2(__NR_stat64, fresh, &s) == 0);
	CHECK(s.st_atime > s.st_mtime && s.st_atime > s.st_ctime && t0 - (long)s.st_atime < DAY);
	t0 = (long)s.st_atime;
	CHECK(gt_read_file(fresh, (char[8]){ 0 }, 8) > 0);
	CHECK(SYS2(__NR_stat64, fresh, &s) == 0 && (long)s.st_atime == t0);
}

/* mount -o remount,ro DIR and back, by the mount programs: smpix's /bin/mount or Linux's, and busybox's. */
static int run(const char *prog, const char *arg1, const char *arg2, const char *arg3, const char *arg4)
{
	const char *argv[] = { prog, arg1, arg2, arg3, arg4, NULL };
	char *envp[] = { "PATH=/bin:/sbin:/usr/bin:/usr/sbin", NULL };
	int pid = gt_fork();

	if (pid == 0) {
		SYS3(11 /* execve */, prog, argv, envp);
		gt_exit(127);
	}
	pid = pid > 0 ? gt_wait(pid) : -1;
	return WIFEXITED(pid) ? WEXITSTATUS(pid) : -1;
}

static void t_mount_program(void)
{
	SKIP_IF(!gt_exists("/bin/mount"), "no /bin/mount");
	CHECK(run("/bin/mount", "-o", "remount,ro", mnt, NULL) == 0);
	CHECK(gt_strstr(mount_options(), "ro") == mount_options());
	CHECK(run("/bin/mount", "-o", "remount,rw,noatime", mnt, NULL) == 0);
	CHECK(gt_strstr(mount_options(), "rw") == mount_options() && option_shown("noatime"));
	/* sync and dirsync are known words; a remount changes sync and leaves dirsync (MS_RMT_MASK). */
	CHECK(run("/bin/mount", "-o", "remount,sync,dirsync", mnt, NULL) == 0);
	CHECK(option_shown("sync") && !option_shown("dirsync"));
	CHECK(run("/bin/mount", "-o", "remount,nosuchoption", mnt, NULL) != 0);
	CHECK(remount(MS_RELATIME) == 0 && !option_shown("sync"));
}

static void t_busybox_mount(void)
{
	SKIP_IF(!gt_exists("/bin/busybox"), "no /bin/busybox");
	CHECK(run("/bin/busybox", "mount", "-o", "remount,ro", mnt) == 0);
	CHECK(gt_strstr(mount_options(), "ro") == mount_options());
	CHECK(run("/bin/busybox", "mount", "-o", "remount,rw", mnt) == 0);
	CHECK(gt_strstr(mount_options(), "rw") == mount_options());
	CHECK(remount(MS_RELATIME) == 0);
}

static void t_leave_owned(void)
{
	struct stat64 s;

	CHECK(make_file("owned.txt", 0644) == 0);
	CHECK(SYS3(__NR_chown32, at("owned.txt"), OWNED_UID, OWNED_GID) == 0);
	CHECK(st("owned.txt", &s) == 0 && s.st_uid == OWNED_UID && s.st_gid == OWNED_GID);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "--exit") == 0)
		gt_exit(RAN);                   /* a copy run by t_noexec() (or a script's interpreter) */
	gt_start("attrtest");
	if (argc == 3 && strcmp(argv[1], "--tmpfs") == 0) {
		mnt = argv[2];
		SYS2(__NR_mkdir, mnt, 0755);
		if (SYS4(__NR_mount, "attrtest", mnt, "tmpfs", 0) != 0) {
			printf("attrtest: cannot mount a tmpfs on %s\n", mnt);
			gt_exit(1);
		}
	} else if (argc == 2) {
		mnt = argv[1];
	} else {
		printf("usage: attrtest DIR | attrtest --tmpfs DIR\n");
		gt_exit(2);
	}
	snprintf(dir, sizeof(dir), "%s/attr", mnt);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	SYS2(__NR_mkdir, dir, 0755);
	if (ON_LINUX)
		SYS2(__NR_chmod, mnt, 0755);    /* the rules' test reaches it as another user */
	gt_run("chown_root", t_chown_root);
	gt_run("chown16", t_chown16);
	gt_run("chown_symlinks", t_chown_symlinks);
	gt_run("fchownat_dirfd", t_fchownat_dirfd);
	gt_run("chown_kills_setid", t_chown_kills_setid);
	gt_run("chown_errors", t_chown_errors);
	gt_run("chown_rules_non_root", t_chown_rules_non_root);
	gt_run("utime_utimes_futimesat", t_utime_utimes_futimesat);
	gt_run("utimes_errors", t_utimes_errors);
	gt_run("relatime", t_relatime);
	gt_run("noatime_strictatime", t_noatime_strictatime);
	gt_run("remount_ro_rw", t_remount_ro_rw);
	gt_run("remount_ro_unlinked_open", t_remount_ro_unlinked_open);
	gt_run("remount_errors", t_remount_errors);
	gt_run("nodev", t_nodev);
	gt_run("noexec", t_noexec);
	gt_run("sync_mount", t_sync_mount);
	gt_run("o_sync", t_o_sync);
	gt_run("dirsync_mount", t_dirsync_mount);
	gt_run("tmpfs_remount_ro", t_tmpfs_remount_ro);
	gt_run("relatime_day", t_relatime_day);
	gt_run("mount_program", t_mount_program);
	gt_run("busybox_mount", t_busybox_mount);
	gt_run("leave_owned", t_leave_owned);
	gt_run("atime_left_for_host", t_atime_left_for_host);
	if (strcmp(argv[1], "--tmpfs") == 0)
		SYS2(52 /* umount2 */, mnt, 2 /* MNT_DETACH */);
	gt_finish();
}
