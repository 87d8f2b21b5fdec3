/*
 * The system call table: one line per call, by Linux i386 number.
 *
 * Which calls take the Big Kernel Lock (SYS_BKL)? Linux 2.0 took it around
 * every system call (boot with bkl=syscalls to do the same). Linux 2.6 took it
 * in only a few places, where code still relied on "nobody else is in the
 * kernel": reboot() is one that "The Big Kernel Lock lives on" (2004) names,
 * so it keeps the flag here. Everything else protects its own data with its
 * own locks (proc_lock, an mm's mmap_sem, the run queues), so it runs without the
 * BKL. ioctl() has no flag here: fs/ioctl/vfs_ioctl.c's needs_bkl() decides
 * per driver, per call.
 *
 * To add a call: write long sys_NAME(args) in the file of its subsystem,
 * declare it in kernel/syscall/handlers.h, add its number to kernel/uapi/unistd.h and
 * a line here. The table need not be sorted; syscall_init() indexes it.
 *
 * The file calls (fs/) take no BKL either: the VFS has its own locks
 * (fs/inode.h, fs/file.h, fs/fdtable.h), named where they are declared.
 * SYS_BKL_2_2 marks what 2.2's fs/read_write.c still did under the BKL
 * (read, write, lseek and their vector and positional kin): the dispatcher
 * takes it there only when booted era=2.2 (kernel/era.c).
 */
#include "kernel/syscall/dispatch.h"

#include "kernel/syscall/handlers.h"
#include "kernel/uapi/unistd.h"

