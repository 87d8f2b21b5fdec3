/*
 * The event trace: what every CPU did, in order, for the timeline.
 *
 * Each CPU writes its own ring of struct trace_event (kernel/trace/trace.h),
 * as Linux's ftrace writes a ring buffer per CPU: no lock, no shared line,
 * interrupts off for the few stores of one event so that an interrupt's own
 * events cannot land in the middle of it. When a ring is full the oldest
 * events are overwritten (ftrace's "overwrite" mode): a ring always holds the
 * last moments before it is read, which is what a hang or a panic needs.
 *
 * The writer fills the slot first and only then moves head past it; the
 * reader (trace_snapshot_take) copies a ring between two reads of head and
 * keeps only what the writer cannot have reached meanwhile. So reading never
 * stops anyone, and a torn event is never shown.
 *
 * Off by default, and cheap when off: every trace point is an inline test of
 * trace_on (trace.h), alone on its cache line and written only when someone
 * switches tracing, and a call only when it is set. On: the boot word
 * trace=1 or "echo 1 > /proc/sys/kernel/trace"; the rings are allocated then,
 * trace_buf=N events per CPU (a power of two; 8192 by default).
 *
 * Times are the TSC's, converted to nanoseconds on the clock_ns() scale when
 * printed; QEMU and modern CPUs keep the TSCs of all CPUs in step.
 */
#include "kernel/trace/trace.h"

#include "kernel/cmdline.h"
#include "kernel/lib/string.h"
#include "kernel/locking/atomic.h"
#include "kernel/mm/kheap.h"
#include "kernel/printk.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

#define TRACE_BUF_DEFAULT 8192
#define TRACE_BUF_MAX     65536

bool trace_on __read_mostly;

/* One per CPU; written only by its CPU, interrupts off. */
struct trace_ring {
	volatile uint32_t head;         /* events ever written; the next goes to ev[head % ring_events] */
	struct trace_event *ev;         /* NULL until tracing is first turned on */
} __cacheline_aligned;

static struct trace_ring rings[MAX_CPUS];
static uint32_t ring_events = TRACE_BUF_DEFAULT;       /* a power of two, set before the first allocation */
/*
 * Bumped each time tracing starts: a task whose trace_gen differs has not had
 * its name recorded in this trace yet (trace_switch_slow records it).
 */
static uint32_t trace_gen = 1;

/*
 * Every name recorded in this trace, also kept here: a TR_COMM event may be
 * overwritten in its ring long before the task's other events are, and a
 * task that has exited is no longer in the task list /proc/trace prints.
 * Slots are claimed with an atomic add; a reader racing a writer may see one
 * name half-copied, which costs a label, never the trace.
 */
#define TRACE_NAMES 512
static struct trace_name names[TRACE_NAMES];
static uint32_t names_used;

/* Append one event to this CPU's ring; pid < 0: the current task's. */
static void record(int pid, unsigned type, unsigned flag, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	uint32_t flags = irq_save();
	struct cpu *cpu = this_cpu();
	struct trace_ring *r = &rings[cpu->id];
	struct trace_event *e;

	if (r->ev) {
		e = &r->ev[r->head & (ring_events - 1)];
		e->tsc = rdtsc();
		e->type = (uint8_t)type;
		e->flag = (uint8_t)flag;
		e->cpu = (uint16_t)cpu->id;
		e->pid = pid >= 0 ? pid : cpu->curr ? cpu->curr->pid : 0;
		e->arg[0] = a;
		e->arg[1] = b;
		e->arg[2] = c;
		e->arg[3] = d;
		/* The event's stores before the head's: a reader that sees the new head sees the event. */
		smp_wmb();
		r->head = r->head + 1;
	}
	irq_restore(flags);
}

void trace_record(unsigned type, unsigned flag, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	record(-1, type, flag, a, b, c, d);
}

/* A TR_COMM event names task t: its pid is t's, its arguments t's name. */
void trace_comm_slow(struct task *t)
{
	uint32_t w[4], slot;

	_Static_assert(sizeof(w) == TASK_NAME_LEN, "a name fills a TR_COMM event's arguments");
	memcpy(w, t->name, sizeof(w));
	t->trace_gen = READ_ONCE(trace_gen);
	record(t->pid, TR_COMM, 0, w[0], w[1], w[2], w[3]);
	slot = __atomic_fetch_add(&names_used, 1, __ATOMIC_RELAXED) % TRACE_NAMES;
	names[slot].pid = t->pid;
	memcpy(names[slot].name, w, sizeof(w));
}

int trace_names(const struct trace_name **out)
{
	*out = names;
	return (int)MIN(READ_ONCE(names_used), (uint32_t)TRACE_NAMES);
}

/* Called by __schedule() just before the switch, prev still current. */
void trace_switch_slow(struct task *prev, struct task *next, unsigned reason)
{
	if (next->pid && next->trace_gen != READ_ONCE(trace_gen))
		trace_comm_slow(next);  /* the first time it runs in this trace */
	record(-1, TR_SWITCH, reason, (uint32_t)prev->pid, (uint32_t)next->pid, (uint32_t)prev->state,
	       prev->lock_depth >= 0);
}

/* ---- switching it -------------------------------------------------------------------------- */

static bool rings_allocated(void)
{
	for (int i = 0; i < ncpus; i++)
		if (!rings[i].ev)
			return false;
	return true;
}

static int allocate_rings(void)
{
	for (int i = 0; i < ncpus; i++) {
		if (rings[i].ev)
			continue;
		rings[i].ev = kzalloc(ring_events * sizeof(struct trace_event));
		if (!rings[i].ev)
			return -ENOMEM;
	}
	return 0;
}

