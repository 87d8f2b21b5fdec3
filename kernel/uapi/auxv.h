/* Auxiliary vector keys (Linux's include/uapi/linux/auxvec.h) that execve puts on the stack. */
#ifndef KERNEL_UAPI_AUXV_H
#define KERNEL_UAPI_AUXV_H

#define AT_NULL   0     /* end of the vector */
#define AT_IGNORE 1     /* an entry to skip */
#define AT_PHDR   3     /* address of the program headers in memory */
#define AT_PHENT  4     /* size of one program header */
#define AT_PHNUM  5     /* number of program headers */
#define AT_PAGESZ 6     /* page size */
#define AT_ENTRY  9     /* the program's entry point */
#define AT_UID   11
#define AT_EUID  12
#define AT_GID   13
#define AT_EGID  14
#define AT_RANDOM 25    /* address of 16 random bytes (glibc seeds its stack protector from them) */
#define AT_SYSINFO      32      /* __kernel_vsyscall: where to make system calls (kernel/x86/sysenter.c) */
#define AT_SYSINFO_EHDR 33      /* the vsyscall page's ELF header (linux-gate.so.1) */

#endif
