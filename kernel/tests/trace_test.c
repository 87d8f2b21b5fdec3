/*
 * Self-tests of the event trace: each kind of event, provoked on purpose, is
 * found in the rings, in the order it happened. What is checked is the
 * events and their order, never their timing.
 */
#include "fs/file.h"
#include "fs/vfs.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/locking/bkl.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/task.h"
#include "kernel/syscall/dispatch.h"
#include "kernel/tests/ktest_threads.h"
#include "kernel/time/timer.h"
#include "kernel/trace/trace.h"
#include "kernel/uapi/bench.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/unistd.h"
#include "kernel/x86/trap.h"

#ifdef CONFIG_BKL        /* its events are the BKL's: nothing to trace in make ERA=2.6.39 */

#define HANDOFF_TIMEOUT_NS (10 * 1000 * 1000 * 1000ULL)     /* a loaded host may keep a vCPU off for seconds */

static spinlock_t trace_test_lock = SPINLOCK_INIT("ktest-trace");

/*
 * The subject does everything on one CPU; the holder, on another, holds the
 * BKL and then the spinlock until it sees the subject waiting for each, so
 * that both contentions are certain rather than likely.
 */
static struct {
	struct thread_group g;
	struct wait_queue wq;
	volatile int phase;             /* 0: go; 1: holder has the BKL; 2: done with it; 3: has the spinlock */
	volatile bool asking;           /* the subject is about to ask for the BKL */
	int subject_pid;
	bool contend;                   /* two CPUs: the contention steps run */
	int failed_step;                /* 0, or the subject's step that could not be done */
} tt;

static bool waited_for(bool (*waiting)(void))
{
	uint64_t give_up = clock_ns() + HANDOFF_TIMEOUT_NS;

	while (!waiting())
		if (clock_ns() > give_up)
			return false;
	return true;
}

/* The subject has asked: it said so, a ticket waits (maybe another BKL user's), and a while has passed. */
static bool bkl_has_waiter(void)
{
	struct bkl_state st;

	bkl_get_state(&st);
	if (!tt.asking || st.waiting == 0)
		return false;
	mdelay(20);
	return true;
}

static bool spinlock_has_waiter(void)
{
	return (uint16_t)(READ_ONCE(trace_test_lock.next) - READ_ONCE(trace_test_lock.owner)) >= 2;
}

static int trace_holder(void *unused)
{
	wait_event(tt.wq, tt.phase == 0);       /* the subject's first steps are its own */
	lock_kernel();
	tt.phase = 1;
	wake_up(&tt.wq);
	waited_for(bkl_has_waiter);     /* on timeout the subject fails, without hanging */
	unlock_kernel();
	wait_event(tt.wq, tt.phase == 2);
	spin_lock(&trace_test_lock);
	tt.phase = 3;
	wake_up(&tt.wq);
	waited_for(spinlock_has_waiter);
	spin_unlock(&trace_test_lock);
	return group_exit(&tt.g);
}

static int trace_subject(void *unused)
{
	struct trapframe tf;
	struct file *f;

	tt.subject_pid = current->pid;
	/* 1. a system call, through the dispatcher as int $0x80 would call it */
	memset(&tf, 0, sizeof(tf));
	tf.trapno = T_SYSCALL;
	tf.eax = __NR_getpid;
	syscall_dispatch(&tf);
	/* 2. an ioctl of a driver that relies on the BKL */
	if (vfs_open_kernel("/dev/bench_bkl", O_RDWR, &f) < 0) {
		tt.failed_step = 2;
		return group_exit(&tt.g);
	}
	vfs_ioctl(f, -1, BENCH_RESET, 0);
	fput(f);
	/*
	 * 3. a sleep holding the BKL: dropped, and retaken on the way back. Long
	 * enough that it cannot run out before schedule() switches away (then
	 * the task runs on without a switch: a host that stopped this vCPU for
	 * 2 ms right there did that once).
	 */
	lock_kernel();
	sched_sleep_ns(20 * 1000 * 1000);
	unlock_kernel();
	if (tt.contend) {
		/* 4. the BKL, held on another CPU */
		tt.phase = 0;
		wake_up(&tt.wq);
		wait_event(tt.wq, tt.phase == 1);
		tt.asking = true;
		lock_kernel();
		unlock_kernel();
		/* 5. a spinlock, held on another CPU */
		tt.phase = 2;
		wake_up(&tt.wq);
		wait_event(tt.wq, tt.phase == 3);
		spin_lock(&trace_test_lock);
		spin_unlock(&trace_test_lock);
	}
	return group_exit(&tt.g);
}

/* The events of pid, in time order, into out[] (at most max): how many. */
static int events_of(const struct trace_snapshot *s, int pid, struct trace_event *out, int max)
{
	uint32_t pos[MAX_CPUS] = { 0 };
	const struct trace_event *e;
	int n = 0;

	while ((e = trace_snapshot_next(s, pos)) && n < max)
		if (e->pid == pid && e->type != TR_IRQ_ENTER && e->type != TR_IRQ_EXIT)
			out[n++] = *e;
	return n;
}

static bool any_of_type(const struct trace_snapshot *s, unsigned type)
{
	for (int c = 0; c < s->ncpus; c++)
		for (uint32_t i = 0; i < s->n[c]; i++)
			if (s->ev[c][i].type == type)
				return true;
	return false;
}

static const char *site_function(uint32_t site)
{
	return ((const struct bkl_site *)(uintptr_t)site)->function;
}

/* One expected event: its type and, where it says something, what. */
struct want {
	unsigned type;
	const char *what;       /* a BKL site's function, a driver, or a lock name; NULL: any */
	int flag;               /* -1: any */
};

