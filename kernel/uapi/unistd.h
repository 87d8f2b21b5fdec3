/* System call numbers: Linux's arch/x86/entry/syscalls/syscall_32.tbl, the ones smpix knows. */
#ifndef KERNEL_UAPI_UNISTD_H
#define KERNEL_UAPI_UNISTD_H

#define __NR_exit               1
#define __NR_fork               2
#define __NR_read               3
#define __NR_write              4
#define __NR_waitpid            7
#define __NR_execve             11
#define __NR_getpid             20
#define __NR_kill               37
#define __NR_brk                45
#define __NR_ioctl              54
#define __NR_getppid            64
#define __NR_reboot             88
#define __NR_wait4              114
#define __NR_sysinfo            116
#define __NR_sched_yield        158
#define __NR_nanosleep          162
#define __NR_sched_setaffinity  241
#define __NR_sched_getaffinity  242
#define __NR_exit_group         252
#define __NR_clock_gettime      265

#define CLOCK_REALTIME  0
#define CLOCK_MONOTONIC 1

#endif
