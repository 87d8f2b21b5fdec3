/* System call wrappers: one line each over syscall6(), results as the kernel returns them. */
#include "ulib.h"

void exit(int code)
{
	syscall(__NR_exit_group, code);
	for (;;)
		;
}

int fork(void) { return syscall(__NR_fork, 0); }
long write(int fd, const void *buf, size_t n) { return syscall(__NR_write, fd, buf, n); }
long read(int fd, void *buf, size_t n) { return syscall(__NR_read, fd, buf, n); }
int waitpid(int pid, int *status, int options) { return syscall(__NR_waitpid, pid, status, options); }
int wait4(int pid, int *status, int options, void *rusage)
{
	return syscall(__NR_wait4, pid, status, options, rusage);
}
int execve(const char *path, char *const argv[], char *const envp[])
{
	return syscall(__NR_execve, path, argv, envp);
}
int getpid(void) { return syscall(__NR_getpid, 0); }
int getppid(void) { return syscall(__NR_getppid, 0); }
int kill(int pid, int sig) { return syscall(__NR_kill, pid, sig); }
void *brk(void *addr) { return (void *)syscall(__NR_brk, addr); }
int sched_yield(void) { return syscall(__NR_sched_yield, 0); }
int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return syscall(__NR_nanosleep, req, rem);
}
int sched_setaffinity(int pid, unsigned len, const void *mask)
{
	return syscall(__NR_sched_setaffinity, pid, len, mask);
}
int sched_getaffinity(int pid, unsigned len, void *mask)
{
	return syscall(__NR_sched_getaffinity, pid, len, mask);
}
int clock_gettime(int clock, struct timespec *ts)
{
	return syscall(__NR_clock_gettime, clock, ts);
}

int sysinfo(struct sysinfo *info) { return syscall(__NR_sysinfo, info); }

void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, 0);
}
