/*
 * vfstest: the VFS system calls with good and bad input, as Linux i386 answers them.
 *
 * Built twice: for smpix (with user/lib) and, as build/vfstest-linux, with the
 * host's `gcc -m32 -static` and glibc, to run on Linux and prove that what it
 * expects is Linux's behaviour. Checks that only make sense on smpix (the
 * global file limit, the kernel's object counts, /dev/console) are left out on
 * Linux, and those the host cannot show (device nodes without CAP_MKNOD, a
 * descriptor limit it will not raise) print "vfstest: NAME SKIP why". Each
 * group prints "vfstest: NAME ok" or "vfstest: NAME FAIL why"; the last line
 * is "vfstest: summary N passed, M failed" (", S skipped" when some were);
 * exit status 0 if none failed.
 *
 * Run as init it works in /vfstest; on Linux in /tmp/vfstest-PID (removed at the end).
 * `vfstest DIR` (DIR absolute) works in DIR instead: user/tests/ext2test.c runs
 * it so on an ext2 mount (tools/test/cases/57_ext2.py).
 */
#ifdef VFSTEST_LINUX
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static long sc6(long nr, long a, long b, long c, long d, long e, long f)
{
	long r = syscall(nr, a, b, c, d, e, f);

	return r == -1 ? -errno : r;
}
#define ON_SMPIX 0
#else
#include "ulib.h"

#define sc6 syscall6
#define ON_SMPIX 1
#endif

#include "kernel/uapi/dirent.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/ioctls.h"
#include "kernel/uapi/stat.h"
#include "kernel/uapi/uio.h"
#include "kernel/uapi/unistd.h"

#define SC(nr, ...) sc_n(nr, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define sc_n(nr, a, b, c, d, e, f, ...) sc6((nr), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))
#define SC0(nr) sc6((nr), 0, 0, 0, 0, 0, 0)

#define BAD_PTR ((void *)0xC0000000)    /* the kernel's half on smpix; unmapped on Linux */
#define NCPU 4

/* ---- output and checks ------------------------------------------------------------ */

static int passed, failed, skipped;
static const char *group;
static char why[200];
static int group_failed;
static char self[256];                  /* absolute path of this program, for exec */
static char base[64];                   /* the scratch directory */

static void say(const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	SC(__NR_write, 1, buf, n);      /* one write per line: whole lines among forked children */
}

static void begin(const char *name)
{
	group = name;
	group_failed = 0;
	why[0] = 0;
}

static void end(void)
{
	if (group_failed) {
		failed++;
		say("vfstest: %s FAIL %s\n", group, why);
	} else {
		passed++;
		say("vfstest: %s ok\n", group);
	}
}

/* A check the host cannot show: "NAME SKIP why", as user/tests/gtest.h's SKIP_IF prints it. */
static void skip(const char *name, const char *reason)
{
	skipped++;
	say("vfstest: %s SKIP %s\n", name, reason);
}

static void fail_at(int line, const char *expr, long got, long want)
{
	if (!group_failed)
		snprintf(why, sizeof(why), "line %d: %s = %ld, want %ld", line, expr, got, want);
	group_failed++;
}

