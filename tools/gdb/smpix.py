"""gdb extensions for smpix, loaded by .gdbinit: the `smpix` command and its subcommands.

    smpix cpus       every CPU: APIC id, current task, BKL depth, spinlocks held, idle or busy
    smpix bkl        the Big Kernel Lock: owner, depth, waiting CPUs, busiest lock_kernel() sites
    smpix ps         every task: pid, state, CPU, lock_depth, name
    smpix syscalls   the system call table: flags (BKL, FALLBACK) and calls so far
    smpix trace      the last events of every CPU's trace ring (docs/tracing.md)
    $current()       the task on gdb's selected CPU; $cpu(): that CPU's number

One file per command group, beside this one (smpix_cpus.py, smpix_bkl.py,
smpix_tasks.py, smpix_syscalls.py, smpix_trace.py); smpix_kernel.py reads the kernel's structures
by name from the debug info, so the commands follow the kernel as it changes.
`help smpix cpus` (and so on) explains each. QEMU shows each vCPU as a gdb
thread, in CPU order: gdb thread N is CPU N-1 (info threads).

`source tools/gdb/smpix.py` again after editing any of these files reloads them all.
"""
import importlib
import os
import sys

import gdb

HERE = os.path.dirname(os.path.abspath(__file__))
MODULES = ("smpix_kernel", "smpix_cpus", "smpix_bkl", "smpix_tasks", "smpix_syscalls", "smpix_deadlock",
           "smpix_trace")
# The names of the helpers before they became subcommands; docs and habits still use them.
ALIASES = {"smpix-cpus": "smpix cpus", "smpix-bkl": "smpix bkl"}


class Smpix(gdb.Command):
    """smpix: look at the kernel's CPUs, tasks, Big Kernel Lock and system calls.

Subcommands: smpix cpus, smpix bkl, smpix ps, smpix syscalls, smpix deadlock, smpix trace
(help smpix SUBCOMMAND).
Convenience functions: $current() (the task on gdb's selected CPU), $cpu()."""

    def __init__(self):
        super().__init__("smpix", gdb.COMMAND_DATA, gdb.COMPLETE_COMMAND, True)


def load():
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    Smpix()
    for name in MODULES:
        if name in sys.modules:
            importlib.reload(sys.modules[name])
        else:
            importlib.import_module(name)
    for alias, command in ALIASES.items():
        try:
            gdb.execute(f"alias {alias} = {command}", to_string=True)
        except gdb.error:
            pass                # defined by an earlier `source` of this file


load()
