/*
 * execve(): build a complete new address space (program segments, stack
 * with arguments, environment and auxiliary vector) and only then swap it in,
 * so a failure at any step leaves the caller's old program untouched.
 *
 * The initial stack, as the Linux i386 ABI has it (addresses grow upward):
 *
 *   esp ->  argc
 *           argv[0] .. argv[argc-1], NULL
 *           envp[0] .. envp[n-1], NULL
 *           auxv: (AT_PHDR, x) (AT_PHENT, x) ... (AT_NULL, 0)
 *           ... padding ...
 *           16 random bytes (AT_RANDOM)
 *           the argument and environment strings
 *           16 bytes of zero, then USER_STACK_TOP
 *
 * esp is 16-byte aligned at entry.
 */
#include "kernel/exec.h"

#include "kernel/elf.h"
#include "kernel/fork.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc.h"
#include "kernel/random.h"
#include "kernel/syscalls.h"
#include "kernel/task.h"
#include "kernel/uapi/auxv.h"
#include "kernel/uapi/errno.h"
#include "kernel/userprog.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/gdt.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define NAUX 11                         /* auxv pairs we write, AT_NULL included */

/* Argument and environment strings, back to back, argv's first. */
struct exec_args {
	char *buf;                      /* EXEC_ARG_MAX bytes */
	size_t used;
	int argc, envc;
};

static int args_add(struct exec_args *a, const char *s, int *count)
{
	size_t len = strlen(s) + 1;

	if (a->argc + a->envc >= EXEC_MAX_PTRS || len > EXEC_ARG_MAX - a->used)
		return -E2BIG;
	memcpy(a->buf + a->used, s, len);
	a->used += len;
	(*count)++;
	return 0;
}

/* Copy a NULL-terminated vector of user strings (NULL vector: none). */
static int args_from_user(struct exec_args *a, uintptr_t uvec, int *count)
{
	for (uintptr_t i = 0; uvec; i++) {
		uint32_t p;
		int r;

		if (get_user_u32(&p, (const void *)(uvec + 4 * i)) < 0 || uvec + 4 * i < uvec)
			return -EFAULT;
		if (!p)
			return 0;
		if (a->argc + a->envc >= EXEC_MAX_PTRS || a->used >= EXEC_ARG_MAX)
			return -E2BIG;
		r = strncpy_from_user(a->buf + a->used, (const char *)p, EXEC_ARG_MAX - a->used);
		if (r == -ENAMETOOLONG)
			return -E2BIG;
		if (r < 0)
			return r;
		a->used += (size_t)r + 1;
		(*count)++;
	}
	return 0;
}

/* Append n pointers to consecutive strings (at user address base + *off) and a NULL. */
static int put_vector(uint32_t *v, int w, const char *buf, uint32_t base, uint32_t *off, int n)
{
	for (int i = 0; i < n; i++) {
		v[w++] = base + *off;
		*off += strlen(buf + *off) + 1;
	}
	v[w++] = 0;
	return w;
}

/* Write the vectors and strings described by a onto the stack of mm; returns the initial esp. */
static int build_stack(struct mm *mm, const struct exec_args *a, const struct elf_info *info,
		       uint32_t *esp)
{
	uint32_t strings = ALIGN_DOWN(USER_STACK_TOP - 16 - a->used, 4);
	uint32_t random = ALIGN_DOWN(strings - 16, 16);
	int nwords = 1 + a->argc + 1 + a->envc + 1 + 2 * NAUX, w = 0, r;
	uint32_t *v = kmalloc(nwords * sizeof(uint32_t));
	uint32_t sp = ALIGN_DOWN(random - nwords * sizeof(uint32_t), 16);
	uint32_t off = 0;
	uint8_t seed[16];
	const uint32_t aux[2 * NAUX] = {
		AT_PHDR, info->phdr, AT_PHENT, sizeof(struct elf32_phdr), AT_PHNUM, info->phnum,
		AT_PAGESZ, PAGE_SIZE, AT_ENTRY, info->entry, AT_UID, 0, AT_EUID, 0, AT_GID, 0,
		AT_EGID, 0, AT_RANDOM, random, AT_NULL, 0,
	};

	if (!v)
		return -ENOMEM;
	v[w++] = a->argc;
	w = put_vector(v, w, a->buf, strings, &off, a->argc);
	w = put_vector(v, w, a->buf, strings, &off, a->envc);
	memcpy(&v[w], aux, sizeof(aux));
	random_bytes(seed, sizeof(seed));
	r = mm_copy_in(mm, strings, a->buf, a->used);
	if (r == 0)
		r = mm_copy_in(mm, random, seed, sizeof(seed));
	if (r == 0)
		r = mm_copy_in(mm, sp, v, nwords * sizeof(uint32_t));
	kfree(v);
	*esp = sp;
	return r;
}

