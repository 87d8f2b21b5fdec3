/*
 * /proc/trace and /proc/sys/kernel/trace: the event trace (kernel/trace/trace.c)
 * as text, one event per line, every CPU's merged in time order:
 *
 *     CPU TIME_NS PID EVENT key=value ...
 *
 * with times in nanoseconds on the clock_ns() scale, and comment lines (#)
 * first: the rings, and the names of the tasks alive now. tools/bench/trace.py
 * turns it into a timeline. Printed without the BKL: megabytes of text
 * formatted under it would stall every BKL user for the whole read, and the
 * trace is read lock-free anyway.
 */
#include "fs/proc/proc_files.h"

#include "fs/proc/procbuf.h"
#include "fs/proc/task_state.h"
#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/locking/bkl.h"
#include "kernel/sched/task.h"
#include "kernel/syscall/names.h"
#include "kernel/time/timer.h"
#include "kernel/trace/trace.h"
#include "kernel/uapi/errno.h"

#define LINE_GUESS 96                   /* bytes per event line, a generous average */

static const char *str_or(uint32_t p, const char *dflt)
{
	return p ? (const char *)(uintptr_t)p : dflt;
}

static void print_site(struct procbuf *pb, const char *key, uint32_t p)
{
	const struct bkl_site *s = (const struct bkl_site *)(uintptr_t)p;

	if (s)
		procbuf_printf(pb, " %s=%s:%d %s_func=%s", key, s->file, s->line, key, s->function);
	else
		procbuf_printf(pb, " %s=none", key);
}

static uint64_t ns_of(uint32_t lo, uint32_t hi)
{
	return cycles_to_ns(((uint64_t)hi << 32) | lo);
}

static void print_event(struct procbuf *pb, const struct trace_event *e)
{
	const uint32_t *a = e->arg;
	char name[TASK_NAME_LEN + 1];

	procbuf_printf(pb, "%u %llu %d %s", e->cpu, tsc_to_ns(e->tsc), e->pid, trace_type_name(e->type));
	switch (e->type) {
	case TR_SWITCH:
		procbuf_printf(pb, " prev=%u prev_state=%c prev_bkl=%u reason=%s next=%u", a[0],
			       task_state_letter((enum task_state)a[2]), a[3], trace_switch_reason_name(e->flag), a[1]);
		break;
	case TR_COMM:
		memcpy(name, a, TASK_NAME_LEN);
		name[TASK_NAME_LEN] = 0;
		procbuf_printf(pb, " name=\"%s\"", name);
		break;
	case TR_SYSCALL_ENTER:
		procbuf_printf(pb, " nr=%u name=%s bkl=%u", a[0], syscall_name(a[0]), e->flag);
		break;
	case TR_SYSCALL_EXIT:
		procbuf_printf(pb, " nr=%u name=%s ret=%d", a[0], syscall_name(a[0]), (int)a[1]);
		break;
	case TR_BKL_CONTENDED:
		print_site(pb, "site", a[0]);
		print_site(pb, "holder", a[1]);
		procbuf_printf(pb, " holder_cpu=%d", (int)a[2]);
		break;
	case TR_BKL_ACQUIRE:
	case TR_BKL_RETAKE:
		print_site(pb, "site", a[0]);
		procbuf_printf(pb, " contended=%u wait_ns=%llu", e->flag, ns_of(a[1], a[2]));
		break;
	case TR_BKL_RELEASE:
	case TR_BKL_DROP:
		print_site(pb, "site", a[0]);
		break;
	case TR_SPIN_CONTENDED:
		procbuf_printf(pb, " lock=\"%s\" at=%s:%u", str_or(a[1], "?"), str_or(a[2], "?"), a[3]);
		break;
	case TR_SPIN_ACQUIRED:
		procbuf_printf(pb, " lock=\"%s\" wait_ns=%llu", str_or(a[1], "?"), ns_of(a[2], a[3]));
		break;
	case TR_IOCTL_BEGIN:
		procbuf_printf(pb, " driver=%s cmd=0x%x bkl=%u", str_or(a[0], "?"), a[1], e->flag);
		break;
	case TR_IOCTL_END:
		procbuf_printf(pb, " driver=%s ret=%d bkl=%u", str_or(a[0], "?"), (int)a[1], e->flag);
		break;
	case TR_IRQ_ENTER:
	case TR_IRQ_EXIT:
		procbuf_printf(pb, " vector=%u user=%u", a[0], e->flag);
		break;
	}
	procbuf_printf(pb, "\n");
}

/*
 * The names of the tasks this trace has seen, then of the tasks alive now
 * (later lines win): for the pids whose TR_COMM events the rings have lost.
 */
static void print_tasks(struct procbuf *pb)
{
	const struct trace_name *seen;
	struct list_head *pos;
	uint32_t flags;
	int n = trace_names(&seen);

	procbuf_printf(pb, "# task 0 \"idle\"\n");
	for (int i = 0; i < n; i++) {
		char name[TASK_NAME_LEN + 1];

		memcpy(name, seen[i].name, TASK_NAME_LEN);
		name[TASK_NAME_LEN] = 0;
		procbuf_printf(pb, "# task %d \"%s\"\n", seen[i].pid, name);
	}
	spin_lock_irqsave(&tasks_lock, flags);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);

		procbuf_printf(pb, "# task %d \"%s\"\n", t->pid, t->name);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void proc_show_trace(struct procbuf *pb, void *arg)
{
	struct trace_snapshot s;
	uint32_t pos[MAX_CPUS] = { 0 };
	const struct trace_event *e;

	if (trace_snapshot_take(&s) < 0) {
		procbuf_printf(pb, "# trace: no memory for a copy of the rings\n");
		return;
	}
	procbuf_printf(pb, "# smpix trace: cpus=%d tsc_hz=%llu events_per_cpu=%u tracing=%d\n", s.ncpus, tsc_hz,
		       s.per_cpu, trace_get());
	for (int i = 0; i < s.ncpus; i++)
		procbuf_printf(pb, "# cpu %d: %u events, %u overwritten\n", i, s.n[i], s.lost[i]);
	print_tasks(pb);
	procbuf_printf(pb, "# CPU TIME_NS PID EVENT ARGS\n");
	while ((e = trace_snapshot_next(&s, pos)))
		print_event(pb, e);
	trace_snapshot_free(&s);
}

size_t proc_trace_size(void)
{
	return 4096 + (size_t)trace_events_held() * LINE_GUESS;
}

/* "echo 0 > /proc/trace" empties the rings, as writing ftrace's trace file does. */
int proc_write_trace(const char *text)
{
	if (strcmp(text, "0") != 0)
		return -EINVAL;
	trace_clear();
	return 0;
}

/* /proc/sys/kernel/trace: 1 to record (a fresh trace), 0 to stop; the rings keep what they hold. */
void proc_show_trace_on(struct procbuf *pb, void *arg)
{
	procbuf_printf(pb, "%d\n", trace_get() ? 1 : 0);
}

int proc_write_trace_on(const char *text)
{
	if (strcmp(text, "0") == 0)
		return trace_set(false);
	if (strcmp(text, "1") == 0)
		return trace_set(true);
	return -EINVAL;
}
