/*
 * Self-tests of the sleeps a signal may end (kernel/sched/waitqueue.h): the API
 * pipes and the tty use. A kernel thread sleeps; the test sends it signals
 * and looks at what its wait returned.
 */
#include "kernel/locking/atomic.h"
#include "kernel/errno.h"
#include "kernel/ktest.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/sched/task.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/uapi/errno.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/x86/fpu.h"

#define MS 1000000ULL

struct sleeper {
	struct thread_group g;
	struct wait_queue wq;
	struct task *task;
	volatile bool cond;
	volatile bool asleep;
	volatile int result;
	bool killable;                  /* wait_event_killable instead of _interruptible */
	k_sigset_t block;               /* signals it blocks before sleeping */
};

static int sleeper_fn(void *arg)
{
	struct sleeper *s = arg;
	int r;

	s->task = current;
	/* A handler address (never run: kernel threads do not return to user mode) makes SIGUSR1 non-fatal. */
	current->sighand->action[SIGUSR1 - 1].sa_handler = 0x1000;
	signal_set_blocked(current, s->block);
	WRITE_ONCE(s->asleep, true);
	if (s->killable)
		r = wait_event_killable(s->wq, s->cond);
	else
		r = wait_event_interruptible(s->wq, s->cond);
	WRITE_ONCE(s->result, r);
	return group_exit(&s->g);
}

/* Start the sleeper and wait until it is asleep on its queue. */
static bool start_sleeper(struct sleeper *s, bool killable, k_sigset_t block)
{
	s->killable = killable;
	s->block = block;
	s->cond = s->asleep = false;
	s->result = 1;
	group_init(&s->g);
	wait_queue_init(&s->wq, "ktest-sleeper");
	if (!group_start(&s->g, sleeper_fn, s, "sleeper", -1))
		return false;
	for (int i = 0; i < 200; i++) {
		if (READ_ONCE(s->asleep) && READ_ONCE(s->task->state) == TASK_SLEEPING)
			return true;
		sched_sleep_ns(MS);
	}
	return false;
}

/* Is it still asleep after 30 ms? */
static bool still_asleep(struct sleeper *s)
{
	sched_sleep_ns(30 * MS);
	return READ_ONCE(s->result) == 1;
}

static void finish(struct sleeper *s)
{
	s->cond = true;
	wake_up(&s->wq);
	group_wait(&s->g);
}

KTEST(signal_ends_interruptible_wait)
{
	static struct sleeper s;

	KT_ASSERT(start_sleeper(&s, false, 0));
	signal_send(s.task, SIGUSR1);
	group_wait(&s.g);
	KT_ASSERT_EQ(s.result, -ERESTARTSYS);
}

KTEST(signal_blocked_does_not_end_wait)
{
	static struct sleeper s;

	KT_ASSERT(start_sleeper(&s, false, SIGBIT(SIGUSR1)));
	signal_send(s.task, SIGUSR1);
	KT_ASSERT(still_asleep(&s));
	finish(&s);
	KT_ASSERT_EQ(s.result, 0);
}

KTEST(signal_killable_wait_ends_only_when_fatal)
{
	static struct sleeper s;

	KT_ASSERT(start_sleeper(&s, true, 0));
	signal_send(s.task, SIGUSR1);           /* has a "handler": not fatal */
	KT_ASSERT(still_asleep(&s));
	signal_send(s.task, SIGKILL);
	group_wait(&s.g);
	KT_ASSERT_EQ(s.result, -EINTR);
}

/*
 * The si_code of a SIMD exception (#XM) comes from MXCSR: flags whose mask
 * bit is clear. QEMU's TCG (before 8.1) never raises #XM, so the guest tests
 * cannot reach this through a real fault; here it is fed MXCSR values directly.
 */
KTEST(signal_simd_fault_code_from_mxcsr)
{
	uint32_t saved, zero_divide = 0x1F80 & ~0x0200, invalid_and_zd = 0x1F80 & ~0x0280;

	if (!fpu_has_fxsr())
		return;         /* no SSE on this CPU: nothing to decode */
	__asm__ volatile("stmxcsr %0" : "=m"(saved));
	zero_divide |= 0x0004;                  /* ZE raised, ZM clear */
	__asm__ volatile("ldmxcsr %0" : : "m"(zero_divide));
	KT_ASSERT_EQ(fpu_simd_fault_code(), FPE_FLTDIV);
	invalid_and_zd |= 0x0005;               /* IE and ZE raised, both unmasked: invalid wins, as in Linux */
	__asm__ volatile("ldmxcsr %0" : : "m"(invalid_and_zd));
	KT_ASSERT_EQ(fpu_simd_fault_code(), FPE_FLTINV);
	__asm__ volatile("ldmxcsr %0" : : "m"(saved));
}
