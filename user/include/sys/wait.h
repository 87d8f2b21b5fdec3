/* <sys/wait.h>: wait, waitpid and the status macros (kernel/uapi/wait.h). */
#ifndef USER_SYS_WAIT_H
#define USER_SYS_WAIT_H

#include <sys/types.h>

#include "kernel/uapi/wait.h"

pid_t wait(int *status);
pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait4(pid_t pid, int *status, int options, void *rusage);

#endif
