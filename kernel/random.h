/* Random bytes from the kernel's TSC-mixing pool (not cryptographic: see random.c). */
#ifndef KERNEL_RANDOM_H
#define KERNEL_RANDOM_H

#include "kernel/types.h"

/* Fill buf with n random bytes (execve's AT_RANDOM, getrandom). Any context. */
void random_bytes(void *buf, size_t n);

#endif
