/* What a new process inherits beyond its memory, and the fork-like calls: vfork and clone. */
#ifndef KERNEL_FORK_H
#define KERNEL_FORK_H

#include "kernel/types.h"

struct task;

/* Give child the parent's signal actions (a copy, or shared) and mask, process group, session and TLS. */
void fork_inherit(struct task *child, struct task *parent, bool share_sighand);
/* execve succeeded in t: handlers reset, TLS cleared, and a parent in vfork() may go on. */
void fork_exec_done(struct task *t);
/* t exits or execs: wake its parent if it waits in vfork(). Needs proc_lock. */
void fork_release_vfork_parent(struct task *t);

#endif