int trace_set(bool on)
{
	int err;

	if (!on) {
		WRITE_ONCE(trace_on, false);
		return 0;
	}
	if (READ_ONCE(trace_on))
		return 0;
	if (!rings_allocated() && (err = allocate_rings()) < 0)
		return err;
	/*
	 * A fresh trace: empty every ring. A CPU that saw trace_on a moment ago
	 * may still add one event to its ring: one stray event, never a torn one.
	 */
	trace_clear();
	WRITE_ONCE(trace_gen, trace_gen + 1);
	WRITE_ONCE(names_used, 0);
	smp_mb();
	WRITE_ONCE(trace_on, true);
	return 0;
}

uint32_t trace_ring_events(void)
{
	return ring_events;
}

uint32_t trace_events_held(void)
{
	uint32_t n = 0;

	for (int i = 0; i < ncpus; i++)
		if (rings[i].ev)
			n += MIN(READ_ONCE(rings[i].head), ring_events);
	return n;
}

void trace_clear(void)
{
	for (int i = 0; i < ncpus; i++)
		WRITE_ONCE(rings[i].head, 0);
}

bool trace_get(void)
{
	return READ_ONCE(trace_on);
}

void trace_init(void)
{
	const char *size = cmdline_get("trace_buf");
	const char *on = cmdline_get("trace");

	if (size) {
		uint32_t n = 0;

		for (const char *p = size; *p >= '0' && *p <= '9' && n <= TRACE_BUF_MAX; p++)
			n = n * 10 + (uint32_t)(*p - '0');
		if (n >= 64 && n <= TRACE_BUF_MAX && (n & (n - 1)) == 0)
			ring_events = n;
		else
			printk("trace: trace_buf=%s is not a power of two from 64 to %d; using %u\n", size,
			       TRACE_BUF_MAX, ring_events);
	}
	if (on && strcmp(on, "1") == 0) {
		if (trace_set(true) < 0)
			printk("trace: no memory for %d rings of %u events\n", ncpus, ring_events);
		else
			printk("trace: on, %u events per CPU\n", ring_events);
	}
}

/* ---- reading it ------------------------------------------------------------------------------ */

int trace_snapshot_take(struct trace_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->ncpus = ncpus;
	s->per_cpu = ring_events;
	for (int i = 0; i < ncpus; i++) {
		struct trace_ring *r = &rings[i];
		uint32_t h1, h2, first, n;

		if (!r->ev)
			continue;
		s->ev[i] = kmalloc(ring_events * sizeof(struct trace_event));
		if (!s->ev[i]) {
			trace_snapshot_free(s);
			return -ENOMEM;
		}
		h1 = READ_ONCE(r->head);
		smp_rmb();
		first = h1 > ring_events ? h1 - ring_events : 0;
		for (uint32_t k = first; k != h1; k++)
			s->ev[i][k - first] = r->ev[k & (ring_events - 1)];
		smp_rmb();
		h2 = READ_ONCE(r->head);
		/*
		 * While we copied, the writer may have filled slots up to h2 (and be
		 * filling slot h2 now): the events those slots held, up to index
		 * h2 - ring_events, are not the ones we meant to copy.
		 */
		if (h2 + 1 > first + ring_events) {
			uint32_t drop = MIN(h2 + 1 - ring_events - first, h1 - first);

			memmove(s->ev[i], s->ev[i] + drop, (h1 - first - drop) * sizeof(struct trace_event));
			first += drop;
		}
		n = h1 - first;
		s->n[i] = n;
		s->lost[i] = first;
	}
	return 0;
}

void trace_snapshot_free(struct trace_snapshot *s)
{
	for (int i = 0; i < MAX_CPUS; i++) {
		kfree(s->ev[i]);
		s->ev[i] = NULL;
	}
}

const struct trace_event *trace_snapshot_next(const struct trace_snapshot *s, uint32_t pos[MAX_CPUS])
{
	const struct trace_event *best = NULL;
	int best_cpu = -1;

	for (int i = 0; i < s->ncpus; i++) {
		const struct trace_event *e;

		if (pos[i] >= s->n[i])
			continue;
		e = &s->ev[i][pos[i]];
		if (!best || e->tsc < best->tsc) {
			best = e;
			best_cpu = i;
		}
	}
	if (best)
		pos[best_cpu]++;
	return best;
}

static const char *const type_names[TR_NTYPES] = {
	[TR_NONE] = "none",
	[TR_SWITCH] = "switch",
	[TR_COMM] = "comm",
	[TR_SYSCALL_ENTER] = "syscall_enter",
	[TR_SYSCALL_EXIT] = "syscall_exit",
	[TR_BKL_CONTENDED] = "bkl_contended",
	[TR_BKL_ACQUIRE] = "bkl_acquire",
	[TR_BKL_RELEASE] = "bkl_release",
	[TR_BKL_DROP] = "bkl_drop",
	[TR_BKL_RETAKE] = "bkl_retake",
	[TR_SPIN_CONTENDED] = "spin_contended",
	[TR_SPIN_ACQUIRED] = "spin_acquired",
	[TR_IOCTL_BEGIN] = "ioctl_begin",
	[TR_IOCTL_END] = "ioctl_end",
	[TR_IRQ_ENTER] = "irq_enter",
	[TR_IRQ_EXIT] = "irq_exit",
};

const char *trace_type_name(unsigned type)
{
	return type < TR_NTYPES && type_names[type] ? type_names[type] : "?";
}

const char *trace_switch_reason_name(unsigned reason)
{
	static const char *const names[] = { "sleep", "preempt", "yield", "exit" };

	return reason < ARRAY_SIZE(names) ? names[reason] : "?";
}
