/* sysbench's entry point: no C library, so argc, argv and envp come off the initial stack here. */
.text
.globl _start
_start:
	xorl %ebp, %ebp                 /* the end of every backtrace */
	movl (%esp), %eax               /* argc */
	leal 4(%esp), %ecx              /* argv */
	leal 8(%esp,%eax,4), %edx       /* envp: past argv's NULL */
	andl $-16, %esp                 /* the i386 ABI wants esp 16-byte aligned at a call */
	subl $4, %esp
	pushl %edx
	pushl %ecx
	pushl %eax
	call main
	movl %eax, %ebx
	movl $252, %eax                 /* exit_group(main's return value) */
	int $0x80
1:	jmp 1b
.section .note.GNU-stack, "", @progbits
