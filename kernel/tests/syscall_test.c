/* Self-tests of the syscall table and dispatcher that need no process. */
#include "kernel/locking/bkl.h"
#include "kernel/era.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/dispatch.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/unistd.h"
#include "kernel/x86/trap.h"

static const struct syscall_desc *find(const char *name)
{
	for (unsigned i = 0; i < syscall_table_len; i++)
		if (strcmp(syscall_table[i].name, name) == 0)
			return &syscall_table[i];
	return NULL;
}

KTEST(syscall_numbers_are_linux_i386)
{
	/* A few numbers checked against syscall_32.tbl by hand, so a typo cannot hide. */
	KT_ASSERT_EQ(find("exit")->nr, 1);
	KT_ASSERT_EQ(find("fork")->nr, 2);
	KT_ASSERT_EQ(find("write")->nr, 4);
	KT_ASSERT_EQ(find("execve")->nr, 11);
	KT_ASSERT_EQ(find("getpid")->nr, 20);
	KT_ASSERT_EQ(find("brk")->nr, 45);
	KT_ASSERT_EQ(find("ioctl")->nr, 54);
	KT_ASSERT_EQ(find("wait4")->nr, 114);
	KT_ASSERT_EQ(find("nanosleep")->nr, 162);
	KT_ASSERT_EQ(find("sched_getaffinity")->nr, 242);
	KT_ASSERT_EQ(find("exit_group")->nr, 252);
	KT_ASSERT_EQ(find("clock_gettime")->nr, 265);
	KT_ASSERT(find("ioctl")->fn != NULL);          /* fs/ioctl/ioctl.c */
	KT_ASSERT_EQ(find("open")->nr, 5);
	KT_ASSERT_EQ(find("stat64")->nr, 195);
	KT_ASSERT_EQ(find("getdents64")->nr, 220);
	KT_ASSERT_EQ(find("openat")->nr, 295);
	KT_ASSERT(!(find("read")->flags & SYS_BKL));   /* the VFS has its own locks */
#ifdef CONFIG_BKL
	KT_ASSERT(find("reboot")->flags & SYS_BKL);
#endif
	KT_ASSERT(!(find("getpid")->flags & SYS_BKL));
}

static uint32_t dispatch(uint32_t nr)
{
	struct trapframe tf;

	memset(&tf, 0, sizeof(tf));
	tf.trapno = T_SYSCALL;
	tf.eax = nr;
	syscall_dispatch(&tf);
	return tf.eax;
}

#ifdef CONFIG_BKL       /* make ERA=2.6.39: no BKL, no BKL flag */
/* Outermost lock_kernel() calls made by the dispatcher so far. */
static uint64_t dispatcher_bkl_count(void)
{
	uint64_t n = 0;

	for (struct bkl_site *s = bkl_sites_begin(); s < bkl_sites_end(); s++)
		if (strcmp(s->file, "kernel/syscall/dispatch.c") == 0)
			n += s->acquisitions;
	return n;
}

/* SYS_BKL entries run under the BKL; others only with bkl=syscalls (the harness boots both ways). */
KTEST(syscall_bkl_flag_takes_the_bkl)
{
	uint64_t start = dispatcher_bkl_count(), after_reboot;
	uint32_t pid;

	KT_ASSERT_EQ(dispatch(__NR_reboot), (uint32_t)-EINVAL);     /* no magic: refused */
	after_reboot = dispatcher_bkl_count();
	KT_ASSERT_EQ(after_reboot, start + 1);
	pid = dispatch(__NR_getpid);
	KT_ASSERT(pid > 0);
	KT_ASSERT_EQ(dispatcher_bkl_count(), after_reboot + (syscall_all_under_bkl() ? 1 : 0));
	/* read() (fd 0: a kernel thread has none) takes it only in era=2.2, as 2.2's sys_read did. */
	start = dispatcher_bkl_count();
	KT_ASSERT_EQ(dispatch(__NR_read), (uint32_t)-EBADF);
	KT_ASSERT_EQ(dispatcher_bkl_count(), start + (syscall_all_under_bkl() || era_now() == ERA_2_2 ? 1 : 0));
	KT_ASSERT(!kernel_locked());
}
#endif

KTEST(syscall_unknown_numbers_enosys)
{
	unsigned unknown = syscall_unknown_count(), ioctls = syscall_count(__NR_ioctl);

	KT_ASSERT_EQ(dispatch(9999), (uint32_t)-ENOSYS);
	KT_ASSERT_EQ(dispatch(500), (uint32_t)-ENOSYS);
	KT_ASSERT_EQ(dispatch(NR_SYSCALLS), (uint32_t)-ENOSYS);
	KT_ASSERT_EQ(dispatch(0xFFFFFFFF), (uint32_t)-ENOSYS);
	KT_ASSERT_EQ(dispatch(17), (uint32_t)-ENOSYS);              /* break: obsolete, in Linux too */
	KT_ASSERT_EQ(dispatch(__NR_ioctl), (uint32_t)-EBADF);      /* known: a kernel thread has no fds */
	KT_ASSERT_EQ(syscall_unknown_count(), unknown + 5);
	KT_ASSERT_EQ(syscall_count(__NR_ioctl), ioctls + 1);
}
