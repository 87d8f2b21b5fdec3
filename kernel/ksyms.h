/* The kernel's own symbol table, built in at link time, for symbolized backtraces. */
#ifndef KERNEL_KSYMS_H
#define KERNEL_KSYMS_H

#include "kernel/types.h"

/* Name of the function containing addr and addr's offset in it; NULL if unknown. */
const char *ksym_lookup(uintptr_t addr, uintptr_t *offset);
/* Address of a function by name, or 0. */
uintptr_t ksym_address(const char *name);

#endif
