/* The smpix user library: raw system calls (returning -errno, no errno variable) and helpers. */
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

void exit(int code) __attribute__((noreturn));
int fork(void);
long write(int fd, const void *buf, size_t n);
long read(int fd, void *buf, size_t n);
int waitpid(int pid, int *status, int options);
int wait4(int pid, int *status, int options, void *rusage);
int execve(const char *path, char *const argv[], char *const envp[]);
int getpid(void);
int getppid(void);
int kill(int pid, int sig);
void *brk(void *addr);
int sched_yield(void);
int nanosleep(const struct timespec *req, struct timespec *rem);
int sched_setaffinity(int pid, unsigned len, const void *mask);
int sched_getaffinity(int pid, unsigned len, void *mask);
int clock_gettime(int clock, struct timespec *ts);
int sysinfo(struct sysinfo *info);
void msleep(int ms);

int atoi(const char *s);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

extern uint32_t initial_esp;            /* esp at _start (crt0.S) */

#endif
