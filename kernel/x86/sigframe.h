/* The i386 signal frames a handler runs on, as Linux builds them, and sigreturn. */
#ifndef KERNEL_X86_SIGFRAME_H
#define KERNEL_X86_SIGFRAME_H

#include "kernel/signal/signal.h"

struct trapframe;

/*
 * Push the frame for sig's handler on the user stack (or the alternate one)
 * and point tf at the handler. saved_mask is the blocked mask sigreturn puts
 * back. 0, or -EFAULT when the stack cannot take the frame.
 */
int sigframe_setup(struct trapframe *tf, int sig, const struct k_sigaction *ka,
		   const struct ksiginfo *info, k_sigset_t saved_mask);

#endif
