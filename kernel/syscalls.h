/* The system call handlers, one per table entry (kernel/syscall_table.c), by Linux name. */
#ifndef KERNEL_SYSCALLS_H
#define KERNEL_SYSCALLS_H

#include "kernel/types.h"

/* kernel/proc.c */
long sys_exit(int code);
long sys_exit_group(int code);
long sys_fork(void);
long sys_waitpid(int pid, int *ustatus, int options);
long sys_wait4(int pid, int *ustatus, int options, void *urusage);
long sys_getpid(void);
long sys_getppid(void);
long sys_brk(uintptr_t addr);
/* kernel/exec.c */
long sys_execve(const char *upath, char *const *uargv, char *const *uenvp);
/* kernel/signal.c */
long sys_kill(int pid, int sig);
/* kernel/sys_sched.c */
long sys_sched_yield(void);
long sys_nanosleep(const void *ureq, void *urem);
long sys_sched_setaffinity(int pid, unsigned len, const void *umask);
long sys_sched_getaffinity(int pid, unsigned len, void *umask);
/* kernel/conio.c */
long sys_read(int fd, void *ubuf, size_t count);
long sys_write(int fd, const void *ubuf, size_t count);
/* kernel/sys_time.c */
long sys_clock_gettime(int clock, void *uts);
/* kernel/sys_info.c */
long sys_sysinfo(void *uinfo);
/* kernel/sys_reboot.c */
long sys_reboot(int magic1, int magic2, unsigned cmd, void *arg);

#endif
