/* What a process is running, for /proc/PID/cmdline and exe: its program's path and arguments. */
#ifndef KERNEL_EXEC_INFO_H
#define KERNEL_EXEC_INFO_H

#include "kernel/locking/atomic.h"
#include "kernel/types.h"

struct task;

/* Linux 2.6 showed at most one page of a process's arguments in /proc/PID/cmdline. */
#define EXEC_INFO_ARGS_MAX 4096

/*
 * Made by execve, shared by fork (both processes run the same program with
 * the same arguments until one of them execs), freed with the last task.
 * Immutable once made, so readers need only keep it alive.
 */
struct exec_info {
	atomic_t refs;
	size_t args_len;                /* argv strings, each with its NUL, back to back */
	char exe[256];                  /* the path execve was given */
	char args[];
};

/* A new record: path, and the first argc NUL-terminated strings at args. NULL when out of memory. */
struct exec_info *exec_info_new(const char *path, const char *args, int argc);
struct exec_info *exec_info_get(struct exec_info *ei);  /* NULL-safe */
void exec_info_put(struct exec_info *ei);               /* NULL-safe */
/* execve: t runs a new program now; the old record is dropped. Takes over the reference. */
void exec_info_install(struct task *t, struct exec_info *ei);

#endif
