/*
 * The system call table: one line per call, by Linux i386 number.
 *
 * Which calls take the Big Kernel Lock (SYS_BKL)? Linux 2.0 took it around
 * every system call (boot with bkl=syscalls to do the same). Linux 2.6 took it
 * in only a few places, where code still relied on "nobody else is in the
 * kernel": reboot() is one the 2004 survey names, so it keeps the flag here.
 * Everything else protects its own data with its own locks (proc_lock,
 * mm->lock, the run queues), so it runs without the BKL. ioctl() is listed
 * without a handler: the VFS will decide per driver (unlocked_ioctl or not).
 *
 * To add a call: write long sys_NAME(args) in the file of its subsystem,
 * declare it in kernel/syscalls.h, add its number to kernel/uapi/unistd.h and
 * a line here. The table need not be sorted; syscall_init() indexes it.
 */
#include "kernel/syscall.h"

#include "kernel/syscalls.h"
#include "kernel/uapi/unistd.h"

#define SYSCALL(name_, nargs_, flags_) \
	{ __NR_##name_, (nargs_), (flags_), #name_, (syscall_fn_t)sys_##name_ }
#define SYSCALL_NI(name_, nargs_, flags_) \
	{ __NR_##name_, (nargs_), (flags_), #name_, NULL }

const struct syscall_desc syscall_table[] = {
	SYSCALL(exit,              1, 0),
	SYSCALL(fork,              0, 0),
	SYSCALL(read,              3, 0),
	SYSCALL(write,             3, 0),
	SYSCALL(waitpid,           3, 0),
	SYSCALL(execve,            3, 0),
	SYSCALL(getpid,            0, 0),
	SYSCALL(kill,              2, 0),
	SYSCALL(brk,               1, 0),
	SYSCALL_NI(ioctl,          3, 0),       /* the VFS issue: fs/ioctl.c */
	SYSCALL(getppid,           0, 0),
	SYSCALL(reboot,            4, SYS_BKL),
	SYSCALL(wait4,             4, 0),
	SYSCALL(sysinfo,           1, 0),
	SYSCALL(sched_yield,       0, 0),
	SYSCALL(nanosleep,         2, 0),
	SYSCALL(sched_setaffinity, 3, 0),
	SYSCALL(sched_getaffinity, 3, 0),
	SYSCALL(exit_group,        1, 0),
	SYSCALL(clock_gettime,     2, 0),
};

const unsigned syscall_table_len = sizeof(syscall_table) / sizeof(syscall_table[0]);
