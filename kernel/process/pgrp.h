/* Process groups and sessions: the job-control groups a shell and a tty (drivers/tty/tty.c) work with. */
#ifndef KERNEL_PGRP_H
#define KERNEL_PGRP_H

struct task;

/* Send sig to every process in group pgid: 0 if any got it, else -ESRCH. Takes proc_lock. */
int pgrp_kill(int pgid, int sig);
/* The session of process group pgid (for a tty's TIOCSPGRP), or -ESRCH if it has no live member. Takes proc_lock. */
int pgrp_session(int pgid);
/* kill(-1, sig): every process but init and the caller. 0, or -ESRCH if there was none. */
int pgrp_kill_all(int sig);
/* fork: the child joins its parent's group and session. */
void pgrp_fork(struct task *child, const struct task *parent);
/* A process started by the kernel (init, proc_spawn) leads its own group and session. */
void pgrp_make_leader(struct task *t);

#endif
