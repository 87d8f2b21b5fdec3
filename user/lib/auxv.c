/*
 * The auxiliary vector the kernel leaves after the environment
 * (kernel/process/exec.c): getauxval(), and where this program makes its
 * system calls. When the kernel offers __kernel_vsyscall (AT_SYSINFO, the
 * vsyscall page of kernel/x86/sysenter.c), syscall6() (syscall.S) enters
 * there, by sysenter, as glibc does; otherwise by int $0x80.
 */
#include <sys/auxv.h>

void *__vsyscall;
static unsigned long *auxv;

/* envp: the environment crt0 found; the auxiliary vector follows its NULL. */
void __auxv_init(char **envp)
{
	while (*envp)
		envp++;
	auxv = (unsigned long *)(envp + 1);
	__vsyscall = (void *)getauxval(AT_SYSINFO);
}

/* The value of the entry of that type, or 0 (glibc's, which also sets errno: not here). */
unsigned long getauxval(unsigned long type)
{
	for (unsigned long *a = auxv; a && a[0] != AT_NULL; a += 2)
		if (a[0] == type)
			return a[1];
	return 0;
}
