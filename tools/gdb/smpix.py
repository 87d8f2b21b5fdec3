"""gdb helpers for smpix, loaded by .gdbinit.

    smpix-cpus    one line per entry of cpus[0..ncpus): the scalar fields of struct cpu

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
