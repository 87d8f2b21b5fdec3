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
 *
 * The program's segments are private mappings of its file (kernel/process/elf.c,
 * docs/mm.md section 9): exec reads the headers, and the pages come when the
 * program touches them, shared with the file's page cache until written.
 *
 * The program is a file in the VFS: an ELF executable, or a script whose
 * first line "#!interpreter [arg]" names the program that runs it (with the
 * script's path as its argument), as Linux's binfmt_script does.
 */
#include "kernel/process/exec.h"

#include "fs/file.h"
#include "fs/mount.h"
#include "fs/vfs.h"
#include "kernel/process/elf.h"
#include "kernel/process/exec_info.h"
#include "kernel/process/fork.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/process/proc.h"
#include "kernel/process/thread.h"
#include "kernel/random.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/signal/signal.h"
#include "kernel/uapi/auxv.h"
#include "kernel/x86/vdso.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/stat.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/gdt.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"

#define NAUX 13                         /* auxv pairs we write, AT_NULL included */
#define SCRIPT_LINE_MAX 128             /* a "#!" line longer than this is cut, as Linux 2.6 did */
#define SCRIPT_DEPTH_MAX 4              /* scripts running scripts: then -ELOOP (Linux's limit) */

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
		AT_EGID, 0, AT_RANDOM, random,
		/* The vsyscall page, where this CPU has sysenter: glibc then makes its calls there. */
		vdso_available() ? AT_SYSINFO : AT_IGNORE, VDSO_VSYSCALL,
		vdso_available() ? AT_SYSINFO_EHDR : AT_IGNORE, VDSO_BASE, AT_NULL, 0,
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

/*
 * Open path for execution: the lookup comes first, before any allocation, so
 * a missing program is -ENOENT even when memory is short. Only a regular
 * file with an execute bit, on a mount without noexec, runs (-EACCES
 * otherwise, as Linux's do_open_execat()). A script's interpreter and the
 * script itself both come through here.
 */
static int exec_open(const char *path, struct file **out)
{
	struct file *f;
	int r = vfs_open_kernel(path, O_RDONLY, &f);

	if (r < 0)
		return r == -EISDIR ? -EACCES : r;
	if (!S_ISREG(f->f_inode->i_mode) || !(f->f_inode->i_mode & 0111) || mount_noexec(f->f_inode)) {
		fput(f);
		return -EACCES;
	}
	*out = f;
	return 0;
}

/* Replace argv[0] with the strings of newv (n of them): how a script's interpreter gets its arguments. */
static int args_replace_argv0(struct exec_args *a, const char *const *newv, int n)
{
	size_t old0 = a->argc ? strlen(a->buf) + 1 : 0, add = 0, off = 0;

	for (int i = 0; i < n; i++)
		add += strlen(newv[i]) + 1;
	if (a->used - old0 + add > EXEC_ARG_MAX || a->argc + a->envc + n > EXEC_MAX_PTRS)
		return -E2BIG;
	memmove(a->buf + add, a->buf + old0, a->used - old0);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(newv[i]) + 1;

		memcpy(a->buf + off, newv[i], len);
		off += len;
	}
	a->used = a->used - old0 + add;
	a->argc += n - (old0 ? 1 : 0);
	return 0;
}

/*
 * "#!interp [arg]" in line (NUL-terminated, at most SCRIPT_LINE_MAX): split it
 * in place. Returns 0 with *interp and *arg (NULL if none), or -ENOEXEC.
 */
static int parse_script_line(char *line, char **interp, char **arg)
{
	char *p = line + 2, *end;

	for (end = p; *end && *end != '\n'; end++)
		;
	*end = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return -ENOEXEC;
	*interp = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	*arg = NULL;
	if (*p) {
		*p++ = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		/* Linux keeps the rest of the line as one argument, trailing blanks trimmed. */
		for (end = p + strlen(p); end > p && (end[-1] == ' ' || end[-1] == '\t'); end--)
			end[-1] = '\0';
		if (*p)
			*arg = p;
	}
	return 0;
}

static int exec_file(struct task *t, struct file *f, const char *path, const char *name,
		     struct exec_args *a, int depth);

/* f is a "#!" script: run its interpreter with the script's path in argv. f is ours to fput. */
static int exec_script(struct task *t, struct file *f, const char *path, const char *name,
		       struct exec_args *a, int depth, char *line)
{
	const char *newv[3];
	char *interp, *arg;
	struct file *interp_file;
	int n = 0, r;

	fput(f);
	if (depth >= SCRIPT_DEPTH_MAX)
		return -ELOOP;
	r = parse_script_line(line, &interp, &arg);
	if (r < 0)
		return r;
	newv[n++] = interp;
	if (arg)
		newv[n++] = arg;
	newv[n++] = path;
	r = args_replace_argv0(a, newv, n);
	if (r < 0)
		return r;
	r = exec_open(interp, &interp_file);
	if (r < 0)
		return r;
	/* The process keeps the script's name, as in Linux (its comm is the file execve was given). */
	return exec_file(t, interp_file, interp, name, a, depth + 1);
}

