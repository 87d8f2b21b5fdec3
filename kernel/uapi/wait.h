/* The wait4() status word, encoded as Linux does, and the macros that take it apart. */
#ifndef KERNEL_UAPI_WAIT_H
#define KERNEL_UAPI_WAIT_H

#define WNOHANG 1

/* Exited with code c: bits 8..15 hold it. Killed by signal s: bits 0..6 hold s. */
#define W_EXITCODE(c, s) ((((c) & 0xFF) << 8) | ((s) & 0x7F))

#define WEXITSTATUS(st) (((st) >> 8) & 0xFF)
#define WTERMSIG(st)    ((st) & 0x7F)
#define WIFEXITED(st)   (WTERMSIG(st) == 0)
#define WIFSIGNALED(st) (((signed char)(((st) & 0x7F) + 1) >> 1) > 0)

#endif
