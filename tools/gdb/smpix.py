"""gdb helpers for smpix, loaded by .gdbinit.

    smpix-cpus    one line per entry of cpus[0..ncpus): the scalar fields of struct cpu
    smpix-bkl     the Big Kernel Lock: owner, depth, waiters, busiest lock_kernel() sites

QEMU shows each vCPU as a gdb thread, in CPU order: gdb thread N is CPU N-1 (info threads).
Fields are read from the debug info, so the command follows struct cpu as it grows;
arrays and embedded structs (the GDT, the TSS, the held-locks list) are left out.
"""
import gdb


class SmpixCpus(gdb.Command):
    """Print the per-CPU data: cpus[i] for i < ncpus (scalar fields of struct cpu)."""

    def __init__(self):
        super().__init__("smpix-cpus", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        ncpus = int(gdb.parse_and_eval("ncpus"))
        cpus = gdb.parse_and_eval("cpus")
        nmax = cpus.type.range()[1] + 1
        gdb.write(f"ncpus = {ncpus} (gdb thread N is CPU N-1)\n")
        for i in range(min(max(ncpus, 1), nmax)):
            c = cpus[i]
            parts = []
            for f in c.type.strip_typedefs().fields():
                code = f.type.strip_typedefs().code
                if code in (gdb.TYPE_CODE_ARRAY, gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
                    continue
                v = c[f.name]
                if code == gdb.TYPE_CODE_PTR:
                    parts.append(f"{f.name}={int(v):#x}")
                else:
                    parts.append(f"{f.name}={v}")
            gdb.write(f"cpu {i}: " + " ".join(parts) + "\n")


SmpixCpus()


def _task_str(t):
    """'pid N (name)' for a struct task pointer, or '-' for NULL."""
    if int(t) == 0:
        return "-"
    return f"pid {int(t['pid'])} ({t['name'].string()})"


class SmpixBkl(gdb.Command):
    """The Big Kernel Lock: owner, depth, waiters, and the busiest call sites (smpix-bkl [N])."""

    def __init__(self):
        super().__init__("smpix-bkl", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        top = int(arg) if arg.strip() else 8
        flag = gdb.parse_and_eval("'bkl.c'::kernel_flag")
        holder = flag["holder"]
        tickets = (int(flag["next"]) - int(flag["owner"])) & 0xFFFF
        if int(holder):
            gdb.write(f"BKL held by {_task_str(holder)} on CPU {int(flag['holder_cpu'])}, "
                      f"lock_depth {int(holder['lock_depth'])}, {max(tickets - 1, 0)} waiting\n")
        else:
            gdb.write(f"BKL free, {tickets} waiting\n")
        for i in range(int(gdb.parse_and_eval("ncpus"))):
            t = gdb.parse_and_eval(f"cpus[{i}].curr")
            if int(t):
                gdb.write(f"  cpu {i}: {_task_str(t)} lock_depth {int(t['lock_depth'])}\n")
        start = gdb.parse_and_eval("&bkl_sites_start[0]")
        stop = gdb.parse_and_eval("&bkl_sites_stop[0]")
        sites = [start[i] for i in range(int(stop - start))]
        sites.sort(key=lambda s: -int(s["acquisitions"]))
        gdb.write(f"{len(sites)} lock_kernel() sites; the busiest:\n")
        for s in sites[:top]:
            gdb.write(f"  {s['file'].string()}:{int(s['line'])} {s['function'].string()}: "
                      f"{int(s['acquisitions'])} acquired, {int(s['contended'])} contended\n")


SmpixBkl()
