/*
 * long syscall6(long nr, long a1, ..., long a6): Linux i386 registers, then
 * into the kernel by __kernel_vsyscall (sysenter) where the kernel offers it
 * (__vsyscall, auxv.c), else by int $0x80.
 */
.text
.globl syscall6
syscall6:
	pushl %ebp
	pushl %edi
	pushl %esi
	pushl %ebx
	movl 20(%esp), %eax
	movl 24(%esp), %ebx
	movl 28(%esp), %ecx
	movl 32(%esp), %edx
	movl 36(%esp), %esi
	movl 40(%esp), %edi
	movl 44(%esp), %ebp
	cmpl $0, __vsyscall
	je 1f
	call *__vsyscall
	jmp 2f
1:	int $0x80
2:	popl %ebx
	popl %esi
	popl %edi
	popl %ebp
	ret

/*
 * Where a signal handler returns to: sigaction() passes one as sa_restorer
 * (SA_RESTORER), as glibc does. A handler with SA_SIGINFO gets the rt frame,
 * which rt_sigreturn reads back; one without gets the old frame, whose
 * return address pops the signal number before sigreturn. Each resumes the
 * interrupted code.
 */
.globl __restore_rt
__restore_rt:
	movl $173, %eax                 /* __NR_rt_sigreturn */
	int $0x80
	hlt                             /* never reached: a fault here is loud */

.globl __restore
__restore:
	popl %eax                       /* the signal number the old frame passed */
	movl $119, %eax                 /* __NR_sigreturn */
	int $0x80
	hlt