/* Registers for the first instruction of the new program: all zero but the ones that matter. */
static void set_user_registers(struct trapframe *tf, uint32_t eip, uint32_t esp)
{
	memset(tf, 0, sizeof(*tf));
	tf->cs = USER_CS;
	tf->ds = tf->es = tf->fs = tf->gs = tf->ss = USER_DS;
	tf->eflags = EFLAGS_IF | 0x2;   /* bit 1 is always set */
	tf->eip = eip;
	tf->esp = esp;
}

static const char *basename(const char *path)
{
	const char *slash = strchr(path, '/'), *b = path;

	while (slash) {
		b = slash + 1;
		slash = strchr(b, '/');
	}
	return b;
}

/* The common part: everything is in kernel memory now. */
static int exec_args_into(struct task *t, const char *path, const struct exec_args *a)
{
	const struct userprog *prog = userprog_find(path);
	struct elf_info info;
	struct mm *mm, *old;
	uint32_t esp = 0;
	int r;

	if (!prog)
		return -ENOENT;
	mm = mm_create();
	if (!mm)
		return -ENOMEM;
	r = elf_load(mm, prog->start, prog->end - prog->start, &info);
	if (r == 0)
		r = mm_alloc_range(mm, USER_STACK_TOP - USER_STACK_SIZE, USER_STACK_TOP, PTE_W);
	if (r == 0)
		r = build_stack(mm, a, &info, &esp);
	if (r < 0) {
		mm_destroy(mm);
		return r;
	}
	mm->brk_start = mm->brk = info.end;
	/* Past the point of no return: the old program is gone. */
	spin_lock(&proc_lock);          /* the OOM killer reads t->mm under it */
	old = t->mm;
	t->mm = mm;
	spin_unlock(&proc_lock);
	fpu_init_state(&t->fpu);
	if (t == current) {
		mm_activate(mm, (char *)t->kstack + KSTACK_SIZE);
		fpu_reset_live();       /* the new program must not see the old one's registers */
	}
	mm_destroy(old);
	set_user_registers(task_trapframe(t), info.entry, esp);
	task_set_name(t, basename(path));
	fork_exec_done(t);              /* handlers, TLS, a parent waiting in vfork (kernel/fork.c) */
	return 0;
}

int exec_kernel(struct task *t, const char *path, const char *const *argv, const char *const *envp)
{
	struct exec_args a = { NULL, 0, 0, 0 };
	int r;

	/* Look the program up before allocating: a missing one is -ENOENT even when memory is short. */
	if (!userprog_find(path))
		return -ENOENT;
	a.buf = kmalloc(EXEC_ARG_MAX);
	r = a.buf ? 0 : -ENOMEM;

	for (int i = 0; r == 0 && argv && argv[i]; i++)
		r = args_add(&a, argv[i], &a.argc);
	for (int i = 0; r == 0 && envp && envp[i]; i++)
		r = args_add(&a, envp[i], &a.envc);
	if (r == 0)
		r = exec_args_into(t, path, &a);
	kfree(a.buf);
	return r;
}

long sys_execve(const char *upath, char *const *uargv, char *const *uenvp)
{
	char path[EXEC_PATH_MAX];
	struct exec_args a = { NULL, 0, 0, 0 };
	int r = strncpy_from_user(path, upath, sizeof(path));

	if (r < 0)
		return r;
	/* Look the program up before allocating: a missing one is -ENOENT even when memory is short. */
	if (!userprog_find(path))
		return -ENOENT;
	a.buf = kmalloc(EXEC_ARG_MAX);
	if (!a.buf)
		return -ENOMEM;
	r = args_from_user(&a, (uintptr_t)uargv, &a.argc);
	if (r == 0)
		r = args_from_user(&a, (uintptr_t)uenvp, &a.envc);
	if (r == 0)
		r = exec_args_into(current, path, &a);
	kfree(a.buf);
	return r;
}
