/*
 * The FPU and SSE units. The kernel never uses them (it is built with
 * -mgeneral-regs-only), so their registers always belong to the user process
 * running on the CPU. Without saving them on a switch, one process could read
 * another's values and inherit its rounding mode. We save and restore eagerly
 * on every switch: simple, and cheap next to a switch.
 *
 * With SSE (CPUID: FXSR and SSE) the kernel must say it saves the XMM
 * registers (CR4.OSFXSR) before the CPU lets anyone use them: glibc picks
 * SSE2 string functions from CPUID, and without OSFXSR its first strlen would
 * die of SIGILL. CR4.OSXMMEXCPT makes an unmasked SSE exception raise #XM
 * (SIGFPE) instead of #UD. Then fxsave/fxrstor keep all of it per task.
 */
#include "kernel/x86/fpu.h"

#include "kernel/lib/string.h"
#include "kernel/uapi/signal.h"
#include "kernel/x86/x86.h"

#define CR0_MP 0x00000002       /* wait/fwait honour TS */
#define CR0_EM 0x00000004       /* no FPU: emulate (we have one) */
#define CR0_TS 0x00000008       /* task switched: trap on first use */
#define CR0_NE 0x00000020       /* report FPU errors as #MF, not through the PIC */
#define CR4_OSFXSR     0x00000200
#define CR4_OSXMMEXCPT 0x00000400
#define CPUID_FXSR (1u << 24)
#define CPUID_SSE  (1u << 25)
#define MXCSR_DEFAULT 0x1F80    /* all exceptions masked, round to nearest */
#define FX_MXCSR 24             /* offsets in the fxsave image */
#define FX_MXCSR_MASK 28

static struct fpu_state clean_state;
static bool use_fxsr;           /* the same on every CPU: the BSP decides, the APs follow */
static uint32_t mxcsr_mask = 0xFFBF;    /* bits MXCSR may hold (fxsave tells; 0 means this default) */

static bool cpu_has_sse(void)
{
	uint32_t a, b, c, d;

	cpuid(0, &a, &b, &c, &d);
	if (a < 1)
		return false;
	cpuid(1, &a, &b, &c, &d);
	return (d & CPUID_FXSR) && (d & CPUID_SSE);
}

static void fxsave(struct fpu_state *st)
{
	__asm__ volatile("fxsave %0" : "=m"(*st));
}

static void fxrstor(const struct fpu_state *st)
{
	__asm__ volatile("fxrstor %0" : : "m"(*st));
}

void fpu_init_cpu(void)
{
	static bool decided;
	uint32_t mxcsr = MXCSR_DEFAULT;
	bool first = !decided;

	if (first) {
		use_fxsr = cpu_has_sse();
		decided = true;
	}
	write_cr0((read_cr0() | CR0_MP | CR0_NE) & ~(CR0_EM | CR0_TS));
	if (use_fxsr)
		write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	__asm__ volatile("fninit");
	if (use_fxsr)
		__asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
	/* The boot CPU keeps the clean image; the others only set themselves up (tasks may copy it by now). */
	if (!first)
		return;
	if (use_fxsr) {
		uint32_t mask;

		fxsave(&clean_state);
		memcpy(&mask, &clean_state.bytes[FX_MXCSR_MASK], 4);
		if (mask)
			mxcsr_mask = mask;
	} else {
		/* fnsave stores, then re-initialises: clean_state is the fninit image. */
		__asm__ volatile("fnsave %0" : "=m"(clean_state));
	}
}

bool fpu_has_fxsr(void)
{
	return use_fxsr;
}

void fpu_init_state(struct fpu_state *st)
{
	memcpy(st, &clean_state, sizeof(*st));
}

void fpu_copy_live(struct fpu_state *st)
{
	uint32_t flags = irq_save();

	if (use_fxsr)
		fxsave(st);     /* fxsave leaves the registers as they are */
	else
		__asm__ volatile("fnsave %0; frstor %0" : "+m"(*st));
	irq_restore(flags);
}

void fpu_switch(struct fpu_state *save_to, const struct fpu_state *load_from)
{
	if (use_fxsr) {
		fxsave(save_to);
		fxrstor(load_from);
	} else {
		__asm__ volatile("fnsave %0" : "=m"(*save_to));
		__asm__ volatile("frstor %0" : : "m"(*load_from));
	}
}

void fpu_reset_live(void)
{
	uint32_t flags = irq_save();

	if (use_fxsr)
		fxrstor(&clean_state);
	else
		__asm__ volatile("fninit");
	irq_restore(flags);
}

void fpu_save_for_signal(uint8_t fsave[112], struct fpu_state *fx)
{
	uint32_t flags = irq_save();
	uint16_t magic = use_fxsr ? 0x0000 : 0xFFFF;    /* Linux: X86_FXSR_MAGIC, or fnsave only */

	memset(fx, 0, sizeof(*fx));
	if (use_fxsr)
		fxsave(fx);
	/* fnsave writes the classic 108-byte image, then resets the x87 part (fine: see below). */
	__asm__ volatile("fnsave %0" : "=m"(*(uint8_t (*)[108])fsave));
	memset(fsave + 108, 0, 2);                      /* status: the x87 status word copy */
	memcpy(fsave + 108, fsave + 4, 2);
	memcpy(fsave + 110, &magic, 2);
	irq_restore(flags);
	/* The handler starts with a clean FPU, as in Linux. */
	fpu_reset_live();
}

void fpu_restore_from_signal(const uint8_t fsave[112], struct fpu_state *fx, bool fxsr)
{
	uint32_t flags, mxcsr;

	if (fxsr && use_fxsr) {
		/* A reserved MXCSR bit would make fxrstor fault in the kernel: drop them. */
		memcpy(&mxcsr, &fx->bytes[FX_MXCSR], 4);
		mxcsr &= mxcsr_mask;
		memcpy(&fx->bytes[FX_MXCSR], &mxcsr, 4);
		flags = irq_save();
		fxrstor(fx);
		irq_restore(flags);
		return;
	}
	flags = irq_save();
	__asm__ volatile("frstor %0" : : "m"(*(const uint8_t (*)[108])fsave));
	irq_restore(flags);
}

/* Linux's order: invalid, zero-divide, overflow, underflow, precision. Bits as in both FSW and MXCSR. */
static int fault_code_of(uint32_t raised)
{
	if (raised & 0x01)
		return FPE_FLTINV;
	if (raised & 0x04)
		return FPE_FLTDIV;
	if (raised & 0x08)
		return FPE_FLTOVF;
	if (raised & 0x10)
		return FPE_FLTUND;
	if (raised & 0x20)
		return FPE_FLTRES;
	return FPE_FLTINV;      /* denormal operand, or nothing recorded */
}

int fpu_simd_fault_code(void)
{
	uint32_t mxcsr = 0;

	if (use_fxsr)
		__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
	/* Flags (bits 0-5) whose mask bit (7-12) is clear raised the fault. */
	return fault_code_of(mxcsr & ~(mxcsr >> 7) & 0x3F);
}

int fpu_x87_fault_code(void)
{
	uint16_t sw, cw;

	/* The no-wait forms: a wait would raise the very exception we are looking at. */
	__asm__ volatile("fnstsw %0\n fnstcw %1" : "=m"(sw), "=m"(cw));
	/* Status flags (bits 0-5) whose control-word mask (same bits) is clear. */
	return fault_code_of(sw & ~cw & 0x3F);
}
