/* The system call table and dispatcher: int $0x80, number in eax, arguments in ebx..ebp. */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include "kernel/locking/bkl.h"
#include "kernel/types.h"

#define NR_SYSCALLS 512         /* numbers at or above this are -ENOSYS without a lookup */
#ifdef CONFIG_BKL
#define SYS_BKL     0x1         /* the dispatcher holds the Big Kernel Lock around the call */
#define SYS_BKL_2_2 0x4         /* and in era=2.2 (kernel/era.c): 2.2's fs/read_write.c took it here */
#else
#define SYS_BKL     0           /* make ERA=2.6.39: no BKL, so no call is flagged (kernel/sys_reboot.c) */
#define SYS_BKL_2_2 0
#endif
#define SYS_FALLBACK 0x2        /* -ENOSYS on purpose, not logged: libc falls back to an older call */

/* A handler of any argument list: the dispatcher calls it with six words, cdecl ignores extras. */
typedef void (*syscall_fn_t)(void);

struct syscall_desc {
	uint16_t nr;            /* Linux i386 number (syscall_32.tbl) */
	uint8_t nargs;
	uint8_t flags;          /* SYS_BKL, SYS_BKL_2_2, SYS_FALLBACK */
	const char *name;
	syscall_fn_t fn;        /* NULL: known but not implemented here (-ENOSYS) */
};

extern const struct syscall_desc syscall_table[];
extern const unsigned syscall_table_len;

/* Index the table and read bkl=. Boot CPU, once, before the first process. */
void syscall_init(void);
/* The int $0x80 handler: trap_dispatch() (kernel/x86/trap.c) calls it by name for T_SYSCALL. */
struct trapframe;
void syscall_dispatch(struct trapframe *tf);
/* Calls so far of syscall nr (0 for an unknown number); /proc/syscalls shows them. */
unsigned syscall_count(unsigned nr);
/* Calls of numbers the table does not know. */
unsigned syscall_unknown_count(void);
/* Calls entered by sysenter (the vsyscall page, kernel/x86/sysenter.c), on every CPU together. */
unsigned syscall_sysenter_count(void);
/* True when bkl=syscalls asked for every call under the BKL. */
bool syscall_all_under_bkl(void);
/* Does the dispatcher take the BKL around d in this boot's era (SYS_BKL, SYS_BKL_2_2 in era=2.2)? */
bool syscall_takes_bkl(const struct syscall_desc *d);

#endif
