"""smpix syscalls: the system call table (kernel/syscall/table.c) with flags and call counts."""
import os
import re

import gdb

import smpix_kernel as k


def flag_bits():
    """{'SYS_BKL': 1, ...}: the flag macros, read from kernel/syscall/dispatch.h beside the table's source.

    The values are macros, which plain -g leaves out of the debug info; the header
    is the one place they are defined, so read it rather than copy them here."""
    src = gdb.lookup_global_symbol("syscall_table").symtab.fullname()
    # Where the kernel was built, then the top of the tree gdb runs in (.gdbinit's paths).
    candidates = [os.path.join(os.path.dirname(src), "dispatch.h"), os.path.join("kernel", "syscall", "dispatch.h")]
    for header in candidates:
        try:
            text = open(header).read()
            break
        except OSError:
            continue
    else:
        raise gdb.GdbError("cannot read the SYS_ flags from " + " or ".join(candidates))
    # The first definition of each: the header's #else gives SYS_BKL 0 for the kernel without the BKL,
    # whose table then has no such flag set anyway.
    bits = {}
    for m in re.finditer(r"^#define\s+(SYS_[A-Z_]+)\s+(0x[0-9a-fA-F]+|\d+)", text, re.M):
        bits.setdefault(m.group(1), int(m.group(2), 0))
    return bits


def flags_str(flags, bits):
    names = [name[4:] for name, bit in sorted(bits.items(), key=lambda kv: kv[1]) if flags & bit]
    rest = flags & ~sum(bits.values())
    if rest:
        names.append(f"{rest:#x}")
    return ",".join(names) if names else "-"


def handler_name(fn):
    """The function a table entry calls, by name; '(-ENOSYS)' for a call smpix only knows of."""
    if int(fn) == 0:
        return "(-ENOSYS)"
    b = gdb.block_for_pc(int(fn))
    # The innermost block may be a function inlined at the entry (sys_getpid's current_task()):
    # the handler is the outermost function block, the one just inside the file's static block.
    while b is not None and b.superblock is not None and not b.superblock.is_static:
        b = b.superblock
    return b.function.name if b is not None and b.function else f"{int(fn):#x}"


class SmpixSyscalls(gdb.Command):
    """The system call table: number, name, arguments, flags, handler and calls so far.

Usage: smpix syscalls [-u] [NAME...]    -u: only calls made at least once; NAMEs: only those

FLAGS: BKL = the dispatcher takes the Big Kernel Lock around the call (SYS_BKL);
FALLBACK = -ENOSYS on purpose, libc retries with an older call (SYS_FALLBACK).
With bkl=syscalls on the command line every call runs under the BKL, whatever its flag.
CALLS counts dispatches of that number since boot: the sum of every CPU's row
(rows[cpu].calls[] in kernel/syscall/dispatch.c; calls[NR_SYSCALLS] counts unknown numbers)."""

    def __init__(self):
        super().__init__("smpix syscalls", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        words = arg.split()
        used_only = "-u" in words
        names = {w for w in words if w != "-u"}
        bits = flag_bits()
        table = k.ev("syscall_table")
        n = int(k.ev("syscall_table_len"))
        rows = k.ev("'dispatch.c'::rows")
        ncpus = rows.type.range()[1] + 1
        ncalls = rows[0]["calls"].type.range()[1]         # the last slot counts unknown numbers

        def count_of(nr):
            return sum(int(rows[c]["calls"][nr]) for c in range(ncpus))
        if k.ev("'dispatch.c'::bkl_every_syscall"):
            gdb.write("bkl=syscalls: every call below runs under the BKL\n")
        gdb.write(f"{'NR':>4} {'NAME':<24} {'ARGS':>4} {'FLAGS':<12} {'HANDLER':<24} {'CALLS':>8}\n")
        shown = 0
        for i in range(n):
            d = table[i]
            nr = int(d["nr"])
            name = k.cstr(d["name"])
            count = count_of(nr) if nr < ncalls else 0
            if (names and name not in names) or (used_only and count == 0):
                continue
            gdb.write(f"{nr:>4} {name:<24} {int(d['nargs']):>4} {flags_str(int(d['flags']), bits):<12} "
                      f"{handler_name(d['fn']):<24} {count:>8}\n")
            shown += 1
        unknown = count_of(ncalls)
        gdb.write(f"{shown} of {n} table entries shown; {unknown} calls of numbers not in the table\n")


SmpixSyscalls()
