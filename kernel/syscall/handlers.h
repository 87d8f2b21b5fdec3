/* The system call handlers, one per table entry (kernel/syscall/table.c), by Linux name. */
#ifndef KERNEL_SYSCALLS_H
#define KERNEL_SYSCALLS_H

#include "kernel/types.h"

/* kernel/process/proc.c */
long sys_exit(int code);
long sys_exit_group(int code);
long sys_fork(void);
long sys_waitpid(int pid, int *ustatus, int options);
long sys_wait4(int pid, int *ustatus, int options, void *urusage);
long sys_waitid(int idtype, int id, void *uinfo, int options, void *urusage);
long sys_getpid(void);
long sys_getppid(void);
long sys_brk(uintptr_t addr);
/* kernel/mm/mmap.c */
long sys_mmap(const void *uargs);
long sys_mmap2(uintptr_t addr, size_t len, int prot, int flags, int fd, unsigned long pgoff);
long sys_munmap(uintptr_t addr, size_t len);
long sys_mprotect(uintptr_t addr, size_t len, int prot);
long sys_mremap(uintptr_t old, size_t old_len, size_t new_len, int flags, uintptr_t new_addr);
long sys_madvise(uintptr_t start, size_t len, int advice);
/* kernel/process/exec.c */
long sys_execve(const char *upath, char *const *uargv, char *const *uenvp);
/* kernel/signal/syscalls.c */
long sys_kill(int pid, int sig);
long sys_tkill(int tid, int sig);
long sys_tgkill(int tgid, int tid, int sig);
long sys_rt_sigaction(int sig, const void *uact, void *uoact, size_t sigsetsize);
long sys_sigaction(int sig, const void *uact, void *uoact);
long sys_rt_sigprocmask(int how, const void *uset, void *uoset, size_t sigsetsize);
long sys_sigprocmask(int how, const void *uset, void *uoset);
long sys_rt_sigpending(void *uset, size_t sigsetsize);
long sys_sigpending(void *uset);
long sys_rt_sigsuspend(const void *umask, size_t sigsetsize);
long sys_sigsuspend(int unused1, int unused2, uint32_t mask);
long sys_pause(void);
long sys_sigaltstack(const void *uss, void *uoss);
/* kernel/x86/sigframe.c */
long sys_sigreturn(void);
long sys_rt_sigreturn(void);
/* kernel/process/pgrp.c */
long sys_setpgid(int pid, int pgid);
long sys_getpgid(int pid);
long sys_getpgrp(void);
long sys_setsid(void);
long sys_getsid(int pid);
/* kernel/time/itimer.c */
long sys_alarm(unsigned seconds);
long sys_setitimer(int which, const void *unew, void *uold);
long sys_getitimer(int which, void *uval);
/* kernel/process/fork.c */
long sys_vfork(void);
long sys_clone(unsigned long flags, uint32_t newsp, uint32_t ptid, uint32_t utls, uint32_t ctid);
/* kernel/x86/tls.c */
long sys_set_thread_area(void *uinfo);
long sys_get_thread_area(void *uinfo);
/* kernel/sys_info.c */
long sys_uname(void *ubuf);
long sys_sysinfo(void *ubuf);
long sys_getuid(void);
long sys_geteuid(void);
long sys_getgid(void);
long sys_getegid(void);
long sys_gettid(void);
long sys_set_tid_address(uint32_t tidptr);
long sys_prctl(int option, uint32_t arg2);
/* kernel/futex/sys_futex.c, kernel/futex/robust.c */
long sys_futex(uint32_t uaddr, int op, uint32_t val, uint32_t utime, uint32_t uaddr2, uint32_t val3);
long sys_futex_time64(uint32_t uaddr, int op, uint32_t val, uint32_t utime, uint32_t uaddr2, uint32_t val3);
long sys_set_robust_list(uint32_t head, size_t len);
long sys_get_robust_list(int pid, uint32_t *uhead, uint32_t *ulen);
/* kernel/process/rlimit.c */
long sys_ugetrlimit(unsigned r, void *ulim);
long sys_getrlimit(unsigned r, void *ulim);
long sys_setrlimit(unsigned r, const void *ulim);
long sys_prlimit64(int pid, unsigned r, const void *unew, void *uold);
/* kernel/random.c */
long sys_getrandom(void *ubuf, size_t count, unsigned flags);
/* kernel/sched/sys_sched.c */
long sys_sched_yield(void);
long sys_nanosleep(const void *ureq, void *urem);
long sys_sched_setaffinity(int pid, unsigned len, const void *umask);
long sys_sched_getaffinity(int pid, unsigned len, void *umask);
long sys_getcpu(unsigned *ucpu, unsigned *unode, void *unused_cache);
/* kernel/process/groups.c */
long sys_getgroups(int size, void *ulist);
long sys_setgroups(int size, const void *ulist);
long sys_getgroups32(int size, void *ulist);
long sys_setgroups32(int size, const void *ulist);
/* fs/read_write.c */
long sys_read(int fd, void *ubuf, size_t count);
long sys_write(int fd, const void *ubuf, size_t count);
long sys_readv(int fd, const void *uiov, int iovcnt);
long sys_writev(int fd, const void *uiov, int iovcnt);
long sys_pread64(int fd, void *ubuf, size_t count, uint32_t pos_lo, uint32_t pos_hi);
long sys_pwrite64(int fd, const void *ubuf, size_t count, uint32_t pos_lo, uint32_t pos_hi);
long sys_lseek(int fd, long offset, int whence);
long sys__llseek(int fd, uint32_t offset_high, uint32_t offset_low, void *uresult, int whence);
long sys_sendfile(int out_fd, int in_fd, void *uoffset, size_t count);
long sys_sendfile64(int out_fd, int in_fd, void *uoffset, size_t count);
/* fs/open.c */
long sys_open(const char *upath, int flags, uint32_t mode);
long sys_openat(int dirfd, const char *upath, int flags, uint32_t mode);
long sys_creat(const char *upath, uint32_t mode);
long sys_access(const char *upath, int mode);
long sys_faccessat(int dirfd, const char *upath, int mode);
long sys_truncate(const char *upath, long length);
long sys_ftruncate(int fd, long length);
long sys_truncate64(const char *upath, uint32_t lo, uint32_t hi);
long sys_ftruncate64(int fd, uint32_t lo, uint32_t hi);
long sys_chmod(const char *upath, uint32_t mode);
long sys_fchmod(int fd, uint32_t mode);
long sys_chdir(const char *upath);
long sys_fchdir(int fd);
long sys_getcwd(char *ubuf, size_t size);
long sys_umask(uint32_t mask);
/* fs/fdtable.c */
long sys_close(int fd);
long sys_dup(int oldfd);
long sys_dup2(int oldfd, int newfd);
long sys_dup3(int oldfd, int newfd, int flags);
long sys_fcntl64(int fd, int cmd, unsigned long arg);
long sys_flock(int fd, unsigned cmd);
/* fs/dir_ops.c */
long sys_mkdir(const char *upath, uint32_t mode);
long sys_mkdirat(int dirfd, const char *upath, uint32_t mode);
long sys_mknod(const char *upath, uint32_t mode, uint32_t dev);
long sys_mknodat(int dirfd, const char *upath, uint32_t mode, uint32_t dev);
long sys_rmdir(const char *upath);
long sys_unlink(const char *upath);
long sys_unlinkat(int dirfd, const char *upath, int flags);
long sys_link(const char *uold, const char *unew);
long sys_linkat(int olddirfd, const char *uold, int newdirfd, const char *unew, int flags);
long sys_rename(const char *uold, const char *unew);
long sys_renameat(int olddirfd, const char *uold, int newdirfd, const char *unew);
long sys_symlink(const char *utarget, const char *upath);
long sys_symlinkat(const char *utarget, int dirfd, const char *upath);
long sys_readlink(const char *upath, char *ubuf, int size);
long sys_readlinkat(int dirfd, const char *upath, char *ubuf, int size);
/* fs/stat.c */
long sys_stat64(const char *upath, void *ubuf);
long sys_lstat64(const char *upath, void *ubuf);
long sys_fstat64(int fd, void *ubuf);
long sys_fstatat64(int dirfd, const char *upath, void *ubuf, int flags);
/* fs/sys_mount.c */
long sys_mount(const char *usource, const char *utarget, const char *utype, unsigned long flags,
	       const void *udata);
