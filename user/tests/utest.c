/*
 * /bin/utest: the user-mode test suite. Each test prints "utest: NAME ok" or
 * "utest: NAME FAIL why"; the last line is a summary. tools/test/cases/40_user.py
 * boots with init=/bin/utest and reads them. Run as init, it also tests
 * adoption of orphans.
 */
#include "ulib.h"

#define BAD_NULL   ((void *)0)
#define BAD_KERNEL ((void *)0xC0000000)
#define BAD_UNMAP  ((void *)0x40000000)          /* nothing is ever mapped there */
#define BAD_WRAP   ((void *)0xFFFFFFF0)

static int passed, failed;
static const char *failure;
static char why[96];

#define CHECK(cond)                                                                     \
	do {                                                                            \
		if (!(cond)) {                                                          \
			snprintf(why, sizeof(why), "line %d: %s", __LINE__, #cond);     \
			failure = why;                                                  \
			return;                                                         \
		}                                                                       \
	} while (0)

static void run(const char *name, void (*fn)(void))
{
	failure = 0;
	fn();
	if (failure) {
		printf("utest: %s FAIL %s\n", name, failure);
		failed++;
	} else {
		printf("utest: %s ok\n", name);
		passed++;
	}
}

/* Fork a child that runs fn then exits 0; wait and return its status (or -errno). */
static int in_child(void (*fn)(void))
{
	int pid = fork(), status = -1;

	if (pid == 0) {
		fn();
		exit(0);
	}
	if (pid < 0)
		return pid;
	if (waitpid(pid, &status, 0) != pid)
		return -1000;
	return status;
}

static void t_write_console(void)
{
	CHECK(write(1, "utest: hello from user mode\n", 28) == 28);
	CHECK(write(2, "", 0) == 0);
	CHECK(write(7, "x", 1) == -EBADF);
	CHECK(read(7, why, 1) == -EBADF);       /* fd 0 is /dev/console now: a read would wait for input */
}

static void t_getpid(void)
{
	int me = getpid(), pid, status;

	CHECK(me == 1);         /* the harness boots utest as init, which is pid 1 */
	CHECK(getppid() == 0);
	pid = fork();
	if (pid == 0)
		exit(getppid() == me ? 0 : 1);
	CHECK(pid > 0 && pid != me);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void t_fork_exec_wait(void)
{
	char *argv[] = { "uhelper", "exit", "42", 0 };
	int pid = fork(), status = 0;

	if (pid == 0) {
		execve("/bin/uhelper", argv, 0);
		exit(99);               /* exec failed */
	}
	CHECK(pid > 0);
	CHECK(wait4(pid, &status, 0, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK(!WIFSIGNALED(status));
	CHECK(WEXITSTATUS(status) == 42);
	CHECK(wait4(pid, &status, 0, 0) == -ECHILD);    /* reaped: gone */
	CHECK(wait4(-1, &status, WNOHANG, 0) == -ECHILD);
}

static void t_exec_many_args(void)
{
	static char strs[300][8];
	static char *argv[301];
	char *envp[] = { "E0=zero", "E1=one", 0 };
	int n = 300, pid, status;

	argv[0] = "uhelper";
	argv[1] = "checkargs";
	argv[2] = "300";
	for (int i = 3; i < n; i++) {
		snprintf(strs[i], sizeof(strs[i]), "arg%d", i);
		argv[i] = strs[i];
	}
	argv[n] = 0;
	pid = fork();
	if (pid == 0) {
		execve("/bin/uhelper", argv, envp);
		exit(98);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK(WEXITSTATUS(status) == 0);
}

static void t_exec_errors(void)
{
	char *argv[] = { "uhelper", "exit", "1", 0 };
	char *bad_argv[] = { "uhelper", BAD_KERNEL, 0 };

	CHECK(execve("/bin/no-such-program", argv, 0) == -ENOENT);
	CHECK(execve(BAD_NULL, argv, 0) == -EFAULT);
	CHECK(execve(BAD_KERNEL, argv, 0) == -EFAULT);
	CHECK(execve(BAD_UNMAP, argv, 0) == -EFAULT);
	CHECK(execve(BAD_WRAP, argv, 0) == -EFAULT);
	CHECK(execve("/bin/uhelper", BAD_KERNEL, 0) == -EFAULT);
	CHECK(execve("/bin/uhelper", BAD_UNMAP, 0) == -EFAULT);
	CHECK(execve("/bin/uhelper", BAD_WRAP, 0) == -EFAULT);
	CHECK(execve("/bin/uhelper", bad_argv, 0) == -EFAULT);
	CHECK(execve("/bin/uhelper", argv, BAD_KERNEL) == -EFAULT);
	CHECK(execve("/bin/uhelper", argv, BAD_UNMAP) == -EFAULT);
	/* Still here, still the same program: a failed exec changes nothing. */
	CHECK(getpid() > 0);
}

static void t_efault_write(void)
{
	char *brk0 = brk(0);

	CHECK(write(1, BAD_NULL, 4) == -EFAULT);
	CHECK(write(1, BAD_KERNEL, 4) == -EFAULT);
	CHECK(write(1, (void *)0xC0100000, 4) == -EFAULT);
	CHECK(write(1, BAD_UNMAP, 4) == -EFAULT);
	CHECK(write(1, BAD_WRAP, 0x20) == -EFAULT);
	CHECK(write(1, (void *)0xBFFFFFF0, 0x20) == -EFAULT);  /* runs into the kernel */
	/*
	 * Starts in the heap and runs off its end. NUL bytes print nothing; the
	 * first 256-byte chunk is written, the second faults: a short write.
	 */
	CHECK(brk(brk0 + 4096) == brk0 + 4096);
	memset(brk0, 0, 4096);
	CHECK(write(1, brk0 + 4096 - 300, 600) == 256);
	CHECK(write(1, brk0 + 4096 - 2, 600) == -EFAULT);
	CHECK(brk(brk0) == brk0);
}

static void t_efault_wait4(void)
{
	int pid = fork(), status = 0;

	if (pid == 0)
		exit(3);
	CHECK(pid > 0);
	CHECK(wait4(pid, BAD_KERNEL, 0, 0) == -EFAULT);
	CHECK(wait4(pid, BAD_UNMAP, 0, 0) == -EFAULT);
	CHECK(wait4(pid, BAD_WRAP, 0, 0) == -EFAULT);
	CHECK(wait4(pid, &status, 0, BAD_KERNEL) == -EFAULT);
	CHECK(waitpid(pid, BAD_UNMAP, 0) == -EFAULT);
	/* A bad pointer lost no child: it is still there to collect. */
	CHECK(wait4(pid, &status, 0, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
}

static void t_efault_nanosleep(void)
{
	struct timespec ts = { 0, 1000000 }, bad = { 0, 1000000000 };

	CHECK(nanosleep(BAD_NULL, 0) == -EFAULT);
	CHECK(nanosleep(BAD_KERNEL, 0) == -EFAULT);
	CHECK(nanosleep(BAD_UNMAP, 0) == -EFAULT);
	CHECK(nanosleep(BAD_WRAP, 0) == -EFAULT);
	CHECK(nanosleep(&bad, 0) == -EINVAL);
	CHECK(nanosleep(&ts, 0) == 0);
}

static void t_efault_affinity(void)
{
	uint32_t mask = 0;

	CHECK(sched_getaffinity(0, 4, BAD_NULL) == -EFAULT);
	CHECK(sched_getaffinity(0, 4, BAD_KERNEL) == -EFAULT);
	CHECK(sched_getaffinity(0, 4, BAD_UNMAP) == -EFAULT);
	CHECK(sched_getaffinity(0, 4, (void *)0xFFFFFFFE) == -EFAULT);
	CHECK(sched_setaffinity(0, 4, BAD_NULL) == -EFAULT);
	CHECK(sched_setaffinity(0, 4, BAD_KERNEL) == -EFAULT);
	CHECK(sched_setaffinity(0, 4, BAD_WRAP) == -EFAULT);
	CHECK(sched_getaffinity(0, 2, &mask) == -EINVAL);
	CHECK(sched_getaffinity(0, 4, &mask) == 4);
	CHECK(mask & 1);
}

static void t_clock_gettime(void)
{
	struct timespec a, b, s = { 0, 20000000 };
	long long ns;

	CHECK(clock_gettime(CLOCK_MONOTONIC, &a) == 0);
	CHECK(a.tv_nsec >= 0 && a.tv_nsec < 1000000000);
	CHECK(nanosleep(&s, 0) == 0);
	CHECK(clock_gettime(CLOCK_MONOTONIC, &b) == 0);
	ns = (long long)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
	CHECK(ns >= 20000000);          /* nanosleep slept at least as long as asked */
	CHECK(clock_gettime(CLOCK_MONOTONIC, BAD_NULL) == -EFAULT);
	CHECK(clock_gettime(CLOCK_MONOTONIC, BAD_KERNEL) == -EFAULT);
	CHECK(clock_gettime(CLOCK_MONOTONIC, BAD_UNMAP) == -EFAULT);
	CHECK(clock_gettime(CLOCK_MONOTONIC, (void *)0xFFFFFFFC) == -EFAULT);
	CHECK(clock_gettime(12345, &a) == -EINVAL);
	/* The wall clock starts from the RTC: a date after 2023-11, and it runs with the monotonic one. */
	CHECK(clock_gettime(CLOCK_REALTIME, &a) == 0);
	CHECK(a.tv_sec > 1700000000);
	CHECK(nanosleep(&s, 0) == 0);
	CHECK(clock_gettime(CLOCK_REALTIME_COARSE, &b) == 0);
	ns = (long long)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
	CHECK(ns >= 20000000 && ns < 5000000000LL);
	CHECK(clock_gettime(CLOCK_BOOTTIME, &a) == 0 && clock_gettime(CLOCK_MONOTONIC_RAW, &b) == 0);
	CHECK(clock_gettime(CLOCK_REALTIME, BAD_KERNEL) == -EFAULT);
}

static void t_affinity(void)
{
	uint32_t all = 0, one = 1, got = 0, none = 0;

	CHECK(sched_getaffinity(0, 4, &all) == 4);
	CHECK(sched_setaffinity(0, 4, &one) == 0);
	CHECK(sched_getaffinity(0, 4, &got) == 4);
	CHECK(got == 1);
	CHECK(sched_setaffinity(0, 4, &none) == -EINVAL);
	CHECK(sched_setaffinity(99999, 4, &one) == -ESRCH);
	CHECK(sched_setaffinity(0, 4, &all) == 0);
	CHECK(sched_getaffinity(0, 4, &got) == 4 && got == all);
}

static void t_enosys(void)
{
	CHECK(syscall(9999, 0) == -ENOSYS);
	CHECK(syscall(500, 0) == -ENOSYS);
	CHECK(syscall(0x7FFFFFFF, 0) == -ENOSYS);
	CHECK(syscall(-1, 0) == -ENOSYS);
	CHECK(syscall(__NR_ioctl, 1, 0, 0) == -ENOTTY);         /* the console has no commands of its own */
	CHECK(syscall(__NR_reboot, 0, 0, 0, 0) == -EINVAL);
}

/* The kernel log through syslog(2) (as dmesg reads it): errors as Linux gives them, and the boot lines. */
static char logbuf[65536];

static int log_has(const char *buf, long n, const char *needle)
{
	long k = (long)strlen(needle);

	for (long i = 0; i + k <= n; i++)
		if (memcmp(buf + i, needle, (size_t)k) == 0)
			return 1;
	return 0;
}

static void t_syslog(void)
{
	long n;

	CHECK(syscall(__NR_syslog, 10, 0, 0) == (long)sizeof(logbuf));        /* SIZE_BUFFER */
	CHECK(syscall(__NR_syslog, 3, 0, 10) == -EINVAL);                       /* READ_ALL into NULL */
	CHECK(syscall(__NR_syslog, 3, logbuf, -1) == -EINVAL);
	CHECK(syscall(__NR_syslog, 3, logbuf, 0) == 0);
	CHECK(syscall(__NR_syslog, 3, 0xC0100000, 100) == -EFAULT);            /* kernel memory */
	CHECK(syscall(__NR_syslog, 99, logbuf, 10) == -EINVAL);
	CHECK(syscall(__NR_syslog, 8, 0, 9) == -EINVAL);                        /* CONSOLE_LEVEL 9 */
	CHECK(syscall(__NR_syslog, 2, logbuf, 0) == 0);                         /* READ of nothing */
	n = syscall(__NR_syslog, 3, logbuf, sizeof(logbuf));
	CHECK(n > 0 && n <= (long)sizeof(logbuf));
	CHECK(log_has(logbuf, n, "CPUs online\n"));
	CHECK(log_has(logbuf, n, "<6>["));
	/* READ consumes: what it returned is no longer unread. */
	CHECK(syscall(__NR_syslog, 9, 0, 0) > 0);
	n = syscall(__NR_syslog, 2, logbuf, sizeof(logbuf));
	CHECK(n > 0);
	CHECK(syscall(__NR_syslog, 9, 0, 0) < n);
}

static void segv_null(void) { *(volatile int *)0 = 1; }
static void segv_kernel(void) { *(volatile int *)0xC0100000 = 1; }
static void read_kernel(void) { (void)*(volatile int *)0xC0100000; }
static void do_cli(void) { __asm__ volatile("cli"); }
static void do_hlt(void) { __asm__ volatile("hlt"); }
static void do_ud2(void) { __asm__ volatile("ud2"); }
static void do_div0(void) { __asm__ volatile("xorl %%ecx, %%ecx; divl %%ecx" ::: "eax", "ecx", "edx"); }
static void write_text(void) { *(volatile char *)0x08048100 = 0; }

static void t_segv_null(void)
{
	int st = in_child(segv_null);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	CHECK(getpid() > 0);    /* the parent lives on */
}

static void t_kernel_memory(void)
{
	int st = in_child(segv_kernel);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	st = in_child(read_kernel);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	st = in_child(write_text);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
}

static void t_privileged(void)
{
	int st = in_child(do_cli);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	st = in_child(do_hlt);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
}

static void t_other_faults(void)
{
	int st = in_child(do_ud2);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGILL);
	st = in_child(do_div0);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGFPE);
}

static volatile int shared_var = 1;

static void t_isolation(void)
{
	int pid, status;

	shared_var = 1;
	pid = fork();
	if (pid == 0) {
		msleep(20);             /* the parent writes 3 meanwhile: we must not see it */
		int mine = shared_var;
		shared_var = 2;
		exit(mine);
	}
	shared_var = 3;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	CHECK(shared_var == 3); /* and the child's 2 never reached us */
}

static void t_brk(void)
{
	char *b0 = brk(0), *p;

	CHECK(b0 != 0 && ((uint32_t)b0 & 0xFFF) == 0);
	CHECK(brk(b0 + 10000) == b0 + 10000);
	for (p = b0; p < b0 + 10000; p++)
		*p = (char)(p - b0);
	CHECK(b0[9999] == (char)9999);
	CHECK(brk(b0 + 100) == b0 + 100);
	CHECK(brk(b0 - 4096) == b0 + 100);     /* below the start: refused, break unchanged */
	CHECK(brk((void *)0xC0000000) == b0 + 100);
	CHECK(brk(b0 + 8192) == b0 + 8192);
	CHECK(b0[5000] == 0);                   /* grown again: fresh zeroed memory */
	CHECK(brk(b0) == b0);
}

static char *shrink_base;
static void touch_after_shrink(void) { shrink_base[5000] = 1; }

static void t_brk_shrink_unmaps(void)
{
	int st;

	shrink_base = brk(0);
	CHECK(brk(shrink_base + 8192) == shrink_base + 8192);
	CHECK(brk(shrink_base) == shrink_base);
	st = in_child(touch_after_shrink);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
}

static void t_kill(void)
{
	int pid, status;

	pid = fork();
	if (pid == 0)
		for (;;)
			;               /* never makes a syscall: killed on a timer interrupt */
	CHECK(pid > 0);
	msleep(10);
	CHECK(kill(pid, SIGTERM) == 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);

	pid = fork();
	if (pid == 0) {
		msleep(100000);         /* killed in its sleep */
		exit(0);
	}
	msleep(10);
	CHECK(kill(pid, SIGKILL) == 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	pid = fork();
	if (pid == 0)
		for (;;)
			sched_yield();  /* killed on its way back from a system call */
	CHECK(kill(pid, SIGINT) == 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);

	CHECK(kill(pid, SIGTERM) == -ESRCH);
	CHECK(kill(getpid(), 99) == -EINVAL);
	CHECK(kill(getpid(), SIGCHLD) == 0);    /* ignored by default: we live on */
	CHECK(kill(getpid(), 0) == 0);
}

static void t_orphan_adopted(void)
{
	int me = getpid(), child, grandchild, status, low;

	if (getppid() != 0) {
		printf("utest: (orphan test needs to run as init; pid %d is not)\n", me);
		return;
	}
	child = fork();
	if (child == 0) {
		int g = fork();
		if (g == 0) {
			msleep(50);     /* by now our parent is gone: init must have adopted us */
			exit(getppid() == me ? 0 : 1);
		}
		exit(g > 0 ? (g & 0xFF) : 0);
	}
	CHECK(waitpid(child, &status, 0) == child);
	low = WEXITSTATUS(status);
	CHECK(low != 0);
	/* The grandchild is ours now: waiting for any child must find it. */
	grandchild = wait4(-1, &status, 0, 0);
	CHECK(grandchild > 0 && (grandchild & 0xFF) == low);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void t_wait_echild(void)
{
	int st;

	CHECK(wait4(-1, &st, 0, 0) == -ECHILD);
	CHECK(wait4(12345, &st, 0, 0) == -ECHILD);
	CHECK(wait4(-1, &st, 4 /* WEXITED: waitid only */, 0) == -EINVAL);
}

static void t_many_forks(void)
{
	for (int i = 0; i < 100; i++) {
		int pid = fork(), st;

		if (pid == 0)
			exit(i & 0x7F);
		CHECK(pid > 0);
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == (i & 0x7F));
	}
}

static volatile int cow_counter;

/* One worker: fork and reap children that each write the page we share with them. */
static int fork_worker(int id)
{
	for (int i = 0; i < 25; i++) {
		int pid = fork(), st;

		if (pid == 0) {
			cow_counter = id * 100 + i;     /* a COW break in the child */
			exit(cow_counter == id * 100 + i ? 0 : 1);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || st != 0)
			return 1;
		cow_counter = i;                        /* and one in the worker */
	}
	return cow_counter == 24 ? 0 : 1;
}

/* Four workers at once, on as many CPUs as there are: fork, COW and reaping in parallel. */
static void t_parallel_forks(void)
{
	int pids[4], st;

	cow_counter = -1;
	for (int w = 0; w < 4; w++) {
		pids[w] = fork();
		if (pids[w] == 0)
			exit(fork_worker(w + 1));
		CHECK(pids[w] > 0);
	}
	for (int w = 0; w < 4; w++) {
		CHECK(waitpid(pids[w], &st, 0) == pids[w]);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	CHECK(cow_counter == -1);       /* nobody's writes reached us */
}

static void t_stack_aligned(void)
{
	CHECK(initial_esp % 16 == 0);
	CHECK(initial_esp > 0xB0000000 && initial_esp < 0xC0000000);
}

/* A child that leaves the FPU full of its own values and a different rounding mode. */
static void fpu_scribble(void)
{
	uint16_t cw = 0x0C7F;           /* single precision, round toward zero */
	long long junk = 0x1111111111111111LL;

	__asm__ volatile("fninit; fldcw %0; fildll %1; fildll %1; fildll %1" : : "m"(cw), "m"(junk));
	sched_yield();
}

/* Each process has its own x87 registers: children scribbling on theirs leave ours alone. */
static void t_fpu_isolation(void)
{
	long long mine = 0x0123456789ABCDEFLL, back = 0;
	uint16_t cw_before, cw_after;

	__asm__ volatile("fninit; fildll %0" : : "m"(mine));
	__asm__ volatile("fnstcw %0" : "=m"(cw_before));
	for (int i = 0; i < 4; i++)
		CHECK(in_child(fpu_scribble) == 0);
	__asm__ volatile("fnstcw %0" : "=m"(cw_after));
	__asm__ volatile("fistpll %0" : "=m"(back));
	CHECK(back == mine);
	CHECK(cw_after == cw_before);
}

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define CLOCK_PROCESS_CPUTIME_ID 2       /* Linux's: the CPU time this process has used */

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Spin for 300 ms of wall time; exit with the share of it that was our CPU
 * time, in percent. (The kernel's own accounting: time QEMU loses to a busy
 * host counts for whoever ran, so it does not skew the share.)
 */
static void spin_and_measure(void)
{
	long long wall0 = mono_ns(), cpu0 = cpu_ns(), wall;

	do
		wall = mono_ns() - wall0;
	while (wall < 300000000LL);
	exit((int)((cpu_ns() - cpu0) * 100 / wall));
}

/*
 * With everyone else asleep (we wait in waitpid), a spinning process must get
 * the CPU, even at -smp 1: no runnable kernel thread may halt it (a boot
 * thread that waited in a "sti; hlt" loop once left it 52%).
 */
static void t_cpu_share(void)
{
	int best = 0;

	/* The best of three: the bug took half the CPU every time, a busy host only now and then. */
	for (int i = 0; i < 3 && best < 80; i++) {
		int pid = fork(), st;

		if (pid == 0)
			spin_and_measure();
		CHECK(pid > 0);
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st));
		if (WEXITSTATUS(st) > best)
			best = WEXITSTATUS(st);
	}
	printf("utest: (a spinning process got %d%% of its CPU)\n", best);
	CHECK(best >= 80);
}

int main(int argc, char **argv)
{
	printf("utest: starting as pid %d\n", getpid());
	run("write_console", t_write_console);
	run("stack_aligned", t_stack_aligned);
	run("getpid_getppid", t_getpid);
	run("fork_exec_wait", t_fork_exec_wait);
	run("exec_many_args", t_exec_many_args);
	run("exec_errors", t_exec_errors);
	run("efault_write", t_efault_write);
	run("efault_wait4", t_efault_wait4);
	run("efault_nanosleep", t_efault_nanosleep);
	run("efault_affinity", t_efault_affinity);
	run("affinity", t_affinity);
	run("clock_gettime", t_clock_gettime);
	run("enosys", t_enosys);
	run("syslog", t_syslog);
	run("segv_null", t_segv_null);
	run("kernel_memory", t_kernel_memory);
	run("privileged", t_privileged);
	run("other_faults", t_other_faults);
	run("isolation", t_isolation);
	run("brk", t_brk);
	run("brk_shrink_unmaps", t_brk_shrink_unmaps);
	run("kill", t_kill);
	run("wait_echild", t_wait_echild);
	run("orphan_adopted", t_orphan_adopted);
	run("many_forks", t_many_forks);
	run("parallel_forks", t_parallel_forks);
	run("fpu_isolation", t_fpu_isolation);
	run("cpu_share", t_cpu_share);
	printf("utest: summary %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
