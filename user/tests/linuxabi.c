/*
 * /bin/linuxabi: answers smpix gives exactly as Linux does. The same binary
 * runs on the build host's Linux (its calls go by raw int $0x80, or by the
 * kernel's __kernel_vsyscall where the libc's syscall() is used, on either
 * kernel), and tools/test/cases/45_linuxabi.py runs it there too:
 * every expectation below is Linux's, not only ours. Each test prints
 * "linuxabi: NAME ok|FAIL"; the last line is a summary.
 */
#define GT_ISOLATED     /* each test in a child of its own (gtest.h) */
#include "gtest.h"
#include "kernel/uapi/auxv.h"
#include "kernel/uapi/futex.h"

#define BAD_KERNEL2 ((void *)0xC0100000)
#define WEXITED_FLAG 4                          /* waitid's flag: wait4 refuses it */
#define MASK_BYTES 128                          /* a cpu_set_t big enough for any host */

/* A child that exits with code at once; returns its pid. */
static int child_exits(int code)
{
	int pid = fork();

	if (pid == 0)
		exit(code);
	return pid;
}

/* A child that sleeps ms, then exits 0. */
static int child_sleeps(int ms)
{
	int pid = fork();

	if (pid == 0) {
		msleep(ms);
		exit(0);
	}
	return pid;
}

static void t_wait_flags_accepted(void)
{
	int flags[] = { WUNTRACED, WCONTINUED, __WALL, WUNTRACED | WCONTINUED | __WALL };
	int st;

	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		int pid = child_exits(7);

		CHECK(pid > 0);
		st = 0;
		CHECK(wait4(pid, &st, flags[i], 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	}
	CHECK(waitpid(-1, &st, WUNTRACED) == -ECHILD);
	CHECK(wait4(-1, &st, WEXITED_FLAG, 0) == -EINVAL);
}

static void t_zombie_still_exists(void)
{
	unsigned char mask[MASK_BYTES], mine[MASK_BYTES];
	int pid = child_exits(0), st;

	CHECK(pid > 0);
	msleep(300);            /* it has exited by now (it exits at once): a zombie until we reap it */
	CHECK(kill(pid, 0) == 0);
	CHECK(kill(pid, SIGTERM) == 0);         /* dropped: it is dead already */
	memset(mask, 0, sizeof(mask));
	memset(mine, 0, sizeof(mine));
	CHECK(sched_getaffinity(pid, sizeof(mask), mask) > 0);
	/* Ours, inherited: whichever CPUs this machine (or container) lets us use, CPU 0 or not. */
	CHECK(sched_getaffinity(0, sizeof(mine), mine) > 0);
	CHECK(memcmp(mask, mine, sizeof(mask)) == 0);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);   /* the SIGTERM did not count */
	CHECK(kill(pid, 0) == -ESRCH);          /* reaped: gone */
}

static void t_affinity_negative_pid(void)
{
	unsigned char mask[MASK_BYTES];
	uint32_t one = 1, none = 0;

	CHECK(sched_getaffinity(-5, sizeof(mask), mask) == -ESRCH);
	CHECK(sched_getaffinity(-1, sizeof(mask), mask) == -ESRCH);
	CHECK(sched_setaffinity(-5, sizeof(one), &one) == -ESRCH);
	CHECK(sched_setaffinity(NO_PID, sizeof(none), &none) == -ESRCH);  /* no such task comes first */
	CHECK(sched_setaffinity(0, sizeof(none), &none) == -EINVAL);
}

static void t_execve_missing(void)
{
	char *argv[] = { "nope", 0 };

	CHECK(execve("/bin/no-such-program-here", argv, 0) == -ENOENT);
	CHECK(execve("/no-such-dir/x", argv, 0) == -ENOENT);
}

