/* The x87 floating-point unit: each task has its own registers, saved across every switch. */
#ifndef KERNEL_X86_FPU_H
#define KERNEL_X86_FPU_H

#include "kernel/types.h"

/* What fnsave writes: control, status and tag words, pointers, and the 8 registers. */
struct fpu_state {
	uint8_t bytes[108];
} __aligned(16);

/* Turn the FPU on for this CPU (native error reporting) and remember a clean image. */
void fpu_init_cpu(void);
/* The state a new program starts with (as after fninit). */
void fpu_init_state(struct fpu_state *st);
/* Save the live registers into st without changing them (for fork). */
void fpu_copy_live(struct fpu_state *st);
/* Switch the registers from one task's image to another's. Interrupts must be off. */
void fpu_switch(struct fpu_state *save_to, const struct fpu_state *load_from);
/* Reset the live registers (execve: the new program must not see the old one's). */
void fpu_reset_live(void);

#endif