static bool matches(const struct trace_event *e, const struct want *w, int pid)
{
	if (e->type != w->type || (w->flag >= 0 && e->flag != w->flag))
		return false;
	switch (e->type) {
	case TR_SYSCALL_ENTER:
	case TR_SYSCALL_EXIT:
		return e->arg[0] == __NR_getpid;
	case TR_BKL_ACQUIRE:
	case TR_BKL_RELEASE:
	case TR_BKL_DROP:
	case TR_BKL_RETAKE:
	case TR_BKL_CONTENDED:
		return !w->what || strcmp(site_function(e->arg[0]), w->what) == 0;
	case TR_IOCTL_BEGIN:
	case TR_IOCTL_END:
		return strcmp((const char *)(uintptr_t)e->arg[0], w->what) == 0;
	case TR_SPIN_CONTENDED:
	case TR_SPIN_ACQUIRED:
		return e->arg[0] == (uint32_t)(uintptr_t)&trace_test_lock;
	case TR_SWITCH:
		return (int)e->arg[0] == pid;   /* the subject switched out */
	default:
		return true;
	}
}

static const struct want expected[] = {
	{ TR_SYSCALL_ENTER, NULL, -1 },
	{ TR_SYSCALL_EXIT, NULL, -1 },
	{ TR_IOCTL_BEGIN, "bench_bkl", 1 },
	{ TR_BKL_ACQUIRE, "driver_ioctl", -1 },
	{ TR_BKL_RELEASE, "driver_ioctl", -1 },
	{ TR_IOCTL_END, "bench_bkl", 1 },
	{ TR_BKL_ACQUIRE, "trace_subject", -1 },
	{ TR_BKL_DROP, "trace_subject", -1 },
	{ TR_SWITCH, NULL, TRS_SLEEP },
	{ TR_BKL_RETAKE, "trace_subject", -1 },
	{ TR_BKL_RELEASE, "trace_subject", -1 },
	/* two CPUs only, from here */
	{ TR_BKL_CONTENDED, "trace_subject", -1 },
	{ TR_BKL_ACQUIRE, "trace_subject", 1 },
	{ TR_BKL_RELEASE, "trace_subject", -1 },
	{ TR_SPIN_CONTENDED, NULL, -1 },
	{ TR_SPIN_ACQUIRED, NULL, -1 },
};
#define ONE_CPU_STEPS 11

#define MAX_SUBJECT_EVENTS 512

KTEST(trace_records_each_event_kind_in_order)
{
	int a_cpu = __builtin_ctz(cpu_online_mask()), b_cpu = last_online_cpu();
	struct trace_snapshot s;
	struct trace_event *mine;
	bool was_on = trace_get();
	int n, k = 0, want_n;

	memset(&tt, 0, sizeof(tt));
	tt.contend = a_cpu != b_cpu;
	tt.phase = -1;
	group_init(&tt.g);
	wait_queue_init(&tt.wq, "ktest-trace");
	KT_ASSERT_EQ(trace_set(false), 0);
	KT_ASSERT_EQ(trace_set(true), 0);       /* off then on: a fresh trace */
	KT_ASSERT(group_start(&tt.g, trace_subject, NULL, "trace-subject", a_cpu));
	if (tt.contend)
		KT_ASSERT(group_start(&tt.g, trace_holder, NULL, "trace-holder", b_cpu));
	group_wait(&tt.g);
	trace_set(was_on);
	KT_ASSERT_EQ(tt.failed_step, 0);

	KT_ASSERT_EQ(trace_snapshot_take(&s), 0);
	mine = kmalloc(MAX_SUBJECT_EVENTS * sizeof(*mine));
	if (!mine) {
		trace_snapshot_free(&s);
		KT_ASSERT(mine != NULL);
	}
	n = events_of(&s, tt.subject_pid, mine, MAX_SUBJECT_EVENTS);
	want_n = tt.contend ? (int)ARRAY_SIZE(expected) : ONE_CPU_STEPS;
	/* Each expected event, in order; others may come between (the tick's, the scheduler's). */
	for (int i = 0; i < n && k < want_n; i++)
		if (matches(&mine[i], &expected[k], tt.subject_pid))
			k++;
	if (k < want_n)
		ktest_fail(__FILE__, __LINE__, "step %d (a %s event) not found among the subject's %d events", k,
			   trace_type_name(expected[k].type), n);
	/* The subject's name, the ticks that woke it, and its own first switch-in. */
	if (!any_of_type(&s, TR_COMM) || !any_of_type(&s, TR_IRQ_ENTER) || !any_of_type(&s, TR_IRQ_EXIT))
		ktest_fail(__FILE__, __LINE__, "no comm, irq_enter or irq_exit event in the rings");
	kfree(mine);
	trace_snapshot_free(&s);
}

/* Off, nothing is recorded: the rings keep what they had. */
KTEST(trace_off_records_nothing)
{
	struct trace_snapshot s1, s2;
	bool was_on = trace_get();
	uint32_t n1 = 0, n2 = 0;

	KT_ASSERT_EQ(trace_set(true), 0);       /* the rings exist */
	trace_set(false);
	sched_sleep_ns(1000 * 1000);            /* a CPU that was half-way through an event has finished it */
	KT_ASSERT_EQ(trace_snapshot_take(&s1), 0);
	lock_kernel();
	unlock_kernel();
	schedule();
	KT_ASSERT_EQ(trace_snapshot_take(&s2), 0);
	for (int c = 0; c < s1.ncpus; c++) {
		n1 += s1.n[c] + s1.lost[c];
		n2 += s2.n[c] + s2.lost[c];
	}
	trace_snapshot_free(&s1);
	trace_snapshot_free(&s2);
	trace_set(was_on);
	KT_ASSERT_EQ(n2, n1);
}
#endif /* CONFIG_BKL */