long sys_umount(const char *utarget);
long sys_umount2(const char *utarget, int flags);
/* fs/statfs.c */
long sys_statfs64(const char *upath, size_t size, void *ubuf);
long sys_fstatfs64(int fd, size_t size, void *ubuf);
/* fs/utimes.c */
long sys_utimensat(int dirfd, const char *upath, const void *utimes, int flags);
long sys_futimesat(int dirfd, const char *upath, const void *utimes);
long sys_utimes(const char *upath, const void *utimes);
long sys_utime(const char *upath, const void *utimbuf);
/* fs/chown.c: the 16-bit calls take the ids' low halves */
long sys_chown(const char *upath, uint32_t uid, uint32_t gid);
long sys_lchown(const char *upath, uint32_t uid, uint32_t gid);
long sys_fchown(int fd, uint32_t uid, uint32_t gid);
long sys_chown32(const char *upath, uint32_t uid, uint32_t gid);
long sys_lchown32(const char *upath, uint32_t uid, uint32_t gid);
long sys_fchown32(int fd, uint32_t uid, uint32_t gid);
long sys_fchownat(int dirfd, const char *upath, uint32_t uid, uint32_t gid, int flags);
/* fs/readdir.c */
long sys_getdents64(int fd, void *ubuf, unsigned count);
/* fs/ioctl/ioctl.c */
long sys_ioctl(int fd, unsigned cmd, unsigned long arg);
/* fs/sync.c */
long sys_sync(void);
long sys_fsync(int fd);
long sys_fdatasync(int fd);
long sys_syncfs(int fd);
/* fs/poll.c */
long sys_poll(void *ufds, unsigned nfds, int timeout_ms);
/* fs/pipe/pipe.c */
long sys_pipe(int *ufds);
long sys_pipe2(int *ufds, int flags);
/* kernel/time/sys_time.c */
long sys_clock_gettime(int clock, void *uts);
long sys_clock_getres(int clock, void *uts);
long sys_clock_nanosleep(int clock, int flags, const void *ureq, void *urem);
long sys_restart_syscall(void);
long sys_gettimeofday(void *utv, void *utz);
long sys_time(void *utloc);
/* kernel/time/rusage.c */
long sys_times(void *ubuf);
long sys_getrusage(int who, void *uru);
/* kernel/sys_syslog.c */
long sys_syslog(int type, char *ubuf, int len);
/* kernel/sys_reboot.c */
long sys_reboot(int magic1, int magic2, unsigned cmd, void *arg);

#endif
