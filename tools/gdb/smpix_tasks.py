"""smpix ps, $current() and $cpu(): tasks, from all_tasks (kernel/sched/task.c) and each CPU's idle task."""
import gdb

import smpix_kernel as k


def where(t):
    """'running on N', 'queued on N' or 'last on N': what task->cpu means right now."""
    n = int(t["cpu"])
    if t["on_cpu"]:
        return f"running on {n}"
    if t["queued"]:
        return f"queued on {n}"
    return f"last on {n}"


class SmpixPs(gdb.Command):
    """Every task: pid, thread group, state, CPU, BKL lock_depth, name (idle tasks last).

Usage: smpix ps

PID is the task's own id (a thread's gettid()); TGID its process's, its thread
group's leader's (getpid()): threads of one process share a TGID.
STATE is task->state without TASK_ (RUNNING means runnable, as in Linux).
CPU is task->cpu: the CPU it runs on (on_cpu), is queued on, or last ran on.
The tasks come from the list all_tasks; the idle tasks (pid 0) from cpus[i].idle."""

    def __init__(self):
        super().__init__("smpix ps", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if arg.strip():
            raise gdb.GdbError("usage: smpix ps")
        tasks = list(k.all_tasks()) + [c["idle"] for c in k.all_cpus() if int(c["idle"])]
        gdb.write(f"{'PID':>5} {'TGID':>5} {'STATE':<9} {'CPU':<13} {'LOCK_DEPTH':>10}  NAME\n")
        for t in tasks:
            gdb.write(f"{int(t['pid']):>5} {int(t['tgid']):>5} {k.state_name(t):<9} {where(t):<13} "
                      f"{int(t['lock_depth']):>10}  {k.cstr(t['name'])}\n")


class CurrentTask(gdb.Function):
    """$current(): the task running on gdb's selected CPU (struct task *), like the kernel's `current`.

For example:  break lock_kernel_site if $current()->pid == 1
              print $current()->name"""

    def __init__(self):
        super().__init__("current")

    def invoke(self):
        return k.ev("cpus")[k.selected_cpu()]["curr"]


class CpuNumber(gdb.Function):
    """$cpu(): the number of gdb's selected CPU (the index into cpus[]), like cpu_id().

For example:  break spin_lock_at if $cpu() == 2"""

    def __init__(self):
        super().__init__("cpu")

    def invoke(self):
        return k.selected_cpu()


SmpixPs()
CurrentTask()
CpuNumber()
