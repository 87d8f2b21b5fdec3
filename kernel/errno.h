/*
 * Error codes that live only inside the kernel (Linux's include/linux/errno.h):
 * a system call returns one to ask for a restart after a signal, and the
 * signal code (kernel/signal/deliver.c) turns it into a restart or -EINTR before
 * user mode can see it.
 */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#define ERESTARTSYS     512     /* restart if the handler has SA_RESTART, else -EINTR */
#define ERESTARTNOINTR  513     /* always restart */
#define ERESTARTNOHAND  514     /* restart only if no handler ran, else -EINTR (pause, sigsuspend) */
#define ERESTART_RESTARTBLOCK 516 /* no handler: go on through restart_syscall (a sleep's remaining time) */

#endif
