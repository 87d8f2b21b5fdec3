/*
 * The context switch: the only place where one task's kernel stack is
 * exchanged for another's. Everything else about a switch is in sched.c.
 *
 * struct task *switch_stacks(uint32_t *prev_esp, uint32_t next_esp, struct task *prev)
 *
 * Saves the callee-saved registers on the current stack, stores the stack
 * pointer in *prev_esp, loads next_esp, restores next's registers and returns
 * on next's stack. The return value (in %eax) is prev, so the task that now
 * runs knows which task it took over from.
 */
.text
.globl switch_stacks
switch_stacks:
	movl 4(%esp), %eax              /* &prev->saved_esp */
	movl 8(%esp), %edx              /* next->saved_esp */
	movl 12(%esp), %ecx             /* prev */
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, (%eax)
	movl %edx, %esp
	movl %ecx, %eax
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret

/*
 * A new kernel thread's first "return" from switch_stacks lands here, with
 * the function and its argument above us on the stack (see kthread.c).
 */
.globl kthread_first_run
kthread_first_run:
	pushl %eax                      /* the previous task */
	call sched_finish_switch
	addl $4, %esp
	sti                             /* schedule() switched with interrupts off */
	popl %eax                       /* fn; its argument is now on top of the stack */
	call *%eax
	pushl %eax                      /* fn's return value */
	call kthread_exit

/* A new user task's first return lands here; its trapframe is right above. */
.globl user_first_run
user_first_run:
	pushl %eax
	call sched_finish_switch
	addl $4, %esp
	jmp trap_return
