/*
 * The libc's system-call wrappers: Linux i386's calls through syscall6()
 * (syscall.S). A result in -4095..-1 is an error: errno gets it and the
 * wrapper returns -1, as POSIX says. (The kernel tests use ulib.h's raw
 * inline calls instead, which return -errno.)
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);

int errno;

/* The kernel's answer as POSIX wants it: -1 and errno, or the value. */
static long ret(long r)
{
	if ((unsigned long)r >= (unsigned long)-4095) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

#define SYS0(nr)                  ret(syscall6((nr), 0, 0, 0, 0, 0, 0))
#define SYS1(nr, a)               ret(syscall6((nr), (long)(a), 0, 0, 0, 0, 0))
#define SYS2(nr, a, b)            ret(syscall6((nr), (long)(a), (long)(b), 0, 0, 0, 0))
#define SYS3(nr, a, b, c)         ret(syscall6((nr), (long)(a), (long)(b), (long)(c), 0, 0, 0))
#define SYS4(nr, a, b, c, d)      ret(syscall6((nr), (long)(a), (long)(b), (long)(c), (long)(d), 0, 0))

long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);        /* reads past the caller's arguments: harmless on i386 */
	va_end(ap);
	return ret(syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]));
}

/* ---- files ---- */
ssize_t read(int fd, void *buf, size_t n) { return SYS3(__NR_read, fd, buf, n); }
ssize_t write(int fd, const void *buf, size_t n) { return SYS3(__NR_write, fd, buf, n); }
int close(int fd) { return SYS1(__NR_close, fd); }
off_t lseek(int fd, off_t off, int whence) { return SYS3(__NR_lseek, fd, off, whence); }
int dup(int fd) { return SYS1(__NR_dup, fd); }
int dup2(int fd, int to) { return SYS2(__NR_dup2, fd, to); }
int pipe(int fds[2]) { return SYS1(__NR_pipe, fds); }
int pipe2(int fds[2], int flags) { return SYS2(__NR_pipe2, fds, flags); }
int unlink(const char *path) { return SYS1(__NR_unlink, path); }
int link(const char *old, const char *new) { return SYS2(__NR_link, old, new); }
int symlink(const char *target, const char *path) { return SYS2(__NR_symlink, target, path); }
ssize_t readlink(const char *path, char *buf, size_t size) { return SYS3(__NR_readlink, path, buf, size); }
int rename(const char *old, const char *new) { return SYS2(__NR_rename, old, new); }
int mkdir(const char *path, mode_t mode) { return SYS2(__NR_mkdir, path, mode); }
int mknod(const char *path, mode_t mode, dev_t dev) { return SYS3(__NR_mknod, path, mode, dev); }
int mkfifo(const char *path, mode_t mode) { return mknod(path, S_IFIFO | (mode & 07777), 0); }
int rmdir(const char *path) { return SYS1(__NR_rmdir, path); }
int chdir(const char *path) { return SYS1(__NR_chdir, path); }
int chmod(const char *path, mode_t mode) { return SYS2(__NR_chmod, path, mode); }
mode_t umask(mode_t mask) { return SYS1(__NR_umask, mask); }
int access(const char *path, int mode) { return SYS2(__NR_access, path, mode); }
int truncate(const char *path, off_t len) { return SYS2(__NR_truncate, path, len); }
int ftruncate(int fd, off_t len) { return SYS2(__NR_ftruncate, fd, len); }
int stat(const char *path, struct stat64 *st) { return SYS2(__NR_stat64, path, st); }
int lstat(const char *path, struct stat64 *st) { return SYS2(__NR_lstat64, path, st); }
int fstat(int fd, struct stat64 *st) { return SYS2(__NR_fstat64, fd, st); }
int getdents64(int fd, void *buf, unsigned n) { return SYS3(__NR_getdents64, fd, buf, n); }
int utimensat(int dirfd, const char *path, const struct timespec *times, int flags)
{
	return SYS4(__NR_utimensat, dirfd, path, times, flags);
}
int futimens(int fd, const struct timespec *times) { return SYS4(__NR_utimensat, fd, 0, times, 0); }

/* getcwd(2) returns the length; the C function returns the buffer. */
char *getcwd(char *buf, size_t size)
{
	return SYS2(__NR_getcwd, buf, size) < 0 ? NULL : buf;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	unsigned mode;

	va_start(ap, flags);
	mode = va_arg(ap, unsigned);    /* read even without O_CREAT: harmless on i386 */
	va_end(ap);
	return SYS3(__NR_open, path, flags | O_LARGEFILE, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	unsigned mode;

	va_start(ap, flags);
	mode = va_arg(ap, unsigned);
	va_end(ap);
	return SYS4(__NR_openat, dirfd, path, flags | O_LARGEFILE, mode);
}

int creat(const char *path, unsigned mode) { return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode); }

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	return SYS3(__NR_fcntl64, fd, cmd, arg);
}

