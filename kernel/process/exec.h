/* execve: replace a process's program with one loaded from an ELF image. */
#ifndef KERNEL_EXEC_H
#define KERNEL_EXEC_H

#include "kernel/types.h"

#define EXEC_ARG_MAX   (64 * 1024)      /* bytes of argument and environment strings */
#define EXEC_MAX_PTRS  1024             /* argv plus envp entries */
#define EXEC_PATH_MAX  256

struct task;

/* Load path into t (current or not yet running) with kernel-space argv/envp. */
int exec_kernel(struct task *t, const char *path, const char *const *argv, const char *const *envp);

#endif
