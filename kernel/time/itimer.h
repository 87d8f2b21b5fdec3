/* The real-time interval timer of each process: alarm() and setitimer(ITIMER_REAL), which send SIGALRM. */
#ifndef KERNEL_ITIMER_H
#define KERNEL_ITIMER_H

struct task;

/* From the timer interrupt (CPU 0's tick): send SIGALRM to every process whose timer is due. */
void itimer_tick(void);
/* t exits: disarm its timer so the tick never looks at it again. */
void itimer_exit(struct task *t);

#endif
