/*
 * The only instructions that touch user memory. Each has an entry in the
 * fixup table (kernel/mm/uaccess.c): if it page-faults, the trap code resumes at
 * the matching fixup label instead of panicking, and the copy fails softly.
 */
.text

/* size_t uaccess_copy(void *dst, const void *src, size_t n): bytes NOT copied (0 = all). */
.globl uaccess_copy, uaccess_copy_insn, uaccess_copy_fixup
uaccess_copy:
	pushl %esi
	pushl %edi
	movl 12(%esp), %edi
	movl 16(%esp), %esi
	movl 20(%esp), %ecx
	cld
uaccess_copy_insn:
	rep movsb
	/* A fault leaves %ecx = bytes still to copy: the same exit serves both cases. */
uaccess_copy_fixup:
	movl %ecx, %eax
	popl %edi
	popl %esi
	ret

/* int uaccess_strncpy(char *dst, const char *src, size_t n): length, -1 if no NUL in n, -14 on fault. */
.globl uaccess_strncpy, uaccess_str_insn, uaccess_str_fixup
uaccess_strncpy:
	pushl %esi
	pushl %edi
	movl 12(%esp), %edi
	movl 16(%esp), %esi
	movl 20(%esp), %ecx
	xorl %eax, %eax
1:	cmpl %ecx, %eax
	je 3f
uaccess_str_insn:
	movb (%esi,%eax), %dl
	movb %dl, (%edi,%eax)
	testb %dl, %dl
	je 2f
	incl %eax
	jmp 1b
3:	movl $-1, %eax
2:	popl %edi
	popl %esi
	ret
uaccess_str_fixup:
	movl $-14, %eax                 /* -EFAULT */
	popl %edi
	popl %esi
	ret

/*
 * int uaccess_cmpxchg(uint32_t *uaddr, uint32_t old, uint32_t new, uint32_t *cur):
 * one locked compare-and-exchange of a user word (futexes: FUTEX_WAKE_OP, the
 * robust list at a thread's death). *cur gets the value found; 0, or -14 on a fault.
 */
.globl uaccess_cmpxchg, uaccess_cmpxchg_insn, uaccess_cmpxchg_fixup
uaccess_cmpxchg:
	movl 4(%esp), %edx
	movl 8(%esp), %eax
	movl 12(%esp), %ecx
uaccess_cmpxchg_insn:
	lock cmpxchgl %ecx, (%edx)
	movl 16(%esp), %edx
	movl %eax, (%edx)
	xorl %eax, %eax
	ret
uaccess_cmpxchg_fixup:
	movl $-14, %eax                 /* -EFAULT */
	ret
