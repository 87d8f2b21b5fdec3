/* Thread-local storage segments: set_thread_area(), and loading a task's TLS into its CPU's GDT. */
#ifndef KERNEL_X86_TLS_H
#define KERNEL_X86_TLS_H

#include "kernel/types.h"

struct cpu;
struct task;
struct trapframe;

/* Copy t's TLS descriptors into CPU c's GDT slots (schedule(), on every switch). */
void tls_load(struct cpu *c, const struct task *t);
/* The child of fork starts with its parent's TLS segments. */
void tls_fork(struct task *child, const struct task *parent);
/* execve: the new program starts with no TLS segments. */
void tls_exec_reset(struct task *t);
/* clone(CLONE_SETTLS): read and check the user_desc at uinfo (a fixed slot): slot index and descriptor. */
int tls_desc_from_user(void *uinfo, int *idx, uint64_t *desc);
/*
 * May user mode hold selector sel in a data segment register? True for the
 * null selector, the user data segment and a TLS slot holding a descriptor:
 * trap_return loads these in kernel mode, where a bad one would be a kernel fault.
 */
bool tls_selector_ok(const struct task *t, uint32_t sel);

#endif
