"""smpix trace: the last events of every CPU, read from the trace rings (kernel/trace/trace.c).

The rings are memory like any other: a kernel that hangs, or stops in panic(), with tracing
on still holds what each CPU did last. This reads them as /proc/trace would print them,
without running any kernel code: event names from the enums in the debug info, BKL sites and
lock names through their pointers, times from the TSC with timer.c's own base and multiplier.
"""
import gdb

import smpix_kernel as k

CLOCK_SHIFT = 24        # kernel/time/timer.c: clock_ns = cycles * tsc_mult >> CLOCK_SHIFT


def enum_names(type_name, prefix):
    """{value: lower-case name without prefix} of a C enum, from the debug info."""
    t = gdb.lookup_type(type_name)
    return {int(f.enumval): f.name[len(prefix):].lower() for f in t.fields()}


def syscall_names():
    names = k.ev("'names.c'::names")
    n = names.type.range()[1] + 1
    return lambda nr: k.cstr(names[nr]) if 0 <= nr < n and int(names[nr]) else "?"


def site(addr, key):
    if addr == 0:
        return f" {key}=none"
    s = gdb.Value(addr).cast(gdb.lookup_type("struct bkl_site").pointer())
    return f" {key}={k.cstr(s['file'])}:{int(s['line'])} {key}_func={k.cstr(s['function'])}"


def string_at(addr):
    return k.cstr(gdb.Value(addr).cast(gdb.lookup_type("char").pointer())) if addr else "?"


def signed(v):
    return v - (1 << 32) if v & 0x80000000 else v


class Decoder:
    """Turns one struct trace_event into /proc/trace's line (fs/proc/proc_trace.c)."""

    STATES = {"TASK_NEW": "R", "TASK_RUNNING": "R", "TASK_SLEEPING": "S", "TASK_ZOMBIE": "Z", "TASK_DEAD": "X"}

    def __init__(self):
        self.types = enum_names("enum trace_type", "TR_")
        self.reasons = enum_names("enum trace_switch_reason", "TRS_")
        states = gdb.lookup_type("enum task_state")
        self.states = {int(f.enumval): self.STATES.get(f.name, "?") for f in states.fields()}
        self.syscall = syscall_names()
        self.base = int(k.ev("'timer.c'::tsc_base"))
        self.mult = int(k.ev("'timer.c'::tsc_mult"))

    def ns(self, tsc):
        return ((tsc - self.base) * self.mult) >> CLOCK_SHIFT if tsc > self.base else 0

    def cycles_ns(self, lo, hi):
        return (((hi << 32) | lo) * self.mult) >> CLOCK_SHIFT

    def line(self, e):
        kind = self.types.get(int(e["type"]), "?")
        flag = int(e["flag"])
        a = [int(e["arg"][i]) & 0xFFFFFFFF for i in range(4)]
        out = f"{int(e['cpu'])} {self.ns(int(e['tsc']))} {int(e['pid'])} {kind}"
        if kind == "switch":
            out += (f" prev={a[0]} prev_state={self.states.get(a[2], '?')} prev_bkl={a[3]} "
                    f"reason={self.reasons.get(flag, '?')} next={a[1]}")
        elif kind == "comm":
            raw = b"".join(x.to_bytes(4, "little") for x in a)
            out += ' name="' + raw.split(b"\0")[0].decode("latin-1") + '"'
        elif kind == "syscall_enter":
            out += f" nr={a[0]} name={self.syscall(a[0])} bkl={flag}"
        elif kind == "syscall_exit":
            out += f" nr={a[0]} name={self.syscall(a[0])} ret={signed(a[1])}"
        elif kind == "bkl_contended":
            out += site(a[0], "site") + site(a[1], "holder") + f" holder_cpu={signed(a[2])}"
        elif kind in ("bkl_acquire", "bkl_retake"):
            out += site(a[0], "site") + f" contended={flag} wait_ns={self.cycles_ns(a[1], a[2])}"
        elif kind in ("bkl_release", "bkl_drop"):
            out += site(a[0], "site")
        elif kind == "spin_contended":
            out += f' lock="{string_at(a[1])}" at={string_at(a[2])}:{a[3]}'
        elif kind == "spin_acquired":
            out += f' lock="{string_at(a[1])}" wait_ns={self.cycles_ns(a[2], a[3])}'
        elif kind == "ioctl_begin":
            out += f" driver={string_at(a[0])} cmd={a[1]:#x} bkl={flag}"
        elif kind == "ioctl_end":
            out += f" driver={string_at(a[0])} ret={signed(a[1])} bkl={flag}"
        elif kind in ("irq_enter", "irq_exit"):
            out += f" vector={a[0]} user={flag}"
        return out


class SmpixTrace(gdb.Command):
    """The last events of every CPU's trace ring, oldest first, as /proc/trace prints them.

Usage: smpix trace [N] [CPU]    the last N events (default 20) of each CPU, or of CPU only

Each line: CPU TIME_NS PID EVENT key=value... (docs/tracing.md lists the events). The rings
exist once tracing has been on (boot word trace=1, or /proc/sys/kernel/trace); a ring keeps
the last trace_buf events of its CPU (8192 by default), overwriting the oldest. An event being
written at the moment the CPU stopped may show half-filled: the newest line of a CPU is the
one to doubt."""

    def __init__(self):
        super().__init__("smpix trace", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        words = arg.split()
        if len(words) > 2 or not all(w.isdigit() for w in words):
            raise gdb.GdbError("usage: smpix trace [N] [CPU]")
        count = int(words[0]) if words else 20
        only = int(words[1]) if len(words) > 1 else None
        rings = k.ev("'trace.c'::rings")
        size = int(k.ev("'trace.c'::ring_events"))
        on = int(k.ev("trace_on"))
        ncpu = k.ncpus()
        if only is not None and only >= ncpu:
            raise gdb.GdbError(f"there are {ncpu} CPUs")
        if all(int(rings[c]["ev"]) == 0 for c in range(ncpu)):
            gdb.write("smpix trace: no rings: tracing was never on (boot with trace=1, or "
                      "echo 1 > /proc/sys/kernel/trace, before the trouble)\n")
            return
        d = Decoder()
        gdb.write(f"trace {'on' if on else 'off'}, {size} events per CPU; times in ns on clock_ns()'s scale\n")
        for c in range(ncpu):
            if only is not None and c != only:
                continue
            ring = rings[c]
            head = int(ring["head"]) & 0xFFFFFFFF
            ev = ring["ev"]
            if int(ev) == 0:
                gdb.write(f"CPU {c}: no ring\n")
                continue
            held = min(head, size)
            first = head - min(held, count)
            gdb.write(f"CPU {c}: {head} events recorded, {held} kept; the last {head - first}:\n")
            for i in range(first, head):
                gdb.write("  " + d.line(ev[i & (size - 1)]) + "\n")


SmpixTrace()