#define EXPECT(expr, want)                                                       \
	do {                                                                     \
		long got_ = (long)(expr), want_ = (long)(want);                  \
		if (got_ != want_)                                               \
			fail_at(__LINE__, #expr, got_, want_);                   \
	} while (0)
#define CHECK(cond) EXPECT(!!(cond), 1)

/* ---- small helpers over raw system calls ------------------------------------------ */

static int sys_open(const char *p, int flags, int mode) { return SC(__NR_open, p, flags | O_LARGEFILE, mode); }
static int sys_close(int fd) { return SC(__NR_close, fd); }
static long sys_read(int fd, void *b, long n) { return SC(__NR_read, fd, b, n); }
static long sys_write(int fd, const void *b, long n) { return SC(__NR_write, fd, b, n); }
static int sys_stat(const char *p, struct stat64 *st) { return SC(__NR_stat64, p, st); }
static int sys_lstat(const char *p, struct stat64 *st) { return SC(__NR_lstat64, p, st); }
static int sys_fstat(int fd, struct stat64 *st) { return SC(__NR_fstat64, fd, st); }
static int sys_unlink(const char *p) { return SC(__NR_unlink, p); }
static int sys_mkdir(const char *p, int mode) { return SC(__NR_mkdir, p, mode); }
static int sys_rmdir(const char *p) { return SC(__NR_rmdir, p); }
static int sys_chdir(const char *p) { return SC(__NR_chdir, p); }
static long sys_lseek(int fd, long off, int whence) { return SC(__NR_lseek, fd, off, whence); }
static int sys_fork(void) { return SC0(__NR_fork); }
static void sys_exit(int code) { for (;;) SC(__NR_exit_group, code); }

static int wait_child(int pid)
{
	int status = 0;

	if (SC(__NR_wait4, pid, &status, 0, 0) != pid)
		return -1;
	return status;
}

/* A path in the scratch directory. */
static const char *P(const char *name)
{
	static char bufs[4][300];
	static int i;
	char *b = bufs[i++ % 4];

	snprintf(b, 300, "%s/%s", base, name);
	return b;
}

static int write_file(const char *path, const char *data)
{
	int fd = sys_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	long n;

	if (fd < 0)
		return fd;
	n = sys_write(fd, data, (long)strlen(data));
	sys_close(fd);
	return n == (long)strlen(data) ? 0 : -EIO;
}

/* Read a whole small file into buf (NUL-terminated): its length or -errno. */
static long read_file(const char *path, char *buf, long size)
{
	int fd = sys_open(path, O_RDONLY, 0);
	long n, total = 0;

	if (fd < 0)
		return fd;
	while (total < size - 1 && (n = sys_read(fd, buf + total, size - 1 - total)) > 0)
		total += n;
	buf[total] = 0;
	sys_close(fd);
	return total;
}

static int streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

/* ---- the groups -------------------------------------------------------------------- */

static void t_open_close(void)
{
	static char longpath[4200];
	char name[300];
	struct stat64 st;
	int fd;

	begin("open-close-creat");
	EXPECT(write_file(P("f"), "hello"), 0);
	fd = sys_open(P("f"), O_RDONLY, 0);
	CHECK(fd >= 3);
	EXPECT(sys_close(fd), 0);
	EXPECT(sys_close(fd), -EBADF);
	EXPECT(sys_close(-1), -EBADF);
	EXPECT(sys_close(100000), -EBADF);
	EXPECT(sys_open(P("missing"), O_RDONLY, 0), -ENOENT);
	EXPECT(sys_open(P("nodir/x"), O_RDONLY | O_CREAT, 0644), -ENOENT);
	EXPECT(sys_open("", O_RDONLY, 0), -ENOENT);
	EXPECT(sys_open(BAD_PTR, O_RDONLY, 0), -EFAULT);
	EXPECT(sys_open(NULL, O_RDONLY, 0), -EFAULT);
	EXPECT(sys_open(P("f"), O_RDONLY | O_CREAT | O_EXCL, 0644), -EEXIST);
	EXPECT(sys_open(P("f"), O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	EXPECT(sys_open(P("f/"), O_RDONLY, 0), -ENOTDIR);
	EXPECT(sys_open(P("f/x"), O_RDONLY, 0), -ENOTDIR);
	EXPECT(sys_open(base, O_WRONLY, 0), -EISDIR);
	EXPECT(sys_open(base, O_RDWR, 0), -EISDIR);
	EXPECT(sys_open(P("newdir/"), O_RDWR | O_CREAT, 0644), -EISDIR);
	EXPECT(sys_open(base, O_RDONLY | O_CREAT, 0644), -EISDIR);     /* an existing directory */
	fd = sys_open(base, O_RDONLY | O_DIRECTORY, 0);
	CHECK(fd >= 0);
	sys_close(fd);
	/* NAME_MAX: 255 bytes are a name, 256 are too long. */
	memset(name, 'n', 255);
	name[255] = 0;
	fd = sys_open(P(name), O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0);
	sys_close(fd);
	EXPECT(sys_unlink(P(name)), 0);
	name[255] = 'n';
	name[256] = 0;
	EXPECT(sys_open(P(name), O_WRONLY | O_CREAT, 0600), -ENAMETOOLONG);
	EXPECT(sys_stat(P(name), &st), -ENAMETOOLONG);
	/* PATH_MAX: 4095 bytes and the NUL fit, 4096 do not. */
	longpath[0] = '/';
	for (int i = 1; i < 4095; i += 2)
		longpath[i] = '.', longpath[i + 1] = '/';
	longpath[4095] = 0;
	EXPECT(sys_stat(longpath, &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	longpath[4095] = '.';
	longpath[4096] = 0;
	EXPECT(sys_stat(longpath, &st), -ENAMETOOLONG);
	/* creat: makes or truncates, and opens for writing only. */
	fd = SC(__NR_creat, P("f"), 0644);
	CHECK(fd >= 0);
	EXPECT(sys_fstat(fd, &st), 0);
	EXPECT(st.st_size, 0);
	EXPECT(sys_read(fd, name, 1), -EBADF);
	sys_close(fd);
	/* O_TRUNC and O_APPEND. */
	EXPECT(write_file(P("f"), "0123456789"), 0);
	fd = sys_open(P("f"), O_WRONLY | O_APPEND, 0);
	EXPECT(sys_write(fd, "ab", 2), 2);
	EXPECT(sys_lseek(fd, 0, SEEK_CUR), 12);
	sys_close(fd);
	fd = sys_open(P("f"), O_RDWR | O_TRUNC, 0);
	EXPECT(sys_fstat(fd, &st), 0);
	EXPECT(st.st_size, 0);
	sys_close(fd);
	end();
}

static void t_read_write(void)
{
	static char big[10000], back[10000];
	char buf[16];
	int fd, ro, wo;

	begin("read-write");
	fd = sys_open(P("rw"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	for (int i = 0; i < (int)sizeof(big); i++)
		big[i] = (char)(i * 7 + 3);
	EXPECT(sys_write(fd, big, sizeof(big)), sizeof(big));  /* spans three pages */
	EXPECT(sys_lseek(fd, 0, SEEK_SET), 0);
	EXPECT(sys_read(fd, back, sizeof(back)), sizeof(back));
	CHECK(memcmp(big, back, sizeof(big)) == 0);
	EXPECT(sys_read(fd, back, 10), 0);                      /* at the end */
	EXPECT(sys_lseek(fd, 0, SEEK_SET), 0);
	EXPECT(sys_read(fd, BAD_PTR, 10), -EFAULT);
	EXPECT(sys_write(fd, BAD_PTR, 10), -EFAULT);
	EXPECT(sys_write(fd, NULL, 0), 0);
	EXPECT(sys_read(-5, buf, 1), -EBADF);
	EXPECT(sys_write(999, buf, 1), -EBADF);
	ro = sys_open(P("rw"), O_RDONLY, 0);
	wo = sys_open(P("rw"), O_WRONLY, 0);
	EXPECT(sys_write(ro, "x", 1), -EBADF);
	EXPECT(sys_read(wo, buf, 1), -EBADF);
	sys_close(ro);
	sys_close(wo);
	ro = sys_open(base, O_RDONLY, 0);
	EXPECT(sys_read(ro, buf, 1), -EISDIR);
	sys_close(ro);
	/* A hole reads as zeros. */
	EXPECT(sys_lseek(fd, 20000, SEEK_SET), 20000);
	EXPECT(sys_write(fd, "z", 1), 1);
	EXPECT(sys_lseek(fd, 15000, SEEK_SET), 15000);
	EXPECT(sys_read(fd, buf, 4), 4);
	CHECK(buf[0] == 0 && buf[3] == 0);
	sys_close(fd);
	end();

	begin("readv-writev");
	{
		struct iovec iov[3];
		char a[4], b[8];

		fd = sys_open(P("iov"), O_RDWR | O_CREAT | O_TRUNC, 0644);
		iov[0].iov_base = (uint32_t)(uintptr_t)"abc";
		iov[0].iov_len = 3;
		iov[1].iov_base = (uint32_t)(uintptr_t)"";
		iov[1].iov_len = 0;
		iov[2].iov_base = (uint32_t)(uintptr_t)"defgh";
		iov[2].iov_len = 5;
		EXPECT(SC(__NR_writev, fd, iov, 3), 8);
		EXPECT(sys_lseek(fd, 0, SEEK_SET), 0);
		iov[0].iov_base = (uint32_t)(uintptr_t)a;
		iov[0].iov_len = 4;
		iov[1].iov_base = (uint32_t)(uintptr_t)b;
		iov[1].iov_len = 8;
		EXPECT(SC(__NR_readv, fd, iov, 2), 8);
		CHECK(memcmp(a, "abcd", 4) == 0 && memcmp(b, "efgh", 4) == 0);
		EXPECT(SC(__NR_readv, fd, BAD_PTR, 2), -EFAULT);
		EXPECT(SC(__NR_writev, fd, iov, -1), -EINVAL);
		EXPECT(SC(__NR_writev, fd, iov, UIO_MAXIOV + 1), -EINVAL);
		EXPECT(SC(__NR_readv, 555, iov, 1), -EBADF);
		iov[0].iov_base = (uint32_t)(uintptr_t)BAD_PTR;
		EXPECT(SC(__NR_writev, fd, iov, 1), -EFAULT);
		sys_close(fd);
	}
	end();

	begin("pread-pwrite");
	{
		char b[8];

		fd = sys_open(P("pp"), O_RDWR | O_CREAT | O_TRUNC, 0644);
		EXPECT(sys_write(fd, "0123456789", 10), 10);
		EXPECT(SC(__NR_pread64, fd, b, 3, 4, 0), 3);
		CHECK(memcmp(b, "456", 3) == 0);
		EXPECT(SC(__NR_pwrite64, fd, "XY", 2, 1, 0), 2);
		EXPECT(sys_lseek(fd, 0, SEEK_CUR), 10);         /* the position did not move */
		EXPECT(SC(__NR_pread64, fd, b, 4, 0, 0), 4);
		CHECK(memcmp(b, "0XY3", 4) == 0);
		EXPECT(SC(__NR_pread64, fd, b, 4, 0, 0x80000000), -EINVAL);    /* negative */
		EXPECT(SC(__NR_pread64, fd, BAD_PTR, 4, 0, 0), -EFAULT);
		EXPECT(SC(__NR_pread64, 444, b, 4, 0, 0), -EBADF);
		EXPECT(SC(__NR_pread64, fd, b, 4, 100, 0), 0);
		sys_close(fd);
		if (ON_SMPIX) {
			fd = sys_open("/dev/console", O_RDWR, 0);
			EXPECT(SC(__NR_pwrite64, fd, "", 0, 0, 0), -ESPIPE);
			EXPECT(sys_lseek(fd, 0, SEEK_SET), -ESPIPE);
			sys_close(fd);
		}
	}
	end();
}

static void t_seek(void)
{
	int64_t result = 0;
	int fd;

	begin("lseek-llseek");
	fd = sys_open(P("seek"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	EXPECT(sys_write(fd, "0123456789", 10), 10);
	EXPECT(sys_lseek(fd, 3, SEEK_SET), 3);
	EXPECT(sys_lseek(fd, 2, SEEK_CUR), 5);
	EXPECT(sys_lseek(fd, -1, SEEK_END), 9);
	EXPECT(sys_lseek(fd, -20, SEEK_SET), -EINVAL);
	EXPECT(sys_lseek(fd, -20, SEEK_CUR), -EINVAL);
	EXPECT(sys_lseek(fd, 0, 7), -EINVAL);
	EXPECT(sys_lseek(fd, 0, SEEK_CUR), 9);                  /* failures move nothing */
	EXPECT(sys_lseek(77, 0, SEEK_SET), -EBADF);
	EXPECT(SC(__NR__llseek, fd, 1, 5, &result, SEEK_SET), 0);       /* 4 GiB + 5 */
	CHECK(result == 0x100000005ll);
	/*
	 * A native i386 kernel answers EOVERFLOW for a position 32 bits cannot
	 * hold; x86-64's compat lseek returns its low bits. smpix is the former.
	 */
	if (ON_SMPIX)
		EXPECT(sys_lseek(fd, 0, SEEK_CUR), -EOVERFLOW);
	EXPECT(SC(__NR__llseek, fd, 0, 2, &result, SEEK_SET), 0);
	CHECK(result == 2);
	EXPECT(SC(__NR__llseek, fd, 0, 2, BAD_PTR, SEEK_SET), -EFAULT);
	EXPECT(SC(__NR__llseek, 99, 0, 2, &result, SEEK_SET), -EBADF);
	sys_close(fd);
	end();
}

static void t_stat(void)
{
	struct stat64 st, st2;
	int fd;

	begin("stat");
	EXPECT(write_file(P("st"), "12345"), 0);
	EXPECT(sys_stat(P("st"), &st), 0);
	CHECK(S_ISREG(st.st_mode));
	EXPECT(st.st_size, 5);
	EXPECT(st.st_nlink, 1);
	CHECK(st.st_ino != 0 && st.st_ino == st.__st_ino);
	EXPECT(st.st_blksize > 0, 1);
	CHECK(st.st_mtime > 1577836800u && st.st_ctime >= st.st_mtime - 1);   /* wall-clock times, after 2020 */
	EXPECT(SC(__NR_symlink, "st", P("st-link")), 0);
	EXPECT(sys_lstat(P("st-link"), &st2), 0);
	CHECK(S_ISLNK(st2.st_mode));
	EXPECT(st2.st_size, 2);
	EXPECT(sys_stat(P("st-link"), &st2), 0);
	EXPECT(st2.st_ino, st.st_ino);
	fd = sys_open(P("st"), O_RDONLY, 0);
	EXPECT(sys_fstat(fd, &st2), 0);
	EXPECT(st2.st_ino, st.st_ino);
	EXPECT(sys_fstat(fd, BAD_PTR), -EFAULT);
	EXPECT(SC(__NR_fstatat64, fd, "", &st2, AT_EMPTY_PATH), 0);
	EXPECT(st2.st_ino, st.st_ino);
	sys_close(fd);
	EXPECT(sys_fstat(fd, &st2), -EBADF);
	EXPECT(sys_stat(P("nope"), &st), -ENOENT);
	EXPECT(sys_stat(P("st/x"), &st), -ENOTDIR);
	EXPECT(sys_stat(BAD_PTR, &st), -EFAULT);
	EXPECT(sys_stat(P("st"), BAD_PTR), -EFAULT);
	EXPECT(sys_stat(P("st"), NULL), -EFAULT);
	fd = sys_open(base, O_RDONLY | O_DIRECTORY, 0);
	EXPECT(SC(__NR_fstatat64, fd, "st-link", &st2, AT_SYMLINK_NOFOLLOW), 0);
	CHECK(S_ISLNK(st2.st_mode));
	EXPECT(SC(__NR_fstatat64, fd, "st", &st2, 0), 0);
	EXPECT(st2.st_ino, st.st_ino);
	EXPECT(SC(__NR_fstatat64, fd, "st", &st2, 0x4000000), -EINVAL);
	EXPECT(SC(__NR_fstatat64, 123, "st", &st2, 0), -EBADF);
	EXPECT(SC(__NR_fstatat64, 123, P("st"), &st2, 0), 0);   /* an absolute path ignores dirfd */
	sys_close(fd);
	fd = sys_open(P("st"), O_RDONLY, 0);
	EXPECT(SC(__NR_fstatat64, fd, "x", &st2, 0), -ENOTDIR);
	sys_close(fd);
	if (ON_SMPIX)
		EXPECT(SC(__NR_statx, AT_FDCWD, P("st"), 0, 0x7ff, &st2), -ENOSYS);
	end();
}

/* Does the directory at path list exactly the names in want (besides . and ..)? */
static int dir_lists(const char *path, const char *const *want, int nwant)
{
	static char buf[2048];
	int fd = sys_open(path, O_RDONLY | O_DIRECTORY, 0), seen = 0, dots = 0;
	long n;

	if (fd < 0)
		return fd;
	while ((n = SC(__NR_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			int found = 0;

			if (streq(d->d_name, ".") || streq(d->d_name, ".."))
				dots++;
			for (int i = 0; i < nwant; i++)
				found |= streq(d->d_name, want[i]);
			if (found)
				seen++;
			else if (!streq(d->d_name, ".") && !streq(d->d_name, ".."))
				seen = -1000;
			off += d->d_reclen;
		}
	}
	sys_close(fd);
	return n < 0 ? (int)n : (seen == nwant && dots == 2 ? 1 : 0);
}

static void t_getdents(void)
{
	static const char *const want[] = { "a", "b", "c" };
	char buf[64];
	int fd;

	begin("getdents64");
	EXPECT(sys_mkdir(P("gd"), 0755), 0);
	EXPECT(write_file(P("gd/a"), "1"), 0);
	EXPECT(sys_mkdir(P("gd/b"), 0755), 0);
	EXPECT(SC(__NR_symlink, "a", P("gd/c")), 0);
	EXPECT(dir_lists(P("gd"), want, 3), 1);
	fd = sys_open(P("gd"), O_RDONLY | O_DIRECTORY, 0);
	EXPECT(SC(__NR_getdents64, fd, buf, 1), -EINVAL);          /* no record fits */
	EXPECT(SC(__NR_getdents64, fd, BAD_PTR, 1024), -EFAULT);
	/* One small record at a time, then the end, then again from the start after lseek. */
	{
		int count = 0;
		long n;

		while ((n = SC(__NR_getdents64, fd, buf, 32)) > 0)
			count++;
		EXPECT(n, 0);
		EXPECT(count, 5);
		EXPECT(sys_lseek(fd, 0, SEEK_SET), 0);
		CHECK(SC(__NR_getdents64, fd, buf, sizeof(buf)) > 0);
	}
	sys_close(fd);
	EXPECT(SC(__NR_getdents64, 99, buf, sizeof(buf)), -EBADF);
	fd = sys_open(P("gd/a"), O_RDONLY, 0);
	EXPECT(SC(__NR_getdents64, fd, buf, sizeof(buf)), -ENOTDIR);
	sys_close(fd);
	end();
}

static void t_mkdir_rmdir_unlink(void)
{
	struct stat64 st, dirst;
	int dfd;

	begin("mkdir-rmdir");
	EXPECT(sys_mkdir(P("d1"), 0750), 0);
	EXPECT(sys_stat(P("d1"), &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	EXPECT(st.st_mode & 0777, 0750 & ~022);
	EXPECT(st.st_nlink, 2);
	EXPECT(sys_mkdir(P("d1"), 0755), -EEXIST);
	EXPECT(sys_mkdir(P("d1/"), 0755), -EEXIST);
	EXPECT(sys_mkdir(P("nodir/d"), 0755), -ENOENT);
	EXPECT(sys_mkdir(BAD_PTR, 0755), -EFAULT);
	EXPECT(sys_mkdir(P("d1/sub/"), 0755), 0);               /* a trailing slash is fine for mkdir */
	EXPECT(sys_stat(P("d1"), &st), 0);
	EXPECT(st.st_nlink, 3);                                 /* sub's ".." */
	EXPECT(write_file(P("d1/file"), "x"), 0);
	EXPECT(sys_mkdir(P("d1/file/x"), 0755), -ENOTDIR);
	EXPECT(sys_rmdir(P("d1")), -ENOTEMPTY);
	EXPECT(sys_rmdir(P("d1/file")), -ENOTDIR);
	EXPECT(sys_rmdir(P("d1/nope")), -ENOENT);
	EXPECT(sys_rmdir(P("d1/sub/.")), -EINVAL);
	EXPECT(sys_rmdir(P("d1/sub/..")), -ENOTEMPTY);
	EXPECT(sys_rmdir("/"), -EBUSY);
	EXPECT(sys_rmdir(P("d1/sub")), 0);
	EXPECT(sys_stat(P("d1/sub"), &st), -ENOENT);
	EXPECT(sys_stat(P("d1"), &st), 0);
	EXPECT(st.st_nlink, 2);
	dfd = sys_open(P("d1"), O_RDONLY | O_DIRECTORY, 0);
	EXPECT(SC(__NR_mkdirat, dfd, "at", 0700), 0);
	EXPECT(sys_stat(P("d1/at"), &dirst), 0);
	CHECK(S_ISDIR(dirst.st_mode));
	EXPECT(SC(__NR_mkdirat, 77, "at2", 0700), -EBADF);
	EXPECT(SC(__NR_unlinkat, dfd, "at", 0), -EISDIR);
	EXPECT(SC(__NR_unlinkat, dfd, "at", AT_REMOVEDIR), 0);
	EXPECT(SC(__NR_unlinkat, dfd, "file", 0x1), -EINVAL);
	EXPECT(SC(__NR_unlinkat, dfd, "file", AT_REMOVEDIR), -ENOTDIR);
	EXPECT(SC(__NR_unlinkat, dfd, "file", 0), 0);
	sys_close(dfd);
	EXPECT(sys_rmdir(P("d1")), 0);
	end();

	begin("unlink");
	EXPECT(write_file(P("u"), "x"), 0);
	EXPECT(sys_unlink(P("u")), 0);
	EXPECT(sys_unlink(P("u")), -ENOENT);
	EXPECT(sys_unlink(base), -EISDIR);
	EXPECT(sys_unlink(BAD_PTR), -EFAULT);
	EXPECT(write_file(P("u"), "x"), 0);
	EXPECT(sys_unlink(P("u/")), -ENOTDIR);
	EXPECT(sys_unlink(P("u/x")), -ENOTDIR);
	EXPECT(sys_unlink(P("u")), 0);
	end();
}

static void t_unlink_open(void)
{
	struct stat64 st;
	char buf[32];
	int fd;

	begin("unlink-while-open");
	EXPECT(write_file(P("uo"), "still here"), 0);
	fd = sys_open(P("uo"), O_RDWR, 0);
	EXPECT(sys_unlink(P("uo")), 0);
	EXPECT(sys_stat(P("uo"), &st), -ENOENT);
	EXPECT(sys_fstat(fd, &st), 0);
	EXPECT(st.st_nlink, 0);
	EXPECT(sys_read(fd, buf, sizeof(buf)), 10);
	CHECK(memcmp(buf, "still here", 10) == 0);
	EXPECT(sys_write(fd, "!", 1), 1);                       /* and still writable */
	EXPECT(sys_fstat(fd, &st), 0);
	EXPECT(st.st_size, 11);
	/* A new file of the same name is a different file. */
	EXPECT(write_file(P("uo"), "new"), 0);
	EXPECT(SC(__NR_pread64, fd, buf, 32, 0, 0), 11);
	EXPECT(sys_close(fd), 0);
	EXPECT(read_file(P("uo"), buf, sizeof(buf)), 3);
	EXPECT(sys_unlink(P("uo")), 0);
	end();
}

static void t_link_rename(void)
{
	struct stat64 st, st2;
	char buf[32];

	begin("link");
	EXPECT(write_file(P("l1"), "data"), 0);
	EXPECT(SC(__NR_link, P("l1"), P("l2")), 0);
	EXPECT(sys_stat(P("l1"), &st), 0);
	EXPECT(st.st_nlink, 2);
	EXPECT(sys_stat(P("l2"), &st2), 0);
	EXPECT(st2.st_ino, st.st_ino);
	EXPECT(SC(__NR_link, P("l1"), P("l2")), -EEXIST);
	EXPECT(SC(__NR_link, P("nope"), P("l3")), -ENOENT);
	EXPECT(SC(__NR_link, base, P("l3")), -EPERM);
	EXPECT(SC(__NR_link, P("l1"), BAD_PTR), -EFAULT);
	EXPECT(SC(__NR_link, P("l1"), P("nodir/l3")), -ENOENT);
	EXPECT(sys_stat("/dev", &st2), 0);
	if (st2.st_dev != st.st_dev)
		EXPECT(SC(__NR_link, P("l1"), "/dev/vfstest-link"), -EXDEV);
	EXPECT(SC(__NR_linkat, AT_FDCWD, P("l1"), AT_FDCWD, P("l3"), 0x1), -EINVAL);
	EXPECT(SC(__NR_symlink, "l1", P("sl")), 0);
	EXPECT(SC(__NR_linkat, AT_FDCWD, P("sl"), AT_FDCWD, P("l3"), 0), 0);   /* the link itself */
	EXPECT(sys_lstat(P("l3"), &st2), 0);
	CHECK(S_ISLNK(st2.st_mode));
	EXPECT(sys_unlink(P("l3")), 0);
	EXPECT(SC(__NR_linkat, AT_FDCWD, P("sl"), AT_FDCWD, P("l3"), AT_SYMLINK_FOLLOW), 0);
	EXPECT(sys_lstat(P("l3"), &st2), 0);
	EXPECT(st2.st_ino, st.st_ino);
	EXPECT(sys_unlink(P("l1")), 0);
	EXPECT(sys_unlink(P("l3")), 0);
	EXPECT(sys_stat(P("l2"), &st2), 0);
	EXPECT(st2.st_nlink, 1);
	EXPECT(read_file(P("l2"), buf, sizeof(buf)), 4);
	EXPECT(sys_unlink(P("l2")), 0);
	EXPECT(sys_unlink(P("sl")), 0);
	end();

	begin("rename");
	EXPECT(write_file(P("r1"), "one"), 0);
	EXPECT(write_file(P("r2"), "two"), 0);
	EXPECT(SC(__NR_rename, P("r1"), P("r3")), 0);
	EXPECT(sys_stat(P("r1"), &st), -ENOENT);
	EXPECT(read_file(P("r3"), buf, sizeof(buf)), 3);
	CHECK(streq(buf, "one"));
	EXPECT(SC(__NR_rename, P("r3"), P("r2")), 0);           /* replaces */
	EXPECT(read_file(P("r2"), buf, sizeof(buf)), 3);
	CHECK(streq(buf, "one"));
	EXPECT(SC(__NR_rename, P("r2"), P("r2")), 0);
	EXPECT(SC(__NR_rename, P("nope"), P("r9")), -ENOENT);
	EXPECT(SC(__NR_rename, P("r2"), P("nodir/r")), -ENOENT);
	EXPECT(SC(__NR_rename, BAD_PTR, P("r9")), -EFAULT);
	EXPECT(sys_mkdir(P("rd"), 0755), 0);
	EXPECT(sys_mkdir(P("rd/sub"), 0755), 0);
	EXPECT(sys_mkdir(P("re"), 0755), 0);
	EXPECT(SC(__NR_rename, P("rd"), P("rd/sub/x")), -EINVAL);      /* below itself */
	EXPECT(SC(__NR_rename, P("r2"), P("re")), -EISDIR);
	EXPECT(SC(__NR_rename, P("re"), P("r2")), -ENOTDIR);
	EXPECT(SC(__NR_rename, P("re"), P("rd")), -ENOTEMPTY);
	EXPECT(SC(__NR_rename, P("rd/sub"), P("re")), 0);       /* over an empty directory */
	EXPECT(sys_stat(P("re"), &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	EXPECT(sys_stat(P("rd"), &st), 0);
	EXPECT(st.st_nlink, 2);
	EXPECT(SC(__NR_rename, P("re"), P("rd/moved")), 0);     /* into another directory */
	EXPECT(sys_stat(P("rd"), &st), 0);
	EXPECT(st.st_nlink, 3);
	EXPECT(SC(__NR_rename, P("rd/moved/.."), P("x")), -EBUSY);
	{
		int dfd = sys_open(P("rd"), O_RDONLY | O_DIRECTORY, 0);

		EXPECT(SC(__NR_renameat, dfd, "moved", AT_FDCWD, P("back"), 0), 0);
		EXPECT(SC(__NR_renameat, 98, "moved", AT_FDCWD, P("back"), 0), -EBADF);
		sys_close(dfd);
	}
	EXPECT(sys_stat("/dev", &st2), 0);
	EXPECT(sys_stat(P("r2"), &st), 0);
	if (st2.st_dev != st.st_dev)
		EXPECT(SC(__NR_rename, P("r2"), "/dev/vfstest-x"), -EXDEV);
	EXPECT(sys_rmdir(P("back")), 0);
	EXPECT(sys_rmdir(P("rd")), 0);
	EXPECT(sys_unlink(P("r2")), 0);
	end();
}

static void t_symlink(void)
{
	struct stat64 st;
	char buf[64];
	int fd;

	begin("symlink-readlink");
	EXPECT(sys_mkdir(P("sd"), 0755), 0);
	EXPECT(write_file(P("sd/target"), "T"), 0);
	EXPECT(SC(__NR_symlink, "target", P("sd/rel")), 0);
	EXPECT(SC(__NR_symlink, P("sd"), P("abs")), 0);
	EXPECT(SC(__NR_symlink, "x", P("sd/rel")), -EEXIST);
	EXPECT(SC(__NR_symlink, "", P("sd/empty")), -ENOENT);
	EXPECT(SC(__NR_symlink, BAD_PTR, P("sd/bad")), -EFAULT);
	EXPECT(SC(__NR_readlink, P("sd/rel"), buf, sizeof(buf)), 6);
	CHECK(memcmp(buf, "target", 6) == 0);
	EXPECT(SC(__NR_readlink, P("sd/rel"), buf, 3), 3);      /* cut short, no NUL */
	EXPECT(SC(__NR_readlink, P("sd/rel"), buf, 0), -EINVAL);
	EXPECT(SC(__NR_readlink, P("sd/target"), buf, sizeof(buf)), -EINVAL);
	EXPECT(SC(__NR_readlink, P("sd/rel"), BAD_PTR, 10), -EFAULT);
	EXPECT(SC(__NR_readlink, P("sd/none"), buf, 10), -ENOENT);
	fd = sys_open(P("sd"), O_RDONLY | O_DIRECTORY, 0);
	EXPECT(SC(__NR_readlinkat, fd, "rel", buf, sizeof(buf)), 6);
	EXPECT(SC(__NR_symlinkat, "target", fd, "rel2"), 0);
	sys_close(fd);
	EXPECT(read_file(P("abs/rel"), buf, sizeof(buf)), 1);  /* through two links */
	EXPECT(read_file(P("abs/rel2"), buf, sizeof(buf)), 1);
	EXPECT(sys_open(P("sd/rel"), O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
	EXPECT(sys_stat(P("abs/"), &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	EXPECT(sys_lstat(P("abs/"), &st), 0);                   /* a trailing slash follows */
	CHECK(S_ISDIR(st.st_mode));
	EXPECT(SC(__NR_symlink, "dangling-nowhere", P("sd/dang")), 0);
	EXPECT(sys_stat(P("sd/dang"), &st), -ENOENT);
	/* O_CREAT through a dangling link makes what it names; O_EXCL refuses any link. */
	EXPECT(sys_open(P("sd/dang"), O_WRONLY | O_CREAT | O_EXCL, 0644), -EEXIST);
	EXPECT(sys_open(P("sd/dang"), O_WRONLY | O_CREAT | O_NOFOLLOW, 0644), -ELOOP);
	fd = sys_open(P("sd/dang"), O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0);
	sys_close(fd);
	EXPECT(sys_stat(P("sd/dangling-nowhere"), &st), 0);
	CHECK(S_ISREG(st.st_mode));
	EXPECT(sys_unlink(P("sd/dangling-nowhere")), 0);
	EXPECT(SC(__NR_symlink, "loop", P("sd/loop")), 0);
	EXPECT(sys_open(P("sd/loop"), O_RDONLY, 0), -ELOOP);
	EXPECT(sys_stat(P("sd/loop/x"), &st), -ELOOP);
	/* A chain of 40 links is followed; 41 is too many. */
	EXPECT(write_file(P("sd/c0"), "end"), 0);
	for (int i = 1; i <= 41; i++) {
		char from[16], to[16];

		snprintf(from, sizeof(from), "c%d", i - 1);
		snprintf(to, sizeof(to), "sd/c%d", i);
		EXPECT(SC(__NR_symlink, from, P(to)), 0);
	}
	EXPECT(read_file(P("sd/c40"), buf, sizeof(buf)), 3);
	EXPECT(sys_stat(P("sd/c41"), &st), -ELOOP);
	for (int i = 0; i <= 41; i++) {
		char name[16];

		snprintf(name, sizeof(name), "sd/c%d", i);
		sys_unlink(P(name));
	}
	sys_unlink(P("sd/rel"));
	sys_unlink(P("sd/rel2"));
	sys_unlink(P("sd/target"));
	sys_unlink(P("sd/dang"));
	sys_unlink(P("sd/loop"));
	EXPECT(sys_rmdir(P("sd")), 0);
	EXPECT(sys_unlink(P("abs")), 0);
	end();
}

static void t_paths_cwd(void)
{
	struct stat64 st, st2;
	char buf[300], want[300];
	int fd;

	begin("path-walk-cwd");
	EXPECT(sys_mkdir(P("pw"), 0755), 0);
	EXPECT(sys_mkdir(P("pw/in"), 0755), 0);
	EXPECT(write_file(P("pw/in/f"), "x"), 0);
	EXPECT(sys_chdir(P("pw")), 0);
	EXPECT(SC(__NR_getcwd, buf, sizeof(buf)), (long)strlen(P("pw")) + 1);
	CHECK(streq(buf, P("pw")));
	EXPECT(SC(__NR_getcwd, buf, 3), -ERANGE);
	EXPECT(SC(__NR_getcwd, BAD_PTR, sizeof(buf)), -EFAULT);
	EXPECT(sys_stat("in//f", &st), 0);                      /* relative, repeated slashes */
	EXPECT(sys_stat("./in/./f", &st2), 0);
	EXPECT(st2.st_ino, st.st_ino);
	EXPECT(sys_stat("in/../in/f", &st2), 0);
	EXPECT(st2.st_ino, st.st_ino);
	EXPECT(sys_stat("in/f/", &st2), -ENOTDIR);
	EXPECT(sys_stat("in/f/.", &st2), -ENOTDIR);
	EXPECT(sys_stat("in/", &st2), 0);
	EXPECT(sys_chdir("in"), 0);
	EXPECT(sys_chdir("f"), -ENOTDIR);
	EXPECT(sys_chdir("nope"), -ENOENT);
	EXPECT(sys_chdir(BAD_PTR), -EFAULT);
	EXPECT(sys_chdir(".."), 0);
	CHECK(SC(__NR_getcwd, buf, sizeof(buf)) > 0 && streq(buf, P("pw")));
	/* ".." of "/" is "/"; ".." out of a mount (/dev) is the directory it is mounted on's parent. */
	EXPECT(sys_stat("/", &st), 0);
	EXPECT(sys_stat("/..", &st2), 0);
	EXPECT(st2.st_ino, st.st_ino);
	EXPECT(sys_stat("/dev/..", &st2), 0);
	EXPECT(st2.st_ino, st.st_ino);
	EXPECT(st2.st_dev, st.st_dev);
	EXPECT(sys_stat("//dev//..//", &st2), 0);
	EXPECT(st2.st_ino, st.st_ino);
	EXPECT(sys_chdir("/dev"), 0);
	EXPECT(sys_chdir(".."), 0);
	CHECK(SC(__NR_getcwd, buf, sizeof(buf)) == 2 && streq(buf, "/"));
	EXPECT(sys_chdir("/dev"), 0);
	CHECK(SC(__NR_getcwd, buf, sizeof(buf)) == 5 && streq(buf, "/dev"));
	/* fchdir */
	fd = sys_open(P("pw/in"), O_RDONLY | O_DIRECTORY, 0);
	EXPECT(SC(__NR_fchdir, fd), 0);
	snprintf(want, sizeof(want), "%s", P("pw/in"));
	CHECK(SC(__NR_getcwd, buf, sizeof(buf)) > 0 && streq(buf, want));
	sys_close(fd);
	fd = sys_open(P("pw/in/f"), O_RDONLY, 0);
	EXPECT(SC(__NR_fchdir, fd), -ENOTDIR);
	sys_close(fd);
	EXPECT(SC(__NR_fchdir, 97), -EBADF);
	/* A removed current directory has no path. */
	EXPECT(sys_unlink(P("pw/in/f")), 0);
	EXPECT(sys_rmdir(P("pw/in")), 0);
	EXPECT(SC(__NR_getcwd, buf, sizeof(buf)), -ENOENT);
	EXPECT(sys_stat(".", &st), 0);
	EXPECT(st.st_nlink, 0);
	EXPECT(write_file("newfile", "x"), -ENOENT);
	EXPECT(sys_chdir(base), 0);
	EXPECT(sys_rmdir(P("pw")), 0);
	end();
}

static void t_dup_fcntl(void)
{
	int fd, fd2, r;

	begin("dup-dup2-dup3");
	fd = sys_open(P("dup"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	fd2 = SC(__NR_dup, fd);
	CHECK(fd2 > fd);
	EXPECT(sys_write(fd, "abc", 3), 3);
	EXPECT(sys_lseek(fd2, 0, SEEK_CUR), 3);                 /* one open file, one position */
	EXPECT(SC(__NR_dup, 66), -EBADF);
	EXPECT(SC(__NR_dup2, fd, 40), 40);
	EXPECT(sys_lseek(40, 0, SEEK_CUR), 3);
	EXPECT(SC(__NR_dup2, fd, fd), fd);
	EXPECT(SC(__NR_dup2, 66, 41), -EBADF);
	EXPECT(SC(__NR_dup2, fd, -1), -EBADF);
	EXPECT(SC(__NR_dup2, fd, 1 << 20), -EBADF);
	EXPECT(SC(__NR_dup3, fd, fd, 0), -EINVAL);
	EXPECT(SC(__NR_dup3, fd, 41, 0x1), -EINVAL);
	EXPECT(SC(__NR_dup3, fd, 41, O_CLOEXEC), 41);
	EXPECT(SC(__NR_fcntl64, 41, F_GETFD, 0), FD_CLOEXEC);
	EXPECT(SC(__NR_dup2, fd, 41), 41);                      /* replaces, without close-on-exec */
	EXPECT(SC(__NR_fcntl64, 41, F_GETFD, 0), 0);
	sys_close(40);
	sys_close(41);
	sys_close(fd2);
	end();

	begin("fcntl64");
	EXPECT(SC(__NR_fcntl64, fd, F_DUPFD, 30), 30);
	EXPECT(SC(__NR_fcntl64, fd, F_DUPFD, 30), 31);
	EXPECT(SC(__NR_fcntl64, 30, F_GETFD, 0), 0);
	EXPECT(SC(__NR_fcntl64, fd, F_DUPFD_CLOEXEC, 30), 32);
	EXPECT(SC(__NR_fcntl64, 32, F_GETFD, 0), FD_CLOEXEC);
	EXPECT(SC(__NR_fcntl64, 32, F_SETFD, 0), 0);
	EXPECT(SC(__NR_fcntl64, 32, F_GETFD, 0), 0);
	EXPECT(SC(__NR_fcntl64, 30, F_SETFD, FD_CLOEXEC), 0);
	EXPECT(SC(__NR_fcntl64, 30, F_GETFD, 0), FD_CLOEXEC);
	EXPECT(SC(__NR_fcntl64, 31, F_GETFD, 0), 0);            /* the bit is per descriptor */
	EXPECT(SC(__NR_fcntl64, fd, F_DUPFD, -1), -EINVAL);
	EXPECT(SC(__NR_fcntl64, 95, F_DUPFD, 0), -EBADF);
	EXPECT(SC(__NR_fcntl64, 95, F_GETFD, 0), -EBADF);
	EXPECT(SC(__NR_fcntl64, 95, F_SETFD, 0), -EBADF);
	EXPECT(SC(__NR_fcntl64, 95, F_GETFL, 0), -EBADF);
	r = SC(__NR_fcntl64, fd, F_GETFL, 0);
	EXPECT(r & (O_ACCMODE | O_APPEND | O_NONBLOCK), O_RDWR);
	EXPECT(SC(__NR_fcntl64, fd, F_SETFL, O_APPEND | O_NONBLOCK | O_RDONLY), 0);
	r = SC(__NR_fcntl64, fd, F_GETFL, 0);
	EXPECT(r & (O_ACCMODE | O_APPEND | O_NONBLOCK), O_RDWR | O_APPEND | O_NONBLOCK);
	EXPECT(SC(__NR_fcntl64, 31, F_GETFL, 0) & O_APPEND, O_APPEND);  /* shared by dups */
	EXPECT(sys_lseek(fd, 0, SEEK_SET), 0);
	EXPECT(sys_write(fd, "d", 1), 1);                       /* O_APPEND now: at the end */
	EXPECT(sys_lseek(fd, 0, SEEK_CUR), 4);
	EXPECT(SC(__NR_fcntl64, fd, F_SETFL, 0), 0);
	EXPECT(SC(__NR_fcntl64, fd, 9999, 0), -EINVAL);
	sys_close(30);
	sys_close(31);
	sys_close(32);
	sys_close(fd);
	end();
}

static void t_misc(void)
{
	struct stat64 st;
	char buf[16];
	int fd, v;

	begin("access-faccessat");
	EXPECT(write_file(P("acc"), "x"), 0);
	EXPECT(SC(__NR_access, P("acc"), F_OK), 0);
	EXPECT(SC(__NR_access, P("acc"), R_OK | W_OK), 0);
	EXPECT(SC(__NR_access, P("acc"), X_OK), -EACCES);       /* even root needs an x bit */
	EXPECT(SC(__NR_access, base, X_OK), 0);
	EXPECT(SC(__NR_access, P("nope"), F_OK), -ENOENT);
	EXPECT(SC(__NR_access, P("acc"), 8), -EINVAL);
	EXPECT(SC(__NR_access, BAD_PTR, F_OK), -EFAULT);
	EXPECT(SC(__NR_chmod, P("acc"), 0755), 0);
	EXPECT(SC(__NR_access, P("acc"), X_OK), 0);
	fd = sys_open(base, O_RDONLY | O_DIRECTORY, 0);
	EXPECT(SC(__NR_faccessat, fd, "acc", R_OK), 0);
	EXPECT(SC(__NR_faccessat, fd, "nope", R_OK), -ENOENT);
	EXPECT(SC(__NR_faccessat, 93, "acc", R_OK), -EBADF);
	sys_close(fd);
	end();

	begin("chmod-fchmod-umask");
	EXPECT(SC(__NR_chmod, P("acc"), 04711), 0);
	EXPECT(sys_stat(P("acc"), &st), 0);
	EXPECT(st.st_mode, S_IFREG | 04711);
	fd = sys_open(P("acc"), O_RDONLY, 0);
	EXPECT(SC(__NR_fchmod, fd, 0600), 0);
	EXPECT(sys_fstat(fd, &st), 0);
	EXPECT(st.st_mode, S_IFREG | 0600);
	sys_close(fd);
	EXPECT(SC(__NR_fchmod, 91, 0600), -EBADF);
	EXPECT(SC(__NR_chmod, P("nope"), 0600), -ENOENT);
	EXPECT(SC(__NR_chmod, BAD_PTR, 0600), -EFAULT);
	EXPECT(SC(__NR_umask, 077), 022);
	fd = sys_open(P("um"), O_WRONLY | O_CREAT, 0666);
	EXPECT(sys_fstat(fd, &st), 0);
	EXPECT(st.st_mode & 0777, 0600);
	sys_close(fd);
	EXPECT(SC(__NR_umask, 022), 077);
	EXPECT(sys_unlink(P("um")), 0);
	EXPECT(sys_unlink(P("acc")), 0);
	end();

	begin("truncate-ftruncate");
	EXPECT(write_file(P("tr"), "0123456789"), 0);
	EXPECT(SC(__NR_truncate, P("tr"), 4), 0);
	EXPECT(read_file(P("tr"), buf, sizeof(buf)), 4);
	fd = sys_open(P("tr"), O_RDWR, 0);
	EXPECT(SC(__NR_ftruncate, fd, 8), 0);
	EXPECT(sys_read(fd, buf, sizeof(buf)), 8);
	CHECK(memcmp(buf, "0123\0\0\0\0", 8) == 0);             /* grown: zeros */
	EXPECT(SC(__NR_ftruncate, fd, -1), -EINVAL);
	EXPECT(SC(__NR_ftruncate64, fd, 2, 0), 0);
	EXPECT(sys_fstat(fd, &st), 0);
	EXPECT(st.st_size, 2);
	sys_close(fd);
	fd = sys_open(P("tr"), O_RDONLY, 0);
	EXPECT(SC(__NR_ftruncate, fd, 1), -EINVAL);             /* not open for writing */
	sys_close(fd);
	EXPECT(SC(__NR_ftruncate, 90, 1), -EBADF);
	EXPECT(SC(__NR_truncate, base, 0), -EISDIR);
	EXPECT(SC(__NR_truncate, P("nope"), 0), -ENOENT);
	EXPECT(SC(__NR_truncate, P("tr"), -5), -EINVAL);
	EXPECT(SC(__NR_truncate, BAD_PTR, 0), -EFAULT);
	EXPECT(SC(__NR_truncate64, P("tr"), 0, 0), 0);
	EXPECT(sys_stat(P("tr"), &st), 0);
	EXPECT(st.st_size, 0);
	EXPECT(sys_unlink(P("tr")), 0);
	end();

	begin("mknod");
	{
		/* A device node made by hand opens through the same driver table as /dev's. */
		unsigned major = ON_SMPIX ? 5 : 1, minor = ON_SMPIX ? 1 : 3;   /* console; Linux: null */
		long made = SC(__NR_mknod, P("node"), S_IFCHR | 0620, SMPIX_MKDEV(major, minor));

		/* A Linux host without CAP_MKNOD (a user namespace, a locked-down container)
		 * answers -EPERM for device nodes; smpix has one user, root, and never does. */
		if (!ON_SMPIX && made == -EPERM) {
			skip("mknod-devices", "this host may not make device nodes (-EPERM)");
			goto no_devices;
		}
		EXPECT(made, 0);
		EXPECT(sys_stat(P("node"), &st), 0);
		EXPECT(st.st_mode, S_IFCHR | 0600);             /* umask 022 took the 020 */
		EXPECT(st.st_rdev, SMPIX_MKDEV(major, minor));
		fd = sys_open(P("node"), O_WRONLY, 0);
		CHECK(fd >= 0);
		EXPECT(sys_write(fd, "", 0), 0);
		sys_close(fd);
		EXPECT(SC(__NR_mknod, P("node"), S_IFCHR | 0600, 0), -EEXIST);
		EXPECT(SC(__NR_mknod, P("nodev"), S_IFCHR | 0600, SMPIX_MKDEV(99, 7)), 0);
		EXPECT(sys_open(P("nodev"), O_RDONLY, 0), -ENXIO);
	no_devices:
		EXPECT(SC(__NR_mknod, P("d"), S_IFDIR | 0700, 0), -EPERM);
		EXPECT(SC(__NR_mknod, P("bad"), 0170000 | 0700, 0), -EINVAL);
		EXPECT(SC(__NR_mknod, P("reg"), 0644, 0), 0);   /* type 0: a regular file */
		EXPECT(sys_stat(P("reg"), &st), 0);
		CHECK(S_ISREG(st.st_mode));
		fd = sys_open(base, O_RDONLY | O_DIRECTORY, 0);
		EXPECT(SC(__NR_mknodat, fd, "fifo", S_IFIFO | 0600, 0), 0);
		EXPECT(SC(__NR_fstatat64, fd, "fifo", &st, 0), 0);
		CHECK(S_ISFIFO(st.st_mode));
		sys_close(fd);
		EXPECT(SC(__NR_mknod, BAD_PTR, S_IFREG | 0600, 0), -EFAULT);
		sys_unlink(P("node"));
		sys_unlink(P("nodev"));
		sys_unlink(P("reg"));
		sys_unlink(P("fifo"));
	}
	end();

	begin("sync-fsync");
	EXPECT(SC0(__NR_sync), 0);
	fd = sys_open(base, O_RDONLY, 0);
	EXPECT(SC(__NR_fsync, fd), 0);
	sys_close(fd);
	EXPECT(SC(__NR_fsync, 89), -EBADF);
	end();

	begin("ioctl-generic");
	EXPECT(write_file(P("io"), "0123456789"), 0);
	fd = sys_open(P("io"), O_RDONLY, 0);
	EXPECT(SC(__NR_ioctl, fd, FIOCLEX, 0), 0);
	EXPECT(SC(__NR_fcntl64, fd, F_GETFD, 0), FD_CLOEXEC);
	EXPECT(SC(__NR_ioctl, fd, FIONCLEX, 0), 0);
	EXPECT(SC(__NR_fcntl64, fd, F_GETFD, 0), 0);
	v = 1;
	EXPECT(SC(__NR_ioctl, fd, FIONBIO, &v), 0);
	EXPECT(SC(__NR_fcntl64, fd, F_GETFL, 0) & O_NONBLOCK, O_NONBLOCK);
	v = 0;
	EXPECT(SC(__NR_ioctl, fd, FIONBIO, &v), 0);
	EXPECT(SC(__NR_fcntl64, fd, F_GETFL, 0) & O_NONBLOCK, 0);
	EXPECT(SC(__NR_ioctl, fd, FIONBIO, BAD_PTR), -EFAULT);
	EXPECT(sys_lseek(fd, 3, SEEK_SET), 3);
	EXPECT(SC(__NR_ioctl, fd, FIONREAD, &v), 0);
	EXPECT(v, 7);
	EXPECT(SC(__NR_ioctl, fd, FIONREAD, BAD_PTR), -EFAULT);
	EXPECT(SC(__NR_ioctl, fd, 0x5401, &v), -ENOTTY);        /* TCGETS on a file */
	EXPECT(SC(__NR_ioctl, fd, 0x12345678, 0), -ENOTTY);
	EXPECT(SC(__NR_ioctl, 88, FIOCLEX, 0), -EBADF);
	sys_close(fd);
	EXPECT(sys_unlink(P("io")), 0);
	end();
}

/* Every call that takes a path answers -EFAULT for a bad one; every call that takes an fd, -EBADF. */
static void t_bad_everywhere(void)
{
	static const void *const bad[] = { NULL, BAD_PTR, (void *)0xFFFFFFF0 };
	struct stat64 st;
	char buf[64];
	int64_t off;

	begin("efault-every-path");
	EXPECT(write_file(P("ok"), "x"), 0);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const void *b = bad[i];

		EXPECT(sys_open(b, O_RDONLY, 0), -EFAULT);
		EXPECT(SC(__NR_openat, AT_FDCWD, b, O_RDONLY, 0), -EFAULT);
		EXPECT(SC(__NR_creat, b, 0644), -EFAULT);
		EXPECT(sys_stat(b, &st), -EFAULT);
		EXPECT(sys_lstat(b, &st), -EFAULT);
		EXPECT(SC(__NR_fstatat64, AT_FDCWD, b, &st, 0), -EFAULT);
		EXPECT(sys_mkdir(b, 0755), -EFAULT);
		EXPECT(SC(__NR_mkdirat, AT_FDCWD, b, 0755), -EFAULT);
		EXPECT(sys_rmdir(b), -EFAULT);
		EXPECT(sys_unlink(b), -EFAULT);
		EXPECT(SC(__NR_unlinkat, AT_FDCWD, b, 0), -EFAULT);
		EXPECT(SC(__NR_link, b, P("x")), -EFAULT);
		EXPECT(SC(__NR_link, P("ok"), b), -EFAULT);
		EXPECT(SC(__NR_linkat, AT_FDCWD, b, AT_FDCWD, P("x"), 0), -EFAULT);
		EXPECT(SC(__NR_rename, b, P("x")), -EFAULT);
		EXPECT(SC(__NR_rename, P("ok"), b), -EFAULT);
		EXPECT(SC(__NR_renameat, AT_FDCWD, P("ok"), AT_FDCWD, b), -EFAULT);
		EXPECT(SC(__NR_symlink, b, P("x")), -EFAULT);
		EXPECT(SC(__NR_symlink, "t", b), -EFAULT);
		EXPECT(SC(__NR_symlinkat, "t", AT_FDCWD, b), -EFAULT);
		EXPECT(SC(__NR_readlink, b, buf, sizeof(buf)), -EFAULT);
		EXPECT(SC(__NR_readlinkat, AT_FDCWD, b, buf, sizeof(buf)), -EFAULT);
		EXPECT(sys_chdir(b), -EFAULT);
		EXPECT(SC(__NR_access, b, F_OK), -EFAULT);
		EXPECT(SC(__NR_faccessat, AT_FDCWD, b, F_OK), -EFAULT);
		EXPECT(SC(__NR_truncate, b, 0), -EFAULT);
		EXPECT(SC(__NR_truncate64, b, 0, 0), -EFAULT);
		EXPECT(SC(__NR_mknod, b, S_IFREG | 0600, 0), -EFAULT);
		EXPECT(SC(__NR_mknodat, AT_FDCWD, b, S_IFREG | 0600, 0), -EFAULT);
		EXPECT(SC(__NR_chmod, b, 0600), -EFAULT);
		EXPECT(SC(__NR_execve, b, 0, 0), -EFAULT);
	}
	EXPECT(sys_unlink(P("ok")), 0);
	end();

	begin("ebadf-every-fd");
	{
		static const int fds[] = { -1, 77, 255, 256, 100000 };

		for (unsigned i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
			int fd = fds[i];

			EXPECT(sys_read(fd, buf, 1), -EBADF);
			EXPECT(sys_write(fd, buf, 1), -EBADF);
			EXPECT(sys_close(fd), -EBADF);
			EXPECT(SC(__NR_readv, fd, buf, 0), -EBADF);
			EXPECT(SC(__NR_writev, fd, buf, 0), -EBADF);
			EXPECT(SC(__NR_pread64, fd, buf, 1, 0, 0), -EBADF);
			EXPECT(SC(__NR_pwrite64, fd, buf, 1, 0, 0), -EBADF);
			EXPECT(sys_lseek(fd, 0, SEEK_SET), -EBADF);
			EXPECT(SC(__NR__llseek, fd, 0, 0, &off, SEEK_SET), -EBADF);
			EXPECT(sys_fstat(fd, &st), -EBADF);
			EXPECT(SC(__NR_fstatat64, fd, "rel", &st, 0), -EBADF);
			EXPECT(SC(__NR_openat, fd, "rel", O_RDONLY, 0), -EBADF);
			EXPECT(SC(__NR_mkdirat, fd, "rel", 0755), -EBADF);
			EXPECT(SC(__NR_unlinkat, fd, "rel", 0), -EBADF);
			EXPECT(SC(__NR_getdents64, fd, buf, sizeof(buf)), -EBADF);
			EXPECT(SC(__NR_fchdir, fd), -EBADF);
			EXPECT(SC(__NR_dup, fd), -EBADF);
			EXPECT(SC(__NR_dup2, fd, 20), -EBADF);
			EXPECT(SC(__NR_dup3, fd, 20, 0), -EBADF);
			EXPECT(SC(__NR_fcntl64, fd, F_GETFL, 0), -EBADF);
			EXPECT(SC(__NR_ftruncate, fd, 0), -EBADF);
			EXPECT(SC(__NR_fchmod, fd, 0600), -EBADF);
			EXPECT(SC(__NR_fsync, fd), -EBADF);
			EXPECT(SC(__NR_ioctl, fd, FIONREAD, buf), -EBADF);
		}
	}
	end();
}

/* EMFILE: one process may hold FD_MAX descriptors (Linux: RLIMIT_NOFILE, set to 256 here). */
static void t_emfile(void)
{
	int pid, status;

	begin("emfile");
	EXPECT(write_file(P("many"), "x"), 0);
	pid = sys_fork();
	if (pid == 0) {
		uint32_t lim[2] = { 256, 256 };
		int n = 0, r;

		if (!ON_SMPIX && SC(75, 7, lim) != 0)   /* setrlimit(RLIMIT_NOFILE): Linux only */
			sys_exit(3);
		while ((r = sys_open(P("many"), O_RDONLY, 0)) >= 0)
			n++;
		/* The limit getrlimit reports is the table's: its last slot can be named, the next not. */
		if (SC(__NR_ugetrlimit, 7, lim) != 0 || SC(__NR_dup2, 0, lim[0]) != -EBADF ||
		    SC(__NR_dup2, 0, lim[0] - 1) != (long)lim[0] - 1)
			sys_exit(2);
		sys_exit(r == -EMFILE && n > 200 && n < 256 && SC(__NR_dup, 0) == -EMFILE &&
			 SC(__NR_fcntl64, 0, F_DUPFD, 0) == -EMFILE ? 0 : 1);
	}
	status = wait_child(pid);
	EXPECT(sys_unlink(P("many")), 0);
	if (!ON_SMPIX && status == 3 << 8) {
		skip("emfile", "this host will not let RLIMIT_NOFILE be 256 (its hard limit is lower)");
		return;
	}
	EXPECT(status, 0);
	end();
}

/* ENFILE: the system-wide limit. A chain of processes, each holding its own 250-odd open files. */
static void t_enfile(void)
{
	int pid, status;

	if (!ON_SMPIX) {
		skip("enfile", "Linux's file-max is far too high to reach");
		return;
	}
	begin("enfile");
	EXPECT(write_file(P("lots"), "x"), 0);
	pid = sys_fork();
	if (pid == 0) {
		for (int level = 0; level < 10; level++) {
			int r, child;

			while ((r = sys_open(P("lots"), O_RDONLY, 0)) >= 0)
				;
			if (r == -ENFILE)
				sys_exit(sys_open(P("lots"), O_RDONLY, 0) == -ENFILE ? 0 : 3);
			if (r != -EMFILE)
				sys_exit(2);
			/* Full: let a child close its copies (the files stay open here) and open more. */
			child = sys_fork();
			if (child != 0)
				sys_exit(wait_child(child) == 0 ? 0 : 4);
			for (int fd = 3; fd < 256; fd++)
				sys_close(fd);
		}
		sys_exit(5);
	}
	status = wait_child(pid);
	EXPECT(status, 0);
	EXPECT(sys_unlink(P("lots")), 0);
	end();
}

/* fork() shares open files (one position); close-on-exec descriptors are gone after execve(). */
static void t_fork_exec(void)
{
	char buf[16], a[12], b[12];
	struct stat64 st;
	int fd, cfd, pid, status;

	begin("fork-shares-files");
	fd = sys_open(P("fk"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	EXPECT(sys_write(fd, "ab", 2), 2);
	pid = sys_fork();
	if (pid == 0)
		sys_exit(sys_write(fd, "cd", 2) == 2 && sys_close(fd) == 0 ? 0 : 1);
	EXPECT(wait_child(pid), 0);
	EXPECT(sys_lseek(fd, 0, SEEK_CUR), 4);                  /* the child moved our position */
	EXPECT(SC(__NR_pread64, fd, buf, 4, 0, 0), 4);
	CHECK(memcmp(buf, "abcd", 4) == 0);
	sys_close(fd);
	end();

	begin("exec-close-on-exec");
	fd = sys_open(P("fk"), O_RDONLY, 0);
	cfd = sys_open(P("fk"), O_RDONLY | O_CLOEXEC, 0);
	snprintf(a, sizeof(a), "%d", fd);
	snprintf(b, sizeof(b), "%d", cfd);
	pid = sys_fork();
	if (pid == 0) {
		char *argv[] = { self, "--exec-check", a, b, NULL };
		char *envp[] = { NULL };

		SC(__NR_execve, self, argv, envp);
		sys_exit(99);
	}
	status = wait_child(pid);
	EXPECT(status, 42 << 8);
	EXPECT(SC(__NR_execve, P("nope"), 0, 0), -ENOENT);
	EXPECT(SC(__NR_execve, base, 0, 0), -EACCES);
	EXPECT(SC(__NR_execve, P("fk"), 0, 0), -EACCES);         /* no x bit */
	EXPECT(SC(__NR_execve, BAD_PTR, 0, 0), -EFAULT);
	sys_close(fd);
	sys_close(cfd);
	end();

	begin("exec-script");
	{
		char script[300];

		snprintf(script, sizeof(script), "#!%s --script-check\necho not reached\n", self);
		EXPECT(write_file(P("script"), script), 0);
		EXPECT(SC(__NR_chmod, P("script"), 0755), 0);
		pid = sys_fork();
		if (pid == 0) {
			char *argv[] = { "script", "arg1", NULL };
			char *envp[] = { NULL };

			SC(__NR_execve, P("script"), argv, envp);
			sys_exit(99);
		}
		EXPECT(wait_child(pid), 43 << 8);
		EXPECT(write_file(P("script"), "#!\n"), 0);
		EXPECT(SC(__NR_execve, P("script"), 0, 0), -ENOEXEC);
		EXPECT(write_file(P("script"), "plain text\n"), 0);
		EXPECT(SC(__NR_execve, P("script"), 0, 0), -ENOEXEC);
		EXPECT(sys_stat(P("script"), &st), 0);
		EXPECT(sys_unlink(P("script")), 0);
	}
	EXPECT(sys_unlink(P("fk")), 0);
	end();
}

/* Every CPU at once: private files, one shared O_APPEND log, renames and directories in one place. */
#define SMP_ROUNDS 60
#define RECORD 16

static void smp_worker(int id)
{
	uint32_t mask = 1u << id;
	char name[32], name2[32], dir[32], rec[RECORD + 1], back[RECORD];
	int log = sys_open(P("smp/log"), O_WRONLY | O_APPEND, 0);

	SC(__NR_sched_setaffinity, 0, sizeof(mask), &mask);
	for (int i = 0; i < SMP_ROUNDS; i++) {
		int fd;

		snprintf(name, sizeof(name), "smp/w%d", id);
		snprintf(name2, sizeof(name2), "smp/w%d-renamed", id);
		snprintf(dir, sizeof(dir), "smp/d%d", id);
		snprintf(rec, sizeof(rec), "cpu%d round%05d\n", id, i);
		if (sys_write(log, rec, RECORD) != RECORD)
			sys_exit(10);
		fd = sys_open(P(name), O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || sys_write(fd, rec, RECORD) != RECORD)
			sys_exit(11);
		if (SC(__NR_pread64, fd, back, RECORD, 0, 0) != RECORD || memcmp(back, rec, RECORD))
			sys_exit(12);
		sys_close(fd);
		if (SC(__NR_rename, P(name), P(name2)) != 0 || sys_unlink(P(name2)) != 0)
			sys_exit(13);
		if (sys_mkdir(P(dir), 0755) != 0 || sys_rmdir(P(dir)) != 0)
			sys_exit(14);
	}
	sys_close(log);
	sys_exit(0);
}

static void t_smp(void)
{
	static char log[NCPU * SMP_ROUNDS * RECORD + 1];
	int pids[NCPU], counts[NCPU] = { 0 };
	long n;

	begin("smp-all-cpus");
	EXPECT(sys_mkdir(P("smp"), 0755), 0);
	EXPECT(write_file(P("smp/log"), ""), 0);
	for (int i = 0; i < NCPU; i++) {
		pids[i] = sys_fork();
		if (pids[i] == 0)
			smp_worker(i);
	}
	for (int i = 0; i < NCPU; i++)
		EXPECT(wait_child(pids[i]), 0);
	n = read_file(P("smp/log"), log, sizeof(log));
	EXPECT(n, NCPU * SMP_ROUNDS * RECORD);
	/* Each record whole (appends never overwrite each other), and all of them there. */
	for (long off = 0; off + RECORD <= n; off += RECORD) {
		int cpu = log[off + 3] - '0';

		if (memcmp(log + off, "cpu", 3) != 0 || log[off + RECORD - 1] != '\n' || cpu < 0 || cpu >= NCPU) {
			fail_at(__LINE__, "a torn record at offset", off, -1);
			break;
		}
		counts[cpu]++;
	}
	for (int i = 0; i < NCPU; i++)
		EXPECT(counts[i], SMP_ROUNDS);
	{
		static const char *const only_log[] = { "log" };

		EXPECT(dir_lists(P("smp"), only_log, 1), 1);
	}
	EXPECT(sys_unlink(P("smp/log")), 0);
	EXPECT(sys_rmdir(P("smp")), 0);
	end();
}

/*
 * A rename storm: four processes on four CPUs moving a few directories into
 * and out of each other, making and removing them. Renames lock two
 * directories at once, so this is where a bad lock order would deadlock
 * (the harness's timeout catches that). Afterwards the tree must be sound:
 * each directory's ".." is its parent, and (on smpix) its link count is two
 * plus its subdirectories.
 */
static const char *const storm_names[] = { "storm/a", "storm/b", "storm/a/b", "storm/b/a", "storm/a/c", "storm/c",
					   "storm/c/a", "storm/b/c", "storm/a/b/c", "storm/f" };
#define NSTORM (int)(sizeof(storm_names) / sizeof(storm_names[0]))

static void storm_worker(int id)
{
	uint32_t mask = 1u << id, seed = 1234 + 77 * id;

	SC(__NR_sched_setaffinity, 0, sizeof(mask), &mask);
	for (int i = 0; i < 400; i++) {
		const char *x, *y;
		int fd;

		seed = seed * 1103515245u + 12345u;
		x = P(storm_names[(seed >> 8) % NSTORM]);
		y = P(storm_names[(seed >> 16) % NSTORM]);
		switch ((seed >> 24) % 6) {
		case 0: sys_mkdir(x, 0755); break;
		case 1: sys_rmdir(x); break;
		case 2: case 3: SC(__NR_rename, x, y); break;
		case 4:
			fd = sys_open(x, O_CREAT | O_RDWR, 0644);
			if (fd >= 0)
				sys_close(fd);
			break;
		case 5: sys_unlink(x); break;
		}
	}
	sys_exit(0);
}

/* Check dir and everything below it: ".." is parent, nlink is 2 + subdirectories. */
static void check_tree(const char *dir, uint64_t parent_ino)
{
	char buf[1024];                 /* not static: the recursion below must not overwrite it */
	struct stat64 st, up;
	char child[300], dotdot[300];
	int fd, subdirs = 0;
	long n;

	EXPECT(sys_stat(dir, &st), 0);
	snprintf(dotdot, sizeof(dotdot), "%s/..", dir);
	EXPECT(sys_stat(dotdot, &up), 0);
	EXPECT(up.st_ino, parent_ino);
	fd = sys_open(dir, O_RDONLY | O_DIRECTORY, 0);
	while ((n = SC(__NR_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

			off += d->d_reclen;
			if (d->d_type != DT_DIR || streq(d->d_name, ".") || streq(d->d_name, ".."))
				continue;
			subdirs++;
			snprintf(child, sizeof(child), "%s/%s", dir, d->d_name);
			check_tree(child, st.st_ino);
		}
	}
	sys_close(fd);
	if (ON_SMPIX)
		EXPECT(st.st_nlink, 2 + subdirs);
}

static void t_rename_storm(void)
{
	struct stat64 st;
	int pids[NCPU];

	begin("rename-storm");
	EXPECT(sys_mkdir(P("storm"), 0755), 0);
	for (int i = 0; i < NCPU; i++) {
		pids[i] = sys_fork();
		if (pids[i] == 0)
			storm_worker(i);
	}
	for (int i = 0; i < NCPU; i++)
		EXPECT(wait_child(pids[i]), 0);
	EXPECT(sys_stat(base, &st), 0);
	check_tree(P("storm"), st.st_ino);
	end();
}

/* ---- the kernel's object counts (smpix: /dev/kcounts) ------------------------------- */

struct counts {
	long inodes, files, file_pages, pages, heap_objects;
};

static int read_counts(struct counts *c)
{
	char buf[256], *p = buf;
	long v[6];

	if (read_file("/dev/kcounts", buf, sizeof(buf)) <= 0)
		return -1;
	for (int i = 0; i < 6; i++) {
		while (*p && (*p < '0' || *p > '9'))
			p++;
		v[i] = 0;
		while (*p >= '0' && *p <= '9')
			v[i] = v[i] * 10 + (*p++ - '0');
	}
	c->inodes = v[0];
	c->files = v[1];
	c->file_pages = v[2];
	c->pages = v[3] + v[4];         /* free pages + heap pages: constant unless pages leak */
	c->heap_objects = v[5];
	return 0;
}

/*
 * Booted from a hand-made initrd (tools/test/cases/45_vfs.py builds it with
 * `find . | cpio -o -H newc`) as init=/sbin/check, a "#!/bin/vfstest
 * --initrd-check" script: did every kind of member come across, with its mode?
 */
static int initrd_check(void)
{
	static const char hello[] = "hello from a hand-made initrd\n";
	struct stat64 st;
	char buf[64];
	int fd;

	begin("initrd-check");
	EXPECT(sys_stat("/etc/hello", &st), 0);
	EXPECT(st.st_mode, S_IFREG | 0640);
	EXPECT(read_file("/etc/hello", buf, sizeof(buf)), sizeof(hello) - 1);
	CHECK(streq(buf, hello));
	EXPECT(sys_lstat("/lnk/tohello", &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	EXPECT(SC(__NR_readlink, "/lnk/tohello", buf, sizeof(buf)), 12);
	CHECK(memcmp(buf, "../etc/hello", 12) == 0);
	EXPECT(read_file("/lnk/tohello", buf, sizeof(buf)), sizeof(hello) - 1);
	EXPECT(sys_stat("/private", &st), 0);
	EXPECT(st.st_mode, S_IFDIR | 0700);
	/* A hard link in the archive is one file with two names, as it was where it was made. */
	{
		struct stat64 other;
		uint64_t ino;

		EXPECT(sys_stat("/etc/hello", &st), 0);
		ino = st.st_ino;
		EXPECT(sys_stat("/private/hello-too", &other), 0);
		CHECK(other.st_ino == ino);
		EXPECT(other.st_nlink, 2);
		EXPECT(read_file("/private/hello-too", buf, sizeof(buf)), sizeof(hello) - 1);
		CHECK(streq(buf, hello));
	}
	EXPECT(sys_stat("/sbin/check", &st), 0);
	EXPECT(st.st_mode, S_IFREG | 0755);
	EXPECT(sys_stat("/nodes/console", &st), 0);
	EXPECT(st.st_mode, S_IFCHR | 0620);
	EXPECT(st.st_rdev, SMPIX_MKDEV(5, 1));
	fd = sys_open("/nodes/console", O_WRONLY, 0);
	CHECK(fd >= 0);
	EXPECT(sys_write(fd, "vfstest: written through a hand-made device node\n", 49), 49);
	sys_close(fd);
	end();
	return group_failed ? 1 : 0;
}

/*
 * As /bin/readconsole ("#!/bin/vfstest --console-read"): fd 0 is /dev/console.
 * With O_NONBLOCK and nothing typed a read is -EAGAIN; without, it sleeps
 * until a line arrives (the harness types it) and returns it, newline included.
 */
static int console_read(void)
{
	char buf[128];
	long n;
	int r;

	EXPECT(SC(__NR_fcntl64, 0, F_SETFL, O_NONBLOCK), 0);
	EXPECT(sys_read(0, buf, sizeof(buf)), -EAGAIN);
	EXPECT(SC(__NR_fcntl64, 0, F_SETFL, 0), 0);
	EXPECT(SC(__NR_ioctl, 0, FIONREAD, &r), 0);
	EXPECT(r, 0);
	say("vfstest: console waiting for a line\n");
	n = sys_read(0, buf, sizeof(buf) - 1);
	if (n < 0)
		n = 0;
	buf[n] = 0;
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	say("vfstest: console read '%s' (%ld bytes)\n", buf, n);
	return group_failed ? 1 : 0;
}

/* ---- main ---------------------------------------------------------------------------- */

static void run_all(void)
{
	t_open_close();
	t_read_write();
	t_seek();
	t_stat();
	t_getdents();
	t_mkdir_rmdir_unlink();
	t_unlink_open();
	t_link_rename();
	t_symlink();
	t_paths_cwd();
	t_dup_fcntl();
	t_misc();
	t_bad_everywhere();
	t_emfile();
	t_enfile();
	t_fork_exec();
	t_smp();
	t_rename_storm();
}

/* Remove path and everything below it (the scratch directory after a run). */
/* Each level has its own listing buffer: one shared by the recursion would be overwritten
 * by the subdirectory's listing while this level still walks it. */
static int rm_rf(const char *path)
{
	char buf[1024], child[1024];
	struct stat64 st;

	if (sys_lstat(path, &st) < 0)
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		if (sys_unlink(path) == 0)
			return 0;
		say("vfstest: cannot remove %s: %d\n", path, sys_unlink(path));
		return -1;
	}
	for (;;) {
		int fd = sys_open(path, O_RDONLY | O_DIRECTORY, 0), removed = 0;
		long n = fd < 0 ? -1 : SC(__NR_getdents64, fd, buf, sizeof(buf));

		sys_close(fd);
		/* Remove one batch, then list again: removing while listing may skip names.
		 * A batch that removes nothing ends it: what stays would stay forever. */
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

			off += d->d_reclen;
			if (streq(d->d_name, ".") || streq(d->d_name, ".."))
				continue;
			if (snprintf(child, sizeof(child), "%s/%s", path, d->d_name) >= (int)sizeof(child)) {
				say("vfstest: cannot remove %s/%s: the path is too long\n", path, d->d_name);
				continue;
			}
			if (rm_rf(child) == 0)
				removed++;
		}
		if (!removed)
			break;
	}
	if (sys_rmdir(path) == 0)
		return 0;
	say("vfstest: cannot remove %s: %d\n", path, sys_rmdir(path));
	return -1;
}

/* Run the suite in a child (so its descriptors and memory are all given back), then reap everything. */
static int run_suite_in_child(void)
{
	int pid, status;

	sys_mkdir(base, 0755);
	pid = sys_fork();
	if (pid == 0) {
		if (sys_chdir(base) != 0) {
			say("vfstest: cannot work in %s\n", base);
			sys_exit(1);
		}
		run_all();
		if (skipped)
			say("vfstest: summary %d passed, %d failed, %d skipped\n", passed, failed, skipped);
		else
			say("vfstest: summary %d passed, %d failed\n", passed, failed);
		sys_exit(failed ? 1 : 0);
	}
	status = wait_child(pid);
	while (SC(__NR_wait4, -1, 0, 1 /* WNOHANG */, 0) > 0)
		;                       /* orphans adopted by us, if we are init */
	rm_rf(base);
	return status;
}

int main(int argc, char **argv)
{
	struct counts before, after;
	int status, have_counts;

	if (argc >= 4 && streq(argv[1], "--exec-check")) {
		int keep = 0, gone = 0;

		for (const char *p = argv[2]; *p; p++)
			keep = keep * 10 + (*p - '0');
		for (const char *p = argv[3]; *p; p++)
			gone = gone * 10 + (*p - '0');
		return SC(__NR_fcntl64, keep, F_GETFD, 0) == 0 &&
		       SC(__NR_fcntl64, gone, F_GETFD, 0) == -EBADF ? 42 : 1;
	}
	if (argc >= 2 && streq(argv[1], "--console-read"))
		return console_read();
	if (argc >= 2 && streq(argv[1], "--initrd-check"))
		return initrd_check();
	if (argc >= 3 && streq(argv[1], "--script-check")) {
		/* The kernel ran us as: self --script-check /SCRATCH/script arg1 */
		size_t n = strlen(argv[2]);

		return argc == 4 && streq(argv[3], "arg1") && n > 7 && streq(argv[2] + n - 7, "/script") ? 43 : 1;
	}

	if (ON_SMPIX) {
		snprintf(self, sizeof(self), "%s", argv[0]);
		snprintf(base, sizeof(base), "/vfstest");
	} else {
		long n = SC(__NR_readlink, "/proc/self/exe", self, sizeof(self) - 1);

		self[n > 0 ? n : 0] = 0;
		/* No /proc (a bare chroot): argv[0], made absolute before the suite changes directory. */
		if (n <= 0 && argv[0][0] == '/')
			snprintf(self, sizeof(self), "%s", argv[0]);
		else if (n <= 0 && SC(__NR_getcwd, self, sizeof(self) - 1) > 0)
			snprintf(self + strlen(self), sizeof(self) - strlen(self), "/%s", argv[0]);
		snprintf(base, sizeof(base), "/tmp/vfstest-%ld", SC0(__NR_getpid));
	}
	SC(__NR_umask, 022);
	if (argc >= 2 && argv[1][0] == '/') {
		snprintf(base, sizeof(base), "%s", argv[1]);
		/*
		 * Elsewhere than in ramfs (an ext2 mount), the buffer cache keeps the disk's blocks, and
		 * their heap objects, until umount: the caller compares the counts after it instead
		 * (user/tests/ext2test.c). One run, no warming.
		 */
		say("vfstest: working in %s on %s\n", base, ON_SMPIX ? "smpix" : "Linux");
		status = run_suite_in_child();
		skip("no-leaks", "not on ramfs: the caller compares the kernel's counts after umount");
		say("vfstest: done, status %d\n", status ? 1 : 0);
		return status ? 1 : 0;
	}
	say("vfstest: working in %s on %s\n", base, ON_SMPIX ? "smpix" : "Linux");

	/* A first run warms the kernel's caches (heap size classes); the second must leak nothing. */
	have_counts = ON_SMPIX && read_counts(&before) == 0;
	status = run_suite_in_child();
	if (have_counts) {
		read_counts(&before);
		status |= run_suite_in_child();
		read_counts(&after);
		say("vfstest: counts before: inodes %ld files %ld file_pages %ld pages %ld heap_objects %ld\n",
		    before.inodes, before.files, before.file_pages, before.pages, before.heap_objects);
		say("vfstest: counts after:  inodes %ld files %ld file_pages %ld pages %ld heap_objects %ld\n",
		    after.inodes, after.files, after.file_pages, after.pages, after.heap_objects);
		begin("no-leaks");
		EXPECT(after.inodes, before.inodes);
		EXPECT(after.files, before.files);
		EXPECT(after.file_pages, before.file_pages);
		EXPECT(after.pages, before.pages);
		EXPECT(after.heap_objects, before.heap_objects);
		end();
		status |= group_failed;
	} else if (ON_SMPIX) {
		say("vfstest: no-leaks FAIL cannot read /dev/kcounts\n");
		status = 1;
	}
	say("vfstest: done, status %d\n", status ? 1 : 0);
	return status ? 1 : 0;
}
