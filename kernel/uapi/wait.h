/* The wait4() status word, encoded as Linux does, and the macros that take it apart. */
#ifndef KERNEL_UAPI_WAIT_H
#define KERNEL_UAPI_WAIT_H

#define WNOHANG     0x00000001
#define WUNTRACED   0x00000002  /* also report stopped children (none exist yet) */
#define WCONTINUED  0x00000008  /* also report continued children (none exist yet) */
#define __WNOTHREAD 0x20000000
#define __WALL      0x40000000
#define __WCLONE    0x80000000

/* Exited with code c: bits 8..15 hold it. Killed by signal s: bits 0..6 hold s. */
#define W_EXITCODE(c, s) ((((c) & 0xFF) << 8) | ((s) & 0x7F))

#define WEXITSTATUS(st) (((st) >> 8) & 0xFF)
#define WTERMSIG(st)    ((st) & 0x7F)
#define WIFEXITED(st)   (WTERMSIG(st) == 0)
#define WIFSIGNALED(st) (((signed char)(((st) & 0x7F) + 1) >> 1) > 0)

#endif
