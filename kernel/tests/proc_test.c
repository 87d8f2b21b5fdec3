/* Self-tests of processes started from the kernel: exit status, fault deaths, no leaked frames. */
#include "kernel/process/exec.h"
#include "kernel/ktest.h"
#include "kernel/locking/atomic.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/pmm.h"
#include "kernel/process/proc.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/tests/ktest_memory.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/signal.h"
#include "kernel/uapi/wait.h"

static int run_helper(const char *const *argv, int *status)
{
	int pid = proc_spawn("/bin/uhelper", argv);

	if (pid < 0)
		return pid;
	return proc_wait(pid, status) == pid ? 0 : -ECHILD;
}

KTEST(proc_spawn_exit_status)
{
	const char *const argv[] = { "uhelper", "exit", "42", NULL };
	int status = 0;

	KT_ASSERT_EQ(run_helper(argv, &status), 0);
	KT_ASSERT(WIFEXITED(status));
	KT_ASSERT_EQ(WEXITSTATUS(status), 42);
	KT_ASSERT_EQ(proc_spawn("/bin/nonexistent", argv), -ENOENT);
}

KTEST(proc_segfault_kills_only_the_process)
{
	const char *const argv[] = { "uhelper", "segv", NULL };
	int status = 0;

	KT_ASSERT_EQ(run_helper(argv, &status), 0);
	KT_ASSERT(WIFSIGNALED(status));
	KT_ASSERT_EQ(WTERMSIG(status), SIGSEGV);
}

KTEST(proc_fork_exit_frees_every_frame)
{
	const char *const warm[] = { "uhelper", "forkloop", "2", NULL };
	const char *const argv[] = { "uhelper", "forkloop", "40", NULL };
	unsigned before;
	int status = -1;

	/* One round first, so the heap and the scheduler have their long-lived pages. */
	KT_ASSERT_EQ(run_helper(warm, &status), 0);
	KT_ASSERT_EQ(status, 0);
	before = pmm_free_count();
	KT_ASSERT_EQ(run_helper(argv, &status), 0);
	KT_ASSERT_EQ(status, 0);
	KT_ASSERT_EQ(pmm_free_count(), before);
}

/* A kernel thread that starts a process and exits without waiting: the orphan must not leak. */
static int spawn_and_leave(void *unused)
{
	const char *const argv[] = { "uhelper", "exit", "0", NULL };

	proc_spawn("/bin/uhelper", argv);
	return 0;
}

KTEST(proc_orphan_of_exited_kthread_is_freed)
{
	unsigned long before, after = 0;

	sched_sleep_ns(20 * 1000 * 1000);
	before = frames_in_hand();
	KT_ASSERT(kthread_create(spawn_and_leave, NULL, "spawner") != NULL);
	for (int i = 0; i < 500 && after != before; i++) {     /* up to 5 s: a loaded host is slow */
		sched_sleep_ns(10 * 1000 * 1000);
		after = frames_in_hand();
	}
	KT_ASSERT_EQ(after, before);
}

/*
 * The same, in the order that leaked: the child exits first and becomes a
 * zombie of the kernel thread, which then exits without reaping it. With
 * no init (ktest mode) nobody adopts it: the kernel thread's exit must free it.
 */
static volatile bool child_exited_first;

static int spawn_wait_for_zombie_and_leave(void *unused)
{
	const char *const argv[] = { "uhelper", "exit", "0", NULL };
	int pid = proc_spawn("/bin/uhelper", argv);
	/* Our child: only we could reap it, so the pointer stays good while we live. */
	struct task *c = pid > 0 ? task_find(pid) : NULL;

	for (int i = 0; c && i < 500; i++) {
		/* Exited and switched out for good: now only a zombie on our children list. */
		if (READ_ONCE(c->state) == TASK_ZOMBIE && !READ_ONCE(c->on_cpu)) {
			child_exited_first = true;
			break;
		}
		sched_sleep_ns(10 * 1000 * 1000);
	}
	return 0;
}

KTEST(proc_zombie_of_exited_kthread_is_freed)
{
	unsigned long before, after = 0;

	sched_sleep_ns(20 * 1000 * 1000);
	child_exited_first = false;
	before = frames_in_hand();
	KT_ASSERT(kthread_create(spawn_wait_for_zombie_and_leave, NULL, "spawner") != NULL);
	for (int i = 0; i < 1000 && after != before; i++) {    /* up to 10 s: the spawner polls for 5 */
		sched_sleep_ns(10 * 1000 * 1000);
		after = frames_in_hand();
	}
	KT_ASSERT(child_exited_first);
	KT_ASSERT_EQ(after, before);
}

/* exec looks the program up before it allocates: a missing one is -ENOENT, not -ENOMEM. */
KTEST(proc_exec_missing_is_enoent_without_memory)
{
	const char *const argv[] = { "nope", NULL };
	struct task *t = task_alloc("nomem");
	unsigned before;
	physaddr_t hog;
	int r;

	KT_ASSERT(t != NULL);
	before = pmm_free_count();
	hog = ktest_hog_all_frames();
	KT_ASSERT_EQ(pmm_free_count(), 0);
	r = exec_kernel(t, "/bin/nope", argv, NULL);
	ktest_free_hogged_frames(hog);
	task_free(t);
	KT_ASSERT(pmm_free_count() >= before);
	KT_ASSERT_EQ(r, -ENOENT);
}
