/* The contents of each /proc file: printers into a procbuf, and the writable files' parsers. */
#ifndef FS_PROC_FILES_H
#define FS_PROC_FILES_H

#include "kernel/types.h"

struct procbuf;

/* fs/proc/proc_kernel.c: system-wide files (arg unused). */
void proc_show_cpuinfo(struct procbuf *pb, void *arg);
void proc_show_meminfo(struct procbuf *pb, void *arg);
void proc_show_uptime(struct procbuf *pb, void *arg);
void proc_show_interrupts(struct procbuf *pb, void *arg);
void proc_show_mounts(struct procbuf *pb, void *arg);
void proc_show_bkl(struct procbuf *pb, void *arg);
void proc_show_bkl_blame(struct procbuf *pb, void *arg);
void proc_show_syscalls(struct procbuf *pb, void *arg);
void proc_show_version(struct procbuf *pb, void *arg);
void proc_show_cmdline(struct procbuf *pb, void *arg);
void proc_show_filesystems(struct procbuf *pb, void *arg);
/* text is what was written, NUL-terminated, one trailing newline removed: 0 or -EINVAL. */
int proc_write_bkl(const char *text);

/* fs/proc/proc_stat.c: where the time went (arg unused). */
void proc_show_stat(struct procbuf *pb, void *arg);
void proc_show_loadavg(struct procbuf *pb, void *arg);
void proc_show_vmstat(struct procbuf *pb, void *arg);

/* fs/proc/proc_pid.c: per-process files; arg is the pid (as an int cast to a pointer). */
void proc_show_pid_stat(struct procbuf *pb, void *arg);
void proc_show_pid_status(struct procbuf *pb, void *arg);
/* The same for one thread (/proc/PID/task/TID): its own CPU time, not its group's. */
void proc_show_tid_stat(struct procbuf *pb, void *arg);
void proc_show_tid_status(struct procbuf *pb, void *arg);
void proc_show_pid_cmdline(struct procbuf *pb, void *arg);
void proc_show_pid_sched(struct procbuf *pb, void *arg);
/* Does pid name a task /proc shows? */
bool proc_pid_exists(int pid);
/* The smallest pid >= from that /proc shows, or -1: for listing /proc. */
int proc_pid_next(int from);
/* The smallest id >= from of a thread of process tgid, or -1: for listing /proc/PID/task. */
int proc_tid_next(int tgid, int from);
/* The process (thread group id) thread tid belongs to, or -1 if /proc does not show it. */
int proc_tid_tgid(int tid);
/* The path of pid's program into buf (no NUL): its length, or -ENOENT. */
int proc_pid_exe(int pid, char *buf, size_t size);

/* fs/proc/proc_trace.c: the event trace, and its switch in /proc/sys/kernel. */
void proc_show_trace(struct procbuf *pb, void *arg);
size_t proc_trace_size(void);
int proc_write_trace(const char *text);
void proc_show_trace_on(struct procbuf *pb, void *arg);
int proc_write_trace_on(const char *text);

/* fs/proc/proc_lock_stat.c: every lock class's statistics, and their switch in /proc/sys/kernel. */
void proc_show_lock_stat(struct procbuf *pb, void *arg);
int proc_write_lock_stat(const char *text);
void proc_show_lock_stat_on(struct procbuf *pb, void *arg);
int proc_write_lock_stat_on(const char *text);

/* fs/proc/proc_lockdep.c: the lock-order checker's tables and classes. */
void proc_show_lockdep(struct procbuf *pb, void *arg);

/* fs/proc/proc_sys.c: the /proc/sys/kernel knobs (run without the BKL). */
void proc_show_spin_report_ms(struct procbuf *pb, void *arg);
int proc_write_spin_report_ms(const char *text);
void proc_show_bkl_timing(struct procbuf *pb, void *arg);
int proc_write_bkl_timing(const char *text);
void proc_show_ioctl_mode(struct procbuf *pb, void *arg);
int proc_write_ioctl_mode(const char *text);
void proc_show_era(struct procbuf *pb, void *arg);

#endif
