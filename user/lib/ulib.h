/*
 * Raw system calls for the kernel tests (utest, vfstest, sigtest, ...): each
 * returns what the kernel answered, -errno included, so a test sees exactly
 * which error came back. They are static inline, local to the test that
 * includes this header; the rest of the library (printf, ...) and every
 * ordinary program use the libc's wrappers in usys.c, which set errno.
 */
#ifndef USER_ULIB_H
#define USER_ULIB_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/format.h"          /* snprintf, vsnprintf: shared with the kernel */
#include "kernel/lib/string.h"          /* memcpy, strlen, ...: shared with the kernel */
#include "kernel/uapi/errno.h"
#include "kernel/uapi/signal.h"
#include "kernel/uapi/sysinfo.h"
#include "kernel/uapi/unistd.h"
#include "kernel/uapi/wait.h"

struct timespec {
	int32_t tv_sec;
	int32_t tv_nsec;
};

long syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
#define syscall(nr, ...) syscall_n(nr, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define syscall_n(nr, a, b, c, d, e, f, ...) \
	syscall6((nr), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

static inline __attribute__((noreturn)) void exit(int code)
{
	syscall(__NR_exit_group, code);
	for (;;)
		;
}
static inline int fork(void) { return syscall(__NR_fork, 0); }
static inline long write(int fd, const void *buf, size_t n) { return syscall(__NR_write, fd, buf, n); }
static inline long read(int fd, void *buf, size_t n) { return syscall(__NR_read, fd, buf, n); }
static inline int waitpid(int pid, int *status, int options)
{
	return syscall(__NR_waitpid, pid, status, options);
}
static inline int wait4(int pid, int *status, int options, void *rusage)
{
	return syscall(__NR_wait4, pid, status, options, rusage);
}
static inline int execve(const char *path, char *const argv[], char *const envp[])
{
	return syscall(__NR_execve, path, argv, envp);
}
static inline int getpid(void) { return syscall(__NR_getpid, 0); }
static inline int getppid(void) { return syscall(__NR_getppid, 0); }
static inline int kill(int pid, int sig) { return syscall(__NR_kill, pid, sig); }
static inline void *brk(void *addr) { return (void *)syscall(__NR_brk, addr); }
static inline int sched_yield(void) { return syscall(__NR_sched_yield, 0); }
static inline int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return syscall(__NR_nanosleep, req, rem);
}
static inline int sched_setaffinity(int pid, unsigned len, const void *mask)
{
	return syscall(__NR_sched_setaffinity, pid, len, mask);
}
static inline int sched_getaffinity(int pid, unsigned len, void *mask)
{
	return syscall(__NR_sched_getaffinity, pid, len, mask);
}
static inline int clock_gettime(int clock, struct timespec *ts)
{
	return syscall(__NR_clock_gettime, clock, ts);
}
static inline int sysinfo(struct sysinfo *info) { return syscall(__NR_sysinfo, info); }
static inline void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, 0);
}

int atoi(const char *s);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

extern uint32_t initial_esp;            /* esp at _start (crt0.S) */

#endif
