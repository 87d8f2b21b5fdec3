/* Process groups and sessions: the job-control groups a shell and a tty (drivers/tty/tty.c) work with. */
#ifndef KERNEL_PGRP_H
#define KERNEL_PGRP_H

#include "kernel/types.h"

struct task;

/* Send sig to every process in group pgid: 0 if any got it, else -ESRCH. Takes proc_lock. */
int pgrp_kill(int pgid, int sig);
/* The session of process group pgid (for a tty's TIOCSPGRP), or -ESRCH if it has no live member. Takes proc_lock. */
int pgrp_session(int pgid);
/* Is group pgid orphaned (no member has a parent in another group of its session)? Takes proc_lock. */
bool pgrp_orphaned(int pgid);
/*
 * POSIX's rule for an exit (Linux's kill_orphaned_pgrp()): t's group may
 * have lost its last link to a parent in another group of its session,
 * parent, because parent exited (t is its child, just reparented) or t
 * itself did (parent is t's parent). If the group is orphaned now and has a
 * stopped member, nobody is left to continue it: every member gets SIGHUP,
 * then SIGCONT. Needs proc_lock.
 */
void pgrp_exit_check_orphaned(struct task *t, const struct task *parent);
/* kill(-1, sig): every process but init and the caller. 0, or -ESRCH if there was none. */
int pgrp_kill_all(int sig);
/* fork: the child joins its parent's group and session. */
void pgrp_fork(struct task *child, const struct task *parent);
/* A process started by the kernel (init, proc_spawn) leads its own group and session. */
void pgrp_make_leader(struct task *t);

#endif
