/* Program entry: the kernel's initial stack holds argc, argv, envp, auxv (see docs/syscalls.md). */
.section .text.start
.globl _start
_start:
	xorl %ebp, %ebp                 /* the end of every backtrace */
	movl %esp, initial_esp          /* tests check its alignment and read the auxv */
	movl (%esp), %eax               /* argc */
	leal 4(%esp), %ecx              /* argv */
	leal 8(%esp,%eax,4), %edx       /* envp: past argv's NULL */
	movl %edx, environ              /* getenv() and execvp() read it */
	pushl %eax
	pushl %ecx
	pushl %edx
	pushl %edx
	call __auxv_init               /* auxv.c: getauxval(), how to make system calls */
	addl $4, %esp
	popl %edx
	popl %ecx
	popl %eax
	subl $4, %esp                   /* keep esp 16-byte aligned at the call */
	pushl %edx
	pushl %ecx
	pushl %eax
	call main
	pushl %eax
	call exit                       /* the libc's: atexit functions, then exit_group */
1:	jmp 1b

.bss
.globl initial_esp
.align 4
initial_esp:
	.long 0