/*
 * The last step before the point of no return: the other threads of t's
 * group are killed and gone (t takes the leader's pid if it was not the
 * leader), and what t still shares with another process, descriptors and
 * handlers, becomes its own: the new program starts alone. -EINTR when t is
 * killed meanwhile, -ENOMEM.
 */
static int exec_leave_others(struct task *t)
{
	int r;

	if (t != current)
		return 0;               /* exec_kernel() of a task that never ran: nothing shared */
	r = thread_de_thread();
	if (r == 0)
		r = vfs_unshare_files(t);
	if (r == 0)
		r = signal_unshare(t);
	return r;
}

/* The common part: the program is open, the arguments are in kernel memory. Consumes f. */
static int exec_file(struct task *t, struct file *f, const char *path, const char *name,
		     struct exec_args *a, int depth)
{
	char line[SCRIPT_LINE_MAX + 1];
	struct elf_info info;
	struct mm *mm, *old;
	uint32_t esp = 0;
	ssize_t n;
	int r;

	n = kernel_read(f, line, SCRIPT_LINE_MAX, 0);
	if (n < 0) {
		fput(f);
		return (int)n;
	}
	line[n] = '\0';
	if (n >= 2 && line[0] == '#' && line[1] == '!')
		return exec_script(t, f, path, name, a, depth, line);
	mm = mm_create();
	if (!mm) {
		fput(f);
		return -ENOMEM;
	}
	/* Nothing is read but the headers: the segments map the file, their pages come on demand. */
	r = elf_load_file(mm, f, &info);
	fput(f);                        /* the file regions hold their own references */
	if (r == 0)
		r = mm_alloc_range(mm, USER_STACK_TOP - USER_STACK_SIZE, USER_STACK_TOP, PTE_W);
	if (r == 0)
		r = build_stack(mm, a, &info, &esp);
	if (r == 0)
		r = exec_leave_others(t);
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
	mm_put(old);                    /* a vfork parent may still be using it */
	vfs_proc_exec(t);               /* close-on-exec descriptors go now, not before: exec could still fail above */
	set_user_registers(task_trapframe(t), info.entry, esp);
	task_set_name(t, name);
	exec_info_install(t, exec_info_new(path, a->buf, a->argc));
	fork_exec_done(t);              /* handlers, TLS, a parent waiting in vfork (kernel/process/fork.c) */
	return 0;
}

int exec_kernel(struct task *t, const char *path, const char *const *argv, const char *const *envp)
{
	struct exec_args a = { NULL, 0, 0, 0 };
	struct file *f;
	int r;

	/* Look the program up before allocating: a missing one is -ENOENT even when memory is short. */
	r = exec_open(path, &f);
	if (r < 0)
		return r;
	a.buf = kmalloc(EXEC_ARG_MAX);
	r = a.buf ? 0 : -ENOMEM;
	for (int i = 0; r == 0 && argv && argv[i]; i++)
		r = args_add(&a, argv[i], &a.argc);
	for (int i = 0; r == 0 && envp && envp[i]; i++)
		r = args_add(&a, envp[i], &a.envc);
	if (r == 0)
		r = exec_file(t, f, path, basename(path), &a, 0);
	else
		fput(f);
	kfree(a.buf);
	return r;
}

/*
 * The path on the stack when it is short (no allocation before the lookup,
 * the common case), in a PATH_MAX buffer from the heap otherwise.
 */
static int exec_getname(const char *upath, char *small, size_t small_size, char **path)
{
	int r = strncpy_from_user(small, upath, small_size);

	*path = small;
	if (r == -ENAMETOOLONG) {
		*path = kmalloc(PATH_MAX);
		if (!*path)
			return -ENOMEM;
		r = strncpy_from_user(*path, upath, PATH_MAX);
	}
	if (r == 0)
		r = -ENOENT;
	if (r < 0 && *path != small)
		kfree(*path);
	return r < 0 ? r : 0;
}

long sys_execve(const char *upath, char *const *uargv, char *const *uenvp)
{
	char small[EXEC_PATH_MAX], *path;
	struct exec_args a = { NULL, 0, 0, 0 };
	struct file *f;
	int r = exec_getname(upath, small, sizeof(small), &path);

	if (r < 0)
		return r;
	/* Look the program up before allocating: a missing one is -ENOENT even when memory is short. */
	r = exec_open(path, &f);
	if (r < 0)
		goto out_path;
	a.buf = kmalloc(EXEC_ARG_MAX);
	if (!a.buf) {
		fput(f);
		r = -ENOMEM;
		goto out_path;
	}
	r = args_from_user(&a, (uintptr_t)uargv, &a.argc);
	if (r == 0)
		r = args_from_user(&a, (uintptr_t)uenvp, &a.envc);
	if (r == 0)
		r = exec_file(current, f, path, basename(path), &a, 0);
	else
		fput(f);
	kfree(a.buf);
out_path:
	if (path != small)
		kfree(path);
	return r;
}