int ioctl(int fd, unsigned long cmd, ...)
{
	va_list ap;
	long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	return SYS3(__NR_ioctl, fd, cmd, arg);
}

/* ---- processes ---- */
pid_t fork(void) { return SYS0(__NR_fork); }
pid_t vfork(void) { return SYS0(__NR_fork); }  /* a real vfork cannot return through a C wrapper */
int execve(const char *path, char *const argv[], char *const envp[])
{
	return SYS3(__NR_execve, path, argv, envp);
}
void _exit(int status)
{
	syscall6(__NR_exit_group, status, 0, 0, 0, 0, 0);
	for (;;)
		;
}
void _Exit(int status) { _exit(status); }
pid_t wait(int *status) { return SYS4(__NR_wait4, -1, status, 0, 0); }
pid_t waitpid(pid_t pid, int *status, int options) { return SYS4(__NR_wait4, pid, status, options, 0); }
pid_t wait4(pid_t pid, int *status, int options, void *ru) { return SYS4(__NR_wait4, pid, status, options, ru); }
pid_t getpid(void) { return SYS0(__NR_getpid); }
pid_t getppid(void) { return SYS0(__NR_getppid); }
pid_t getpgrp(void) { return SYS0(__NR_getpgrp); }
pid_t getpgid(pid_t pid) { return SYS1(__NR_getpgid, pid); }
int setpgid(pid_t pid, pid_t pgid) { return SYS2(__NR_setpgid, pid, pgid); }
pid_t setsid(void) { return SYS0(__NR_setsid); }
pid_t getsid(pid_t pid) { return SYS1(__NR_getsid, pid); }
uid_t getuid(void) { return SYS0(__NR_getuid32); }
uid_t geteuid(void) { return SYS0(__NR_geteuid32); }
int kill(pid_t pid, int sig) { return SYS2(__NR_kill, pid, sig); }
int killpg(pid_t pgrp, int sig) { return kill(-pgrp, sig); }
int raise(int sig) { return kill(getpid(), sig); }
int pause(void) { return SYS0(__NR_pause); }
unsigned alarm(unsigned seconds) { return SYS1(__NR_alarm, seconds); }
int sched_yield(void) { return SYS0(__NR_sched_yield); }
int sched_getaffinity(pid_t pid, size_t size, void *mask) { return SYS3(__NR_sched_getaffinity, pid, size, mask); }
int sched_setaffinity(pid_t pid, size_t size, const void *mask)
{
	return SYS3(__NR_sched_setaffinity, pid, size, mask);
}

/* ---- memory ---- */

/* The program break as brk(2) last answered; 0 until the first call asks. */
static long current_break;

/* brk(2) answers the break it set, or the old one when it could not move. */
int brk(void *addr)
{
	current_break = syscall6(__NR_brk, (long)addr, 0, 0, 0, 0, 0);
	if (current_break != (long)addr) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void *sbrk(intptr_t delta)
{
	long old;

	if (!current_break)
		current_break = syscall6(__NR_brk, 0, 0, 0, 0, 0, 0);
	old = current_break;
	if (delta == 0)
		return (void *)old;
	if (brk((void *)(old + delta)) < 0)
		return (void *)-1;
	return (void *)old;
}

/* ---- time ---- */
time_t time(time_t *t) { return SYS1(__NR_time, t); }
int clock_gettime(int clock, struct timespec *ts) { return SYS2(__NR_clock_gettime, clock, ts); }
clock_t times(struct tms *buf) { return SYS1(__NR_times, buf); }
int nanosleep(const struct timespec *req, struct timespec *rem) { return SYS2(__NR_nanosleep, req, rem); }

unsigned sleep(unsigned seconds)
{
	struct timespec ts = { (int32_t)seconds, 0 }, rem = { 0, 0 };

	if (nanosleep(&ts, &rem) < 0)
		return rem.tv_sec + (rem.tv_nsec > 0);
	return 0;
}

int usleep(useconds_t usec)
{
	struct timespec ts = { (int32_t)(usec / 1000000), (int32_t)(usec % 1000000) * 1000 };

	return nanosleep(&ts, NULL);
}

/* ---- the system ---- */
int sysinfo(struct sysinfo *info) { return SYS1(__NR_sysinfo, info); }
int klogctl(int type, char *buf, int len) { return SYS3(__NR_syslog, type, buf, len); }
int reboot(int cmd) { return SYS4(__NR_reboot, 0xfee1dead, 672274793, cmd, 0); }