#define SYSCALL(name_, nargs_, flags_) \
	{ __NR_##name_, (nargs_), (flags_), #name_, (syscall_fn_t)sys_##name_ }
/* A call whose handler has another name (getuid32 is getuid: one user, whatever the width). */
#define SYSCALL_AS(name_, fn_, nargs_, flags_) \
	{ __NR_##name_, (nargs_), (flags_), #name_, (syscall_fn_t)sys_##fn_ }
#define SYSCALL_NI(name_, nargs_, flags_) \
	{ __NR_##name_, (nargs_), (flags_), #name_, NULL }

const struct syscall_desc syscall_table[] = {
	SYSCALL(restart_syscall,   0, 0),
	SYSCALL(exit,              1, 0),
	SYSCALL(fork,              0, 0),
	SYSCALL(read,              3, SYS_BKL_2_2),
	SYSCALL(write,             3, SYS_BKL_2_2),
	SYSCALL(waitpid,           3, 0),
	SYSCALL(execve,            3, 0),
	SYSCALL(getpid,            0, 0),
	SYSCALL(kill,              2, 0),
	SYSCALL(brk,               1, 0),
	SYSCALL(mmap,              1, 0),       /* kernel/mm/mmap.c */
	SYSCALL(mmap2,             6, 0),
	SYSCALL(munmap,            2, 0),
	SYSCALL(mprotect,          3, 0),
	SYSCALL(mremap,            5, 0),
	SYSCALL(madvise,           3, 0),
	SYSCALL(ioctl,             3, 0),       /* fs/ioctl/ioctl.c; the BKL: fs/ioctl/vfs_ioctl.c */
	SYSCALL(getppid,           0, 0),
	SYSCALL(reboot,            4, SYS_BKL),
	SYSCALL(syslog,            3, 0),
	SYSCALL(wait4,             4, 0),
	SYSCALL(waitid,            5, 0),
	SYSCALL(sched_yield,       0, 0),
	SYSCALL(nanosleep,         2, 0),
	SYSCALL(sched_setaffinity, 3, 0),
	SYSCALL(sched_getaffinity, 3, 0),
	SYSCALL(exit_group,        1, 0),
	SYSCALL(clock_gettime,     2, 0),
	/* Signals, process groups, time, glibc's start-up (kernel/signal/deliver.c and friends). */
	SYSCALL(time,               1, 0),
	SYSCALL(pause,              0, 0),
	SYSCALL(getuid,             0, 0),
	SYSCALL(getgid,             0, 0),
	SYSCALL(geteuid,            0, 0),
	SYSCALL(getegid,            0, 0),
	SYSCALL(alarm,              1, 0),
	SYSCALL(times,              1, 0),       /* kernel/time/rusage.c */
	SYSCALL(getrusage,          2, 0),
	SYSCALL(setpgid,            2, 0),
	SYSCALL(getpgrp,            0, 0),
	SYSCALL(setsid,             0, 0),
	SYSCALL(sigaction,          3, 0),
	SYSCALL(sigsuspend,         3, 0),
	SYSCALL(sigpending,         1, 0),
	SYSCALL(setrlimit,          2, 0),
	SYSCALL(getrlimit,          2, 0),
	SYSCALL(gettimeofday,       2, 0),
	SYSCALL(setitimer,          3, 0),
	SYSCALL(getitimer,          2, 0),
	SYSCALL(sysinfo,            1, 0),
	SYSCALL(sigreturn,          0, 0),
	SYSCALL(clone,              5, 0),
	SYSCALL(uname,              1, 0),
	SYSCALL(sigprocmask,        3, 0),
	SYSCALL(getpgid,            1, 0),
	SYSCALL(getsid,             1, 0),
	SYSCALL(prctl,              5, 0),
	SYSCALL(rt_sigreturn,       0, 0),
	SYSCALL(rt_sigaction,       4, 0),
	SYSCALL(rt_sigprocmask,     4, 0),
	SYSCALL(rt_sigpending,      2, 0),
	SYSCALL(rt_sigsuspend,      2, 0),
	SYSCALL(sigaltstack,        2, 0),
	SYSCALL(vfork,              0, 0),
	SYSCALL(ugetrlimit,         2, 0),
	SYSCALL_AS(getuid32, getuid, 0, 0),
	SYSCALL_AS(getgid32, getgid, 0, 0),
	SYSCALL_AS(geteuid32, geteuid, 0, 0),
	SYSCALL_AS(getegid32, getegid, 0, 0),
	SYSCALL(gettid,             0, 0),
	SYSCALL(tkill,              2, 0),
	SYSCALL(set_thread_area,    1, 0),
	SYSCALL(get_thread_area,    1, 0),
	SYSCALL(set_tid_address,    1, 0),
	SYSCALL(tgkill,             3, 0),
	SYSCALL(clock_getres,       2, 0),
	SYSCALL(clock_nanosleep,    4, 0),
	/* Futexes (kernel/futex/): no BKL, a lock per hash bucket; a waiter sleeps in the call. */
	SYSCALL(futex,              6, 0),
	SYSCALL(futex_time64,       6, 0),
	SYSCALL(set_robust_list,    2, 0),
	SYSCALL(get_robust_list,    3, 0),
	SYSCALL(prlimit64,          4, 0),
	SYSCALL(getrandom,          3, 0),
	SYSCALL(getcpu,             3, 0),       /* kernel/sched/sys_sched.c */
	SYSCALL(getgroups,          2, 0),       /* kernel/process/groups.c */
	SYSCALL(setgroups,          2, 0),
	SYSCALL(getgroups32,        2, 0),
	SYSCALL(setgroups32,        2, 0),
	/* Newer calls glibc tries first and falls back from: -ENOSYS, not logged. */
	SYSCALL_NI(statx,              0, SYS_FALLBACK),
	SYSCALL_NI(clone3,             0, SYS_FALLBACK),
	SYSCALL_NI(rseq,               0, SYS_FALLBACK),
	SYSCALL_NI(clock_gettime64,    0, SYS_FALLBACK),
	SYSCALL_NI(clock_settime64,    0, SYS_FALLBACK),
	SYSCALL_NI(clock_adjtime64,    0, SYS_FALLBACK),
	SYSCALL_NI(clock_getres_time64, 0, SYS_FALLBACK),
	SYSCALL_NI(clock_nanosleep_time64, 0, SYS_FALLBACK),
	SYSCALL_NI(timer_gettime64,    0, SYS_FALLBACK),
	SYSCALL_NI(timer_settime64,    0, SYS_FALLBACK),
	SYSCALL_NI(timerfd_gettime64,  0, SYS_FALLBACK),
	SYSCALL_NI(timerfd_settime64,  0, SYS_FALLBACK),
	SYSCALL_NI(utimensat_time64,   0, SYS_FALLBACK),
	SYSCALL_NI(pselect6_time64,    0, SYS_FALLBACK),
	SYSCALL_NI(ppoll_time64,       0, SYS_FALLBACK),
	SYSCALL_NI(io_pgetevents_time64, 0, SYS_FALLBACK),
	SYSCALL_NI(recvmmsg_time64,    0, SYS_FALLBACK),
	SYSCALL_NI(mq_timedsend_time64, 0, SYS_FALLBACK),
	SYSCALL_NI(mq_timedreceive_time64, 0, SYS_FALLBACK),
	SYSCALL_NI(semtimedop_time64,  0, SYS_FALLBACK),
	SYSCALL_NI(rt_sigtimedwait_time64, 0, SYS_FALLBACK),
	SYSCALL_NI(sched_rr_get_interval_time64, 0, SYS_FALLBACK),
	/* The VFS (fs/): files, directories, descriptors. */
	SYSCALL(open,              3, 0),
	SYSCALL(openat,            4, 0),
	SYSCALL(creat,             2, 0),
	SYSCALL(close,             1, 0),
	SYSCALL(readv,             3, SYS_BKL_2_2),
	SYSCALL(writev,            3, SYS_BKL_2_2),
	/* LAB4: BEGIN table-lines */
	SYSCALL(pread64,           5, SYS_BKL_2_2),
	SYSCALL(pwrite64,          5, SYS_BKL_2_2),
	/* LAB4: END */
	SYSCALL(lseek,             3, SYS_BKL_2_2),
	SYSCALL(_llseek,           5, SYS_BKL_2_2),
	SYSCALL(sendfile,          4, 0),       /* fs/read_write.c */
	SYSCALL(sendfile64,        4, 0),
	SYSCALL(stat64,            2, 0),
	SYSCALL(lstat64,           2, 0),
	SYSCALL(fstat64,           2, 0),
	SYSCALL(fstatat64,         4, 0),
	SYSCALL(getdents64,        3, 0),
	SYSCALL(mkdir,             2, 0),
	SYSCALL(mkdirat,           3, 0),
	SYSCALL(rmdir,             1, 0),
	SYSCALL(unlink,            1, 0),
	SYSCALL(unlinkat,          3, 0),
	SYSCALL(link,              2, 0),
	SYSCALL(linkat,            5, 0),
	SYSCALL(rename,            2, 0),
	SYSCALL(renameat,          4, 0),
	SYSCALL(symlink,           2, 0),
	SYSCALL(symlinkat,         3, 0),
	SYSCALL(readlink,          3, 0),
	SYSCALL(readlinkat,        4, 0),
	SYSCALL(chdir,             1, 0),
	SYSCALL(fchdir,            1, 0),
	SYSCALL(getcwd,            2, 0),
	SYSCALL(dup,               1, 0),
	SYSCALL(dup2,              2, 0),
	SYSCALL(dup3,              3, 0),
	SYSCALL(fcntl64,           3, 0),
	/* The old fcntl: the same commands (smpix has no record locks, whose struct differs). */
	SYSCALL_AS(fcntl, fcntl64, 3, 0),
	SYSCALL(flock,             2, 0),       /* fs/flock.c takes the BKL itself, as 2.6.6 did */
	SYSCALL(access,            2, 0),
	SYSCALL(faccessat,         3, 0),
	SYSCALL(truncate,          2, 0),
	SYSCALL(ftruncate,         2, 0),
	SYSCALL(truncate64,        3, 0),
	SYSCALL(ftruncate64,       3, 0),
	SYSCALL(umask,             1, 0),
	SYSCALL(mknod,             3, 0),
	SYSCALL(mknodat,           4, 0),
	SYSCALL(chmod,             2, 0),
	SYSCALL(fchmod,            2, 0),
	SYSCALL(sync,              0, 0),
	SYSCALL(fsync,             1, 0),
	SYSCALL(fdatasync,         1, 0),
	SYSCALL(syncfs,            1, 0),       /* fs/sync.c: the buffer cache (fs/buffer.c) */
	SYSCALL(pipe,              1, 0),
	SYSCALL(pipe2,             2, 0),
	SYSCALL(poll,              3, 0),       /* fs/poll.c */
	SYSCALL(mount,             5, 0),       /* fs/sys_mount.c */
	SYSCALL(umount,            1, 0),
	SYSCALL(umount2,           2, 0),
	SYSCALL(statfs64,          3, 0),       /* fs/statfs.c */
	SYSCALL(fstatfs64,         3, 0),
	SYSCALL(utimensat,         4, 0),       /* fs/utimes.c */
	SYSCALL(futimesat,         3, 0),
	SYSCALL(utimes,            2, 0),
	SYSCALL(utime,             2, 0),
	SYSCALL(chown,             3, 0),       /* fs/chown.c */
	SYSCALL(lchown,            3, 0),
	SYSCALL(fchown,            3, 0),
	SYSCALL(chown32,           3, 0),
	SYSCALL(lchown32,          3, 0),
	SYSCALL(fchown32,          3, 0),
	SYSCALL(fchownat,          5, 0),
};

const unsigned syscall_table_len = sizeof(syscall_table) / sizeof(syscall_table[0]);
