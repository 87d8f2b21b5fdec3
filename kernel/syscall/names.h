/* The names of Linux i386 system calls, for messages about calls smpix does not implement. */
#ifndef KERNEL_SYSCALL_NAMES_H
#define KERNEL_SYSCALL_NAMES_H

/* Linux's name for i386 system call nr ("read", "mmap2"), or "?" for a number Linux does not use. */
const char *syscall_name(unsigned nr);

#endif
