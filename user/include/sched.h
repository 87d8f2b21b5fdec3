/* <sched.h>: CPU affinity as a plain bit mask (bit n: CPU n), and sched_yield. */
#ifndef USER_SCHED_H
#define USER_SCHED_H

#include <stddef.h>
#include <sys/types.h>

int sched_yield(void);
int sched_getaffinity(pid_t pid, size_t size, void *mask);
int sched_setaffinity(pid_t pid, size_t size, const void *mask);

#endif
