/* Processes: fork, exit, wait, the parent/child tree, and the first process (init). */
#ifndef KERNEL_PROC_H
#define KERNEL_PROC_H

#include "kernel/locking/spinlock.h"
#include "kernel/types.h"

struct task;
struct trapframe;

/*
 * Protects the process tree: every task's parent, children and sibling
 * links, exit_status, the change to TASK_ZOMBIE and the freeing of zombies
 * (so a task found by kill() under this lock cannot be freed meanwhile).
 * Taken before tasks_lock, wait-queue and run-queue locks, never after them.
 */
extern spinlock_t proc_lock;
extern struct task *init_task;          /* the first process: adopts orphans */

/* Install the syscall dispatcher and the user-fault, kernel-fault and return hooks. */
void proc_init(void);
/* Create init, the first process, running path (init=). Returns its pid or -errno. */
int proc_start_init(const char *path);
/* From a kernel thread: start path as a child process of the caller; its pid or -errno. */
int proc_spawn(const char *path, const char *const *argv);
/*
 * Copy the calling process (fork, and vfork and clone in kernel/process/fork.c): the
 * new task, complete but not started (wake_up_new_task()), or NULL when out of memory.
 * Its memory is a copy-on-write copy, or with CLONE_VM the caller's own (vfork, a
 * thread); CLONE_FILES, CLONE_FS and CLONE_SIGHAND share those likewise; with
 * CLONE_THREAD it is nobody's child (thread_join_group() makes it a thread), with
 * CLONE_PARENT its parent is ours.
 */
struct task *proc_fork(unsigned long clone_flags);
/* Undo proc_fork() for a child that never ran. */
void proc_fork_abort(struct task *c);
/* Wait for child pid (-1: any) to exit and reap it; its pid, or -ECHILD. */
int proc_wait(int pid, int *status);
/* End the current process with wait status `status` (W_EXITCODE form). */
void proc_exit(int status) __noreturn;
/*
 * A kernel thread that exits hands its children (proc_spawn) to init, like a
 * process; without init, its zombies are freed and the others on their exit.
 */
void proc_orphan_children(struct task *t);

#endif
