/* The FPU and SSE registers: each task has its own, saved across every switch (fxsave when there is SSE). */
#ifndef KERNEL_X86_FPU_H
#define KERNEL_X86_FPU_H

#include "kernel/types.h"

/*
 * What fxsave writes (512 bytes: x87, MXCSR, the 8 XMM registers), or on a
 * CPU without FXSR what fnsave writes (the first 108 bytes).
 */
struct fpu_state {
	uint8_t bytes[512];
} __aligned(16);

/* Turn the FPU (and SSE, when CPUID has it) on for this CPU and remember a clean image. */
void fpu_init_cpu(void);
/* Does this machine save state with fxsave (SSE)? */
bool fpu_has_fxsr(void);
/* The state a new program starts with (as after fninit, MXCSR 0x1f80). */
void fpu_init_state(struct fpu_state *st);
/* Save the live registers into st without changing them (for fork). */
void fpu_copy_live(struct fpu_state *st);
/* Switch the registers from one task's image to another's. Interrupts must be off. */
void fpu_switch(struct fpu_state *save_to, const struct fpu_state *load_from);
/* Reset the live registers (execve, a signal handler: they start clean). */
void fpu_reset_live(void);

/*
 * For signal frames (kernel/x86/sigframe.c): the live registers in the two
 * formats Linux's i386 frame holds, 112 bytes of fnsave layout and the 512
 * bytes of fxsave, then a clean FPU for the handler.
 */
void fpu_save_for_signal(uint8_t fsave[112], struct fpu_state *fx);
/* Load a frame's state back: from fx (MXCSR sanitised) when fxsr, else from the fnsave part. */
void fpu_restore_from_signal(const uint8_t fsave[112], struct fpu_state *fx, bool fxsr);
/* si_code for a SIMD exception (#XM), from the live MXCSR (FPE_FLTDIV, ...). */
int fpu_simd_fault_code(void);
/* si_code for an x87 exception (#MF), from the live status and control words. */
int fpu_x87_fault_code(void);

#endif
