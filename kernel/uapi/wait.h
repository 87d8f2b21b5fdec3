/* The wait4() status word, encoded as Linux does, and the macros that take it apart. */
#ifndef KERNEL_UAPI_WAIT_H
#define KERNEL_UAPI_WAIT_H

#define WNOHANG     0x00000001
#define WUNTRACED   0x00000002  /* also report stopped children, once per stop */
#define WSTOPPED    WUNTRACED   /* waitid's name for it */
#define WEXITED     0x00000004  /* waitid: report children that exited (wait4 always does) */
#define WCONTINUED  0x00000008  /* also report continued children, once per SIGCONT */
#define WNOWAIT     0x01000000  /* waitid: report, but leave the child waitable */
#define __WNOTHREAD 0x20000000
#define __WALL      0x40000000
#define __WCLONE    0x80000000

/* waitid()'s idtype: which children id names. */
#define P_ALL   0               /* any child (id ignored) */
#define P_PID   1               /* the child whose pid is id */
#define P_PGID  2               /* any child in process group id (0: the caller's) */
#define P_PIDFD 3               /* the child a pidfd refers to: no pidfds on smpix, -EINVAL */

/* Exited with code c: bits 8..15 hold it. Killed by signal s: bits 0..6 hold s. */
#define W_EXITCODE(c, s) ((((c) & 0xFF) << 8) | ((s) & 0x7F))

#define WEXITSTATUS(st) (((st) >> 8) & 0xFF)
#define WTERMSIG(st)    ((st) & 0x7F)
#define WIFEXITED(st)   (WTERMSIG(st) == 0)
#define WIFSIGNALED(st) (((signed char)(((st) & 0x7F) + 1) >> 1) > 0)
/* Stopped by signal s (WUNTRACED): (s << 8) | 0x7f. Continued (WCONTINUED): 0xffff. */
#define W_STOPCODE(s)   ((s) << 8 | 0x7F)
#define WIFSTOPPED(st)  (((st) & 0xFF) == 0x7F)
#define WSTOPSIG(st)    WEXITSTATUS(st)
#define WIFCONTINUED(st) ((st) == 0xFFFF)

#endif
