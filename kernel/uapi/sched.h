/* clone() flags (Linux's include/uapi/linux/sched.h): the ones smpix knows about. */
#ifndef KERNEL_UAPI_SCHED_H
#define KERNEL_UAPI_SCHED_H

#define CSIGNAL              0x000000FFul  /* the signal sent to the parent at exit */
#define CLONE_VM             0x00000100ul  /* share memory (a thread, or vfork) */
#define CLONE_FS             0x00000200ul
#define CLONE_FILES          0x00000400ul
#define CLONE_SIGHAND        0x00000800ul
#define CLONE_PTRACE         0x00002000ul
#define CLONE_VFORK          0x00004000ul  /* the parent sleeps until the child execs or exits */
#define CLONE_PARENT         0x00008000ul
#define CLONE_THREAD         0x00010000ul
#define CLONE_SYSVSEM        0x00040000ul  /* share System V semaphore undo lists: accepted, none exist */
#define CLONE_SETTLS         0x00080000ul  /* the child's TLS descriptor (a user_desc on i386) */
#define CLONE_PARENT_SETTID  0x00100000ul  /* write the child's tid to the parent's ptid */
#define CLONE_CHILD_CLEARTID 0x00200000ul  /* remember ctid (set_tid_address) in the child */
#define CLONE_DETACHED       0x00400000ul  /* ignored, as in Linux */
#define CLONE_UNTRACED       0x00800000ul
#define CLONE_CHILD_SETTID   0x01000000ul  /* write the child's tid to ctid in the child */

#endif
