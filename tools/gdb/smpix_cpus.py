"""smpix cpus: what every CPU is doing, from cpus[] (kernel/cpu.h) and each vCPU's stack."""
import gdb

import smpix_kernel as k


def held_str(c):
    """The spinlocks struct cpu c records as held: 'name@file:line, ...' or '-'."""
    n, locks = k.locks_held(c)
    parts = [f"{k.cstr(l['name'])}@{k.cstr(l['file'])}:{int(l['line'])}" for l in locks]
    if n > len(locks):
        parts.append(f"+{n - len(locks)} not recorded")
    return ", ".join(parts) if parts else "-"


def still_waiting(what, i, curr, bkl_holder):
    """False when CPU i is in the lock code but has the lock already (just took it)."""
    kind, lock = what
    if kind == "bkl":
        return int(bkl_holder) != int(curr)
    if lock is None:
        return True
    return not (int(lock["owner"]) != int(lock["next"]) and int(lock["holder_cpu"]) == i)


def spin_str(what, bkl_holder):
    """One sentence for what a CPU spins on, from smpix_kernel.spinning_on()."""
    kind, lock = what
    if kind == "bkl":
        return f"spins for the BKL, held by {k.task_str(bkl_holder)}"
    if lock is None:
        return "spins in spin_lock_at() (which lock: optimized out; try `frame` and `info locals`)"
    return "spins for spinlock " + k.spinlock_str(lock)


def print_raw(c, i):
    """The scalar fields of one struct cpu, whatever they are today."""
    parts = []
    for f in c.type.strip_typedefs().fields():
        code = f.type.strip_typedefs().code
        if code in (gdb.TYPE_CODE_ARRAY, gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            continue
        v = c[f.name]
        parts.append(f"{f.name}={int(v):#x}" if code == gdb.TYPE_CODE_PTR else f"{f.name}={v}")
    gdb.write(f"cpu {i}: " + " ".join(parts) + "\n")


class SmpixCpus(gdb.Command):
    """Every CPU: APIC id, current task, its BKL lock_depth, spinlocks held, idle or busy.

Usage: smpix cpus        one line per CPU, then what any CPU is spinning for
       smpix cpus -v     every scalar field of each struct cpu, as the kernel has them now

LOCK_DEPTH is the current task's task->lock_depth: -1 = no BKL, 0 = held once, ...
SPINLOCKS HELD comes from the CPU's own record (cpu->locks_held, kept by spin_lock()).
A CPU "spins" when its stack is in spin_lock_at() or bkl_raw_acquire(): in a hang,
that line and the holder's row together say who waits for whom.
The CPU marked * is the one gdb has selected (gdb thread N is CPU N-1)."""

    def __init__(self):
        super().__init__("smpix cpus", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpus = k.all_cpus()
        if arg.strip() == "-v":
            for i, c in enumerate(cpus):
                print_raw(c, i)
            return
        if arg.strip():
            raise gdb.GdbError("usage: smpix cpus [-v]")
        threads = k.cpu_threads()
        here = k.selected_cpu() if threads else -1
        holder = k.bkl()["holder"]
        gdb.write(f"{len(cpus)} CPUs, {sum(bool(c['online']) for c in cpus)} online\n")
        gdb.write(f" {'CPU':>3} {'APIC':>4} {'STATUS':<8} {'TASK':<22} {'LOCK_DEPTH':>10}  SPINLOCKS HELD\n")
        spinning = []
        for i, c in enumerate(cpus):
            curr = c["curr"]
            if not c["online"]:
                status = "offline"
            elif int(curr) == 0:
                status = "starting"     # online, not yet in cpu_enter_scheduler()
            elif int(curr) == int(c["idle"]):
                status = "idle"
            else:
                status = "busy"
            if int(c["irq_nesting"]) > 0:
                status += "+irq"        # in an interrupt handler, on top of that task
            depth = str(int(curr["lock_depth"])) if int(curr) else "-"
            mark = "*" if i == here else " "
            gdb.write(f"{mark}{i:>3} {int(c['apic_id']):>4} {status:<8} {k.task_str(curr):<22} "
                      f"{depth:>10}  {held_str(c)}\n")
            if i in threads:
                what = k.spinning_on(threads[i])
                if what and still_waiting(what, i, curr, holder):
                    spinning.append(f"CPU {i} {spin_str(what, holder)}")
        for line in spinning:
            gdb.write(line + "\n")


SmpixCpus()