static void t_wait4_answers_before_efault(void)
{
	int st = 0x5A5A, pid;

	/* No child at all: -ECHILD whatever the pointers, and nothing written. */
	CHECK(wait4(-1, BAD_KERNEL, 0, 0) == -ECHILD);
	CHECK(wait4(-1, BAD_UNMAP, WNOHANG, 0) == -ECHILD);
	CHECK(wait4(-1, &st, 0, BAD_KERNEL) == -ECHILD);
	CHECK(wait4(-1, &st, 0, 0) == -ECHILD && st == 0x5A5A);
	/* A child that has not exited (2 s leaves room for a slow machine): WNOHANG answers 0, writes nothing. */
	pid = child_sleeps(2000);
	CHECK(pid > 0);
	CHECK(wait4(pid, BAD_KERNEL, WNOHANG, 0) == 0);
	CHECK(wait4(-1, BAD_UNMAP, WNOHANG, BAD_KERNEL) == 0);
	CHECK(wait4(pid, &st, WNOHANG, 0) == 0);
	CHECK(st == 0x5A5A);
	CHECK(wait4(pid, &st, 0, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/*
 * A zero-length buffer is checked as Linux's i386 access_ok() checks any range: it must end at
 * or below the top of user space (3 GiB), whatever it touches. So NULL and exactly 3 GiB pass,
 * anything above is -EFAULT. On a 64-bit kernel's compat layer the i386 program's user space
 * reaches 4 GiB and every such write is 0: the one place the two Linux references differ.
 */
static void t_zero_length_anywhere(void)
{
	long above = gt_on_64bit_kernel() ? 0 : -EFAULT;

	CHECK(write(1, BAD_KERNEL, 0) == 0);
	CHECK(write(1, (void *)0, 0) == 0);
	CHECK(write(1, BAD_KERNEL2, 0) == above);
	CHECK(write(1, (void *)0xFFFFFFF0, 0) == above);
	CHECK(write(1, BAD_KERNEL2, 4) == -EFAULT);     /* one byte is enough to fault */
}

/*
 * An orphan's exit signal becomes SIGCHLD when its new parent adopts it: a
 * clone() child that asked for SIGKILL must not kill init when it dies (the
 * fuzzer found that). Run as init, linuxabi is that new parent; on the
 * host, some other process is, and nothing is seen.
 */
static void t_orphan_exit_signal(void)
{
	int a = fork(), st;

	if (a == 0) {
		int b = syscall(__NR_clone, SIGKILL, 0, 0, 0, 0);       /* like fork, exit signal SIGKILL */

		if (b == 0) {
			msleep(200);    /* outlive the parent: an orphan */
			exit(0);
		}
		exit(b > 0 ? 0 : 1);
	}
	CHECK(a > 0);
	CHECK(waitpid(a, &st, 0) == a);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/*
	 * By now the orphan has died and told its new parent. If that killed
	 * init (us, in the guest), no "ok" line and no summary follow: the
	 * harness fails the run.
	 */
	msleep(500);
}

static void t_unknown_numbers(void)
{
	CHECK(syscall(9999, 0) == -ENOSYS);
	CHECK(syscall(-1, 0) == -ENOSYS);
	CHECK(syscall(0x7FFFFFFF, 0) == -ENOSYS);
}

/* ---- the vsyscall page (kernel/x86/sysenter.c): where this program's libc makes its calls ---- */

#define EHDR_TYPE_DYN 3
#define PHDR_LOAD 1
#define PHDR_DYNAMIC 2
#define DYN_HASH 4
#define DYN_STRTAB 5
#define DYN_SYMTAB 6

struct ehdr32 { unsigned char ident[16]; uint16_t type, machine; uint32_t version, entry, phoff, shoff, flags;
		uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx; };
struct phdr32 { uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align; };
struct sym32 { uint32_t name, value, size; unsigned char info, other; uint16_t shndx; };

/* An entry of the auxiliary vector, past the environment crt0 started with (0: none). */
static uint32_t aux_value(uint32_t type)
{
	uint32_t *p = (uint32_t *)initial_esp;

	p += 1 + p[0] + 1;              /* argc, argv, its NULL */
	while (*p)
		p++;                    /* the environment */
	for (p++; p[0] != AT_NULL; p += 2)
		if (p[0] == type)
			return p[1];
	return 0;
}

/* The address a symbol of the vsyscall page's dynamic table has in this process, or 0. */
static uint32_t vdso_symbol(const struct ehdr32 *e, const char *name)
{
	const struct phdr32 *ph = (const void *)((const char *)e + e->phoff);
	const uint32_t *dyn = NULL, *hash = NULL;
	const struct sym32 *syms = NULL;
	const char *strs = NULL;
	uint32_t bias = 0;

	for (int i = 0; i < e->phnum; i++) {
		if (ph[i].type == PHDR_LOAD && !bias)
			bias = (uint32_t)e - (ph[i].vaddr & ~0xFFFu);   /* Linux places it anywhere */
		if (ph[i].type == PHDR_DYNAMIC)
			dyn = (const uint32_t *)ph[i].vaddr;
	}
	if (!dyn)
		return 0;
	dyn = (const uint32_t *)((uint32_t)dyn + bias);
	for (; dyn[0]; dyn += 2) {
		if (dyn[0] == DYN_HASH)
			hash = (const uint32_t *)(dyn[1] + bias);
		if (dyn[0] == DYN_SYMTAB)
			syms = (const struct sym32 *)(dyn[1] + bias);
		if (dyn[0] == DYN_STRTAB)
			strs = (const char *)(dyn[1] + bias);
	}
	for (uint32_t i = 0; hash && syms && strs && i < hash[1]; i++)     /* hash[1]: the symbol count */
		if (strcmp(strs + syms[i].name, name) == 0)
			return syms[i].value + bias;
	return 0;
}

/*
 * The kernel says where to make system calls (AT_SYSINFO) and where the page
 * holding that code begins (AT_SYSINFO_EHDR): a 32-bit ELF shared object
 * whose __kernel_vsyscall is that very address (glibc reads the headers).
 */
static void t_vsyscall_page_is_an_elf_naming_its_entry(void)
{
	const struct ehdr32 *e = (const void *)aux_value(AT_SYSINFO_EHDR);
	uint32_t entry = aux_value(AT_SYSINFO);

	CHECK(e != NULL && entry != 0);
	if (!e || !entry)
		return;
	CHECK(memcmp(e->ident, "\177ELF", 4) == 0 && e->ident[4] == 1 /* 32-bit */ && e->type == EHDR_TYPE_DYN);
	CHECK(vdso_symbol(e, "__kernel_vsyscall") == entry);
}

/*
 * Through __kernel_vsyscall (this libc's syscall()), the sixth argument
 * arrives: futex's FUTEX_CMP_REQUEUE compares the word with it, and says
 * -EAGAIN when they differ. The same answers as int $0x80 gives. (A call cut
 * by a signal and restarted through the page: sigtest's eintr_and_restart.)
 */
static void t_vsyscall_passes_six_arguments(void)
{
	static uint32_t word = 5, other;
	long op = FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG;

	CHECK(aux_value(AT_SYSINFO) != 0);
	CHECK(syscall(__NR_futex, &word, op, 0, 0, &other, 5) == 0);
	CHECK(syscall(__NR_futex, &word, op, 0, 0, &other, 6) == -EAGAIN);
	CHECK(syscall(__NR_getpid, 0) == SYS0(__NR_getpid));
	CHECK(syscall(__NR_close, -1) == -EBADF && SYS1(__NR_close, -1) == -EBADF);
}

/*
 * sysenter with a stack pointer that points nowhere: the kernel cannot read
 * the sixth argument, fails the call, and the return through the page pops
 * from that stack, so the program dies of SIGSEGV. The kernel carries on.
 */
static void t_sysenter_with_a_bad_stack_kills_only_the_caller(void)
{
	int pid = fork(), st;

	if (pid == 0) {
		__asm__ volatile("movl %0, %%ebp\n\tmovl %1, %%eax\n\tsysenter"
				 : : "i"(0x1000), "i"(__NR_getpid) : "eax", "memory");
		exit(0);        /* not reached */
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
}

/*
 * sysenter keeps the trap flag, so a program that sets it just before
 * sysenter has the step trap taken on the kernel's entry, where the stack
 * is not yet the task's. The kernel survives it, and gives the flag back:
 * the step goes on in user mode after the call, and the first instruction
 * there (in the vsyscall page) traps: SIGTRAP, whose default kills. Without
 * the flag given back, the child would exit 0.
 */
static void t_sysenter_with_the_trap_flag_steps_on_in_user_mode(void)
{
	int pid = fork(), st;

	if (pid == 0) {
		/* __kernel_vsyscall's pushes, by hand, with popfl setting TF just before sysenter. */
		__asm__ volatile("call 1f\n\t"
				 "jmp 2f\n"
				 "1:\tpushl %%ecx\n\tpushl %%edx\n\tpushl %%ebp\n\tmovl %%esp, %%ebp\n\t"
				 "pushfl\n\torl $0x100, (%%esp)\n\tmovl %0, %%eax\n\tpopfl\n\tsysenter\n"
				 "2:\n"
				 : : "i"(__NR_getpid) : "eax", "memory");
		exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTRAP);
}

int main(void)
{
	gt_start("linuxabi");
	printf("linuxabi: starting as pid %d\n", getpid());
	gt_run("wait_flags_accepted", t_wait_flags_accepted);
	gt_run("zombie_still_exists", t_zombie_still_exists);
	gt_run("affinity_negative_pid", t_affinity_negative_pid);
	gt_run("execve_missing", t_execve_missing);
	gt_run("wait4_answers_before_efault", t_wait4_answers_before_efault);
	gt_run("zero_length_anywhere", t_zero_length_anywhere);
	gt_run("unknown_numbers", t_unknown_numbers);
	gt_run("orphan_exit_signal", t_orphan_exit_signal);
	gt_run("vsyscall_page_is_an_elf_naming_its_entry", t_vsyscall_page_is_an_elf_naming_its_entry);
	gt_run("vsyscall_passes_six_arguments", t_vsyscall_passes_six_arguments);
	gt_run("sysenter_with_a_bad_stack_kills_only_the_caller", t_sysenter_with_a_bad_stack_kills_only_the_caller);
	gt_run("sysenter_with_the_trap_flag_steps_on_in_user_mode", t_sysenter_with_the_trap_flag_steps_on_in_user_mode);
	gt_finish();
}
