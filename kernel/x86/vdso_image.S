/*
 * The vsyscall page's bytes, built from kernel/x86/vdso/ as a shared object
 * (make: build/vdso/linux-gate.so) and carried in the kernel image, on a page
 * of its own so that it can be mapped read-only into user space
 * (kernel/x86/sysenter.c) with nothing of the kernel's beside it.
 */
	.section .rodata.vdso, "a"
	.balign 4096
	.globl vdso_image
vdso_image:
	.incbin VDSO_SO
	.globl vdso_image_end
vdso_image_end:
	.balign 4096

	.section .note.GNU-stack, "", @progbits
