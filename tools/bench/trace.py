#!/usr/bin/env python3
"""make trace: boot smpix, run one command with the event trace on, and draw what every CPU did.

    make trace CMD="ioctlbench -d bkl" CPUS=4
    tools/bench/trace.py --cmd "ioctlbench -d bkl" --cpus 4 [--mem 128] [--append WORDS] [--out DIR] [--disks]
    tools/bench/trace.py --from build/trace/trace.txt [--out DIR]      (draw a trace taken before)

At the shell it types, as a person would:
    echo 1 > /proc/sys/kernel/trace; CMD; echo 0 > /proc/sys/kernel/trace
    cat /proc/trace > /dev/debugcon
and QEMU's -debugcon (I/O port 0xE9) puts the text in DIR/trace.txt: one event per line,
"CPU TIME_NS PID EVENT key=value ..." (fs/proc/proc_trace.c). From it, in DIR (build/trace/):

  trace.json    Chrome's Trace Event Format, for https://ui.perfetto.dev or chrome://tracing:
                a track per CPU (its state: user, kernel, BKL held, spinning for the BKL or
                a spinlock, idle; interrupts as instants; BKL hand-offs as arrows between
                CPUs) and a track per task (its system calls, ioctls, BKL holds and waits);
  timeline.svg  one lane per CPU, coloured by state, with the BKL's hand-offs from one CPU
                to another drawn between lanes, and each CPU's share of time per state.

--disks (make trace DISK=1) attaches make bench-disk's two images, hda on IDE channel 0 and hdc on
channel 1 (tools/bench/bench_disk.py makes them): the block lock's eras side by side, e.g.
    make trace DISK=1 CPUS=2 APPEND=blk_lock=global CMD="sysbench disk -S 1 -r 1 /dev/hda2 /dev/hdc2"

Only Python's standard library. Each ring keeps the last events of its CPU (trace_buf=N
events per CPU, 8192 by default), so the picture covers the window every CPU still has.
"""
import argparse
import json
import os
import re
import sys
import time
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test"))

STATES = ("idle", "user", "kernel", "bkl", "bkl_spin", "spin")
LABELS = {"idle": "idle", "user": "user", "kernel": "kernel", "bkl": "holding the BKL",
          "bkl_spin": "spinning for the BKL", "spin": "spinning for a spinlock"}
COLOURS = {"idle": "#e8e8e8", "user": "#7fb3e6", "kernel": "#3c6fb0", "bkl": "#2e9e4f",
           "bkl_spin": "#d93a2b", "spin": "#f0a020"}
# Chrome's reserved colour names, for chrome://tracing (Perfetto picks its own).
CNAMES = {"idle": "grey", "user": "thread_state_running", "kernel": "thread_state_runnable",
          "bkl": "good", "bkl_spin": "terrible", "spin": "bad"}

EVENT = re.compile(r"^(\d+) (\d+) (-?\d+) (\w+)(.*)$")
ARG = re.compile(r'(\w+)=("[^"]*"|\S+)')
HEADER = re.compile(r"^# smpix trace: cpus=(\d+) tsc_hz=(\d+) events_per_cpu=(\d+)")
CPU_LINE = re.compile(r"^# cpu (\d+): (\d+) events, (\d+) overwritten")
TASK_LINE = re.compile(r'^# task (\d+) "(.*)"$')


# ---- reading /proc/trace ------------------------------------------------------------------

class Trace:
    """The parsed text: header facts, task names, and the events in time order."""

    def __init__(self):
        self.ncpus = 0
        self.tsc_hz = 0
        self.overwritten = {}           # cpu -> events lost off the ring's old end
        self.names = {0: "idle"}        # pid -> name
        self.events = []                # (ns, cpu, pid, name, {args})


def parse(text):
    t = Trace()
    for line in text.splitlines():
        if line.startswith("#"):
            m = HEADER.match(line)
            if m:
                t.ncpus, t.tsc_hz = int(m.group(1)), int(m.group(2))
            m = CPU_LINE.match(line)
            if m:
                t.overwritten[int(m.group(1))] = int(m.group(3))
            m = TASK_LINE.match(line)
            if m:
                t.names[int(m.group(1))] = m.group(2)
            continue
        m = EVENT.match(line)
        if not m:
            continue
        args = {k: v.strip('"') for k, v in ARG.findall(m.group(5))}
        t.events.append((int(m.group(2)), int(m.group(1)), int(m.group(3)), m.group(4), args))
        if m.group(4) == "comm":
            t.names[int(m.group(3))] = args.get("name", "?")
    t.events.sort(key=lambda e: e[0])
    if not t.ncpus:
        t.ncpus = 1 + max((e[1] for e in t.events), default=0)
    return t


def site(args, key="site"):
    return args.get(key, "?")


# ---- what each CPU and task was doing ------------------------------------------------------

class Model:
    """Spans of state per CPU, slices per task, interrupts, and the BKL's hand-offs."""

    def __init__(self, trace):
        self.trace = trace
        self.spans = {c: [] for c in range(trace.ncpus)}        # cpu -> [(start, end, state, pid)]
        self.slices = {}                                        # pid -> [(start, end, name, args)]
        self.irqs = []                                          # (ns, cpu, vector)
        self.handoffs = []                                      # (release ns, cpu, acquire ns, cpu, site)
        self.start = self.end = 0
        self.build()

    def window(self):
        """From the moment every CPU's ring still has its events, to the last event."""
        ev = self.trace.events
        if not ev:
            return 0, 0
        first = {}
        for ns, cpu, *_ in ev:
            first.setdefault(cpu, ns)
        full = [first[c] for c in first if self.trace.overwritten.get(c, 0) > 0]
        return (max(full) if full else ev[0][0]), ev[-1][0]

    def build(self):
        self.start, self.end = self.window()
        n = self.trace.ncpus
        pid = [None] * n                # the task on each CPU
        mode = [None] * n               # "user", "kernel" or "idle" for that task
        bkl_spin = [False] * n
        spin = [False] * n
        state = [None] * n
        since = [self.start] * n
        owner = [None] * n              # the task whose span is open on each CPU
        bkl_owner = None                # (pid, cpu) holding the raw lock now
        last_release = None             # (ns, cpu, site) of the last release or drop
        open_slices = {}                # pid -> stack of (start, name, args)

        def lane_state(c):
            if pid[c] is None:
                return None
            if pid[c] == 0:
                return "idle"
            if bkl_spin[c]:
                return "bkl_spin"
            if spin[c]:
                return "spin"
            if bkl_owner == (pid[c], c):
                return "bkl"
            return mode[c]

        def settle(c, ns):
            s = lane_state(c)
            if s != state[c] or pid[c] != owner[c]:
                if state[c] is not None and ns > since[c]:
                    self.spans[c].append((max(since[c], self.start), ns, state[c], owner[c]))
                state[c], since[c], owner[c] = s, max(ns, self.start), pid[c]

        def push(p, ns, name, args):
            open_slices.setdefault(p, []).append((ns, name, args))

        def pop(p, ns, name):
            stack = open_slices.get(p, [])
            # Close the innermost slice of that name (and any left open inside it).
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][1] == name:
                    for s0, nm, a in reversed(stack[i:]):
                        if ns >= self.start:
                            self.slices.setdefault(p, []).append((max(s0, self.start), ns, nm, a))
                    del stack[i:]
                    return

        for ns, c, p, ev, a in self.trace.events:
            if c >= n:
                continue
            if pid[c] is None:
                # The first event seen on this CPU: guess what it was doing just before.
                pid[c] = p if ev != "switch" else int(a.get("prev", p))
                mode[c] = ("user" if ev == "syscall_enter" or (ev == "irq_enter" and a.get("user") == "1")
                           else "idle" if pid[c] == 0 else "kernel")
                if ev in ("bkl_release", "bkl_drop") and bkl_owner is None:
                    bkl_owner = (p, c)
                settle(c, self.start)
            if ev == "switch":
                nxt = int(a["next"])
                pid[c] = nxt
                mode[c] = "idle" if nxt == 0 else "kernel"
                bkl_spin[c] = spin[c] = False
            elif ev == "syscall_enter":
                mode[c] = "kernel"
                push(p, ns, a.get("name", "syscall"), a)
            elif ev == "syscall_exit":
                mode[c] = "user"
                pop(p, ns, a.get("name", "syscall"))
            elif ev == "irq_enter":
                if ns >= self.start:
                    self.irqs.append((ns, c, a.get("vector", "?")))
                if p != 0:
                    mode[c] = "kernel"
            elif ev == "irq_exit":
                if p != 0:
                    mode[c] = "user" if a.get("user") == "1" else "kernel"
            elif ev == "bkl_contended":
                bkl_spin[c] = True
                push(p, ns, "spin for the BKL", {"site": site(a), "holder": site(a, "holder"),
                                                 "holder_cpu": a.get("holder_cpu")})
            elif ev in ("bkl_acquire", "bkl_retake"):
                if bkl_spin[c]:
                    pop(p, ns, "spin for the BKL")
                bkl_spin[c] = False
                if last_release and last_release[1] != c and ns >= self.start:
                    self.handoffs.append((last_release[0], last_release[1], ns, c, site(a)))
                bkl_owner = (p, c)
                push(p, ns, "BKL held" if ev == "bkl_acquire" else "BKL held (retaken)", {"site": site(a)})
            elif ev in ("bkl_release", "bkl_drop"):
                last_release = (ns, c, site(a))
                bkl_owner = None
                pop(p, ns, "BKL held (retaken)")
                pop(p, ns, "BKL held")
            elif ev == "spin_contended":
                spin[c] = True
                push(p, ns, "spin for " + a.get("lock", "?"), {"at": a.get("at", "?")})
            elif ev == "spin_acquired":
                spin[c] = False
                pop(p, ns, "spin for " + a.get("lock", "?"))
            elif ev == "ioctl_begin":
                push(p, ns, f"ioctl {a.get('driver', '?')}" + (" [BKL]" if a.get("bkl") == "1" else ""), a)
            elif ev == "ioctl_end":
                pop(p, ns, f"ioctl {a.get('driver', '?')}" + (" [BKL]" if a.get("bkl") == "1" else ""))
            settle(c, ns)
        for c in range(n):
            if state[c] is not None and self.end > since[c]:
                self.spans[c].append((since[c], self.end, state[c], owner[c]))

    def share(self, cpu, t0=None, t1=None):
        """Fraction of the window (or of t0..t1) each state took on cpu."""
        t0 = self.start if t0 is None else t0
        t1 = self.end if t1 is None else t1
        out = {s: 0 for s in STATES}
        for s0, s1, st, _ in self.spans[cpu]:
            out[st] += max(0, min(s1, t1) - max(s0, t0))
        return {s: v / max(t1 - t0, 1) for s, v in out.items()}

    def name(self, pid):
        return f"{self.trace.names.get(pid, 'pid')} ({pid})" if pid else "idle"


# ---- Chrome's Trace Event Format -------------------------------------------------------------

CPUS_PID, TASKS_PID = 100000, 100001


def us(ns, origin):
    return round((ns - origin) / 1000.0, 3)


def chrome_events(m):
    o = m.start
    ev = [{"ph": "M", "name": "process_name", "pid": CPUS_PID, "args": {"name": "CPUs"}},
          {"ph": "M", "name": "process_sort_index", "pid": CPUS_PID, "args": {"sort_index": 0}},
          {"ph": "M", "name": "process_name", "pid": TASKS_PID, "args": {"name": "Tasks"}},
          {"ph": "M", "name": "process_sort_index", "pid": TASKS_PID, "args": {"sort_index": 1}}]
    for c in range(m.trace.ncpus):
        ev.append({"ph": "M", "name": "thread_name", "pid": CPUS_PID, "tid": c, "args": {"name": f"CPU {c}"}})
        ev.append({"ph": "M", "name": "thread_sort_index", "pid": CPUS_PID, "tid": c, "args": {"sort_index": c}})
        for s0, s1, st, p in m.spans[c]:
            ev.append({"ph": "X", "name": LABELS[st], "cat": "cpu", "pid": CPUS_PID, "tid": c, "ts": us(s0, o),
                       "dur": us(s1, s0), "cname": CNAMES[st], "args": {"task": m.name(p)}})
    for ns, c, vec in m.irqs:
        ev.append({"ph": "i", "name": f"irq {vec}", "cat": "irq", "s": "t", "pid": CPUS_PID, "tid": c,
                   "ts": us(ns, o)})
    for i, (r_ns, r_cpu, a_ns, a_cpu, where) in enumerate(m.handoffs):
        # A flow arrow from the release, inside the last BKL span on one CPU, to the acquisition.
        ev.append({"ph": "s", "name": "BKL hand-off", "cat": "bkl", "id": i, "pid": CPUS_PID, "tid": r_cpu,
                   "ts": us(r_ns, o) - 0.001})
        ev.append({"ph": "f", "bp": "e", "name": "BKL hand-off", "cat": "bkl", "id": i, "pid": CPUS_PID,
                   "tid": a_cpu, "ts": us(a_ns, o) + 0.001, "args": {"site": where}})
    for p, slices in sorted(m.slices.items()):
        if p == 0:
            continue
        tid = 1000 + p
        ev.append({"ph": "M", "name": "thread_name", "pid": TASKS_PID, "tid": tid, "args": {"name": m.name(p)}})
        ev.append({"ph": "M", "name": "thread_sort_index", "pid": TASKS_PID, "tid": tid, "args": {"sort_index": p}})
        for s0, s1, name, args in slices:
            ev.append({"ph": "X", "name": name, "cat": "task", "pid": TASKS_PID, "tid": tid, "ts": us(s0, o),
                       "dur": us(s1, s0), "args": args})
    return ev


def write_json(m, path, title):
    doc = {"traceEvents": chrome_events(m), "displayTimeUnit": "ns",
           "otherData": {"title": title, "cpus": m.trace.ncpus, "tsc_hz": m.trace.tsc_hz,
                         "window_ns": [m.start, m.end], "bkl_handoffs": len(m.handoffs)}}
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))


# ---- the SVG timeline ------------------------------------------------------------------------

WIDTH, LEFT, PLOT, LANE, GAP = 1280, 70, 860, 26, 10
MAX_ARROWS = 150                # hand-offs drawn in the overview; the rest are counted
ZOOM_HANDOFFS = 12              # the detail panel: the shortest stretch with this many hand-offs


def pixel_runs(spans, t0, t1):
    """A lane as runs of pixels, each pixel the state that took most of its time: [x0, x1, state]."""
    span = max(t1 - t0, 1)
    acc = [dict() for _ in range(PLOT)]
    for s0, s1, st, _ in spans:
        if s1 <= t0 or s0 >= t1:
            continue
        a, b = (max(s0, t0) - t0) * PLOT / span, (min(s1, t1) - t0) * PLOT / span
        for x in range(int(a), min(int(b) + 1, PLOT)):
            overlap = min(b, x + 1) - max(a, x)
            if overlap > 0:
                acc[x][st] = acc[x].get(st, 0) + overlap
    runs = []
    for x, d in enumerate(acc):
        st = max(d, key=d.get) if d else None
        if runs and runs[-1][2] == st and runs[-1][1] == x:
            runs[-1][1] = x + 1
        else:
            runs.append([x, x + 1, st])
    return [r for r in runs if r[2]]


def nice_step(span_ns):
    for e in range(2, 13):
        for k in (1, 2, 5):
            if span_ns / (k * 10 ** e) <= 10:
                return k * 10 ** e
    return 1e13


def fmt_time(ns):
    if ns >= 1e9:
        return f"{ns / 1e9:g} s"
    if ns >= 1e6:
        return f"{ns / 1e6:g} ms"
    return f"{ns / 1e3:g} us" if ns >= 1e3 else f"{ns:g} ns"


def zoom_window(m):
    """The shortest stretch of ZOOM_HANDOFFS hand-offs among the most CPUs, with a margin: (t0, t1), or None."""
    h = m.handoffs
    if len(h) < 2:
        return None
    k = min(ZOOM_HANDOFFS, len(h)) - 1

    def score(j):
        cpus = {x[1] for x in h[j:j + k + 1]} | {x[3] for x in h[j:j + k + 1]}
        return (-len(cpus), h[j + k][2] - h[j][0])
    i = min(range(len(h) - k), key=score)
    t0, t1 = h[i][0], h[i + k][2]
    pad = max((t1 - t0) // 10, 1000)
    return max(t0 - pad, m.start), min(t1 + pad, m.end)


def panel(m, t0, t1, top, heading, every, labels):
    """One set of CPU lanes between times t0 and t1, its y at top: (SVG lines, height)."""
    n = m.trace.ncpus
    span = max(t1 - t0, 1)
    lanes_h = n * (LANE + GAP)
    out = [f'<text x="{LEFT}" y="{top - 8}" font-weight="bold">{escape(heading)}</text>']

    def x_of(ns):
        return LEFT + (ns - t0) * PLOT / span

    def y_of(c):
        return top + c * (LANE + GAP)

    step = nice_step(span)
    t = 0.0
    while t <= span:
        x = LEFT + t * PLOT / span
        out.append(f'<line x1="{x:.1f}" y1="{top - 3}" x2="{x:.1f}" y2="{top + lanes_h - GAP + 3}" '
                   f'stroke="#ccc" stroke-width="0.5"/>')
        out.append(f'<text x="{x:.1f}" y="{top + lanes_h + 6}" text-anchor="middle" fill="#444" '
                   f'font-size="11">{fmt_time(t)}</text>')
        t += step
    for c in range(n):
        y = y_of(c)
        out.append(f'<text x="{LEFT - 8}" y="{y + LANE / 2 + 4}" text-anchor="end">CPU {c}</text>')
        for x0, x1, st in pixel_runs(m.spans[c], t0, t1):
            out.append(f'<rect x="{LEFT + x0}" y="{y}" width="{x1 - x0}" height="{LANE}" fill="{COLOURS[st]}"/>')
        if labels:
            # Wide enough spans say whose they are.
            for s0, s1, st, p in m.spans[c]:
                if s1 > t0 and s0 < t1 and p and x_of(min(s1, t1)) - x_of(max(s0, t0)) > 70:
                    xm = (x_of(max(s0, t0)) + x_of(min(s1, t1))) / 2
                    out.append(f'<text x="{xm:.1f}" y="{y + LANE / 2 + 4}" text-anchor="middle" fill="white" '
                               f'font-size="11">{escape(m.name(p))}</text>')
        sh = m.share(c, t0, t1)
        parts = [f"{short} {sh[s] * 100:.0f}%" for s, short in
                 (("bkl", "BKL"), ("bkl_spin", "wait"), ("spin", "spin"), ("user", "user"), ("kernel", "kernel"),
                  ("idle", "idle")) if sh[s] >= 0.01]
        out.append(f'<text x="{LEFT + PLOT + 10}" y="{y + LANE / 2 + 4}" fill="#333" font-size="11">'
                   f'{escape(", ".join(parts))}</text>')
    for i, (r_ns, r_cpu, a_ns, a_cpu, _) in enumerate(m.handoffs):
        if i % every or a_ns < t0 or r_ns > t1:
            continue
        down = a_cpu > r_cpu
        x1, x2 = x_of(max(r_ns, t0)), x_of(min(a_ns, t1))
        y1 = y_of(r_cpu) + (LANE if down else 0)
        y2 = y_of(a_cpu) + (0 if down else LANE)
        out.append(f'<line x1="{x1:.1f}" y1="{y1}" x2="{x2:.1f}" y2="{y2}" stroke="black" '
                   f'stroke-width="0.9" stroke-opacity="0.6"/>')
        out.append(f'<circle cx="{x2:.1f}" cy="{y2}" r="2" fill="black" fill-opacity="0.6"/>')
    return out, lanes_h + 22


def write_svg(m, path, title):
    span = max(m.end - m.start, 1)
    every = len(m.handoffs) // MAX_ARROWS + 1
    body, y = [], 62
    lines, h = panel(m, m.start, m.end, y, f"The whole trace: {fmt_time(span)}", every, False)
    body += lines
    y += h + 26
    zoom = zoom_window(m)
    if zoom:
        lines, h = panel(m, zoom[0], zoom[1], y, f"In detail: {fmt_time(zoom[1] - zoom[0])} from "
                         f"{fmt_time(zoom[0] - m.start)}, the densest run of hand-offs", 1, True)
        body += lines
        y += h + 16
    x = LEFT
    for st in ("user", "kernel", "bkl", "bkl_spin", "spin", "idle"):
        body.append(f'<rect x="{x}" y="{y}" width="14" height="14" fill="{COLOURS[st]}" stroke="#999" '
                    f'stroke-width="0.5"/>')
        body.append(f'<text x="{x + 19}" y="{y + 11}">{LABELS[st]}</text>')
        x += 30 + 7 * len(LABELS[st])
    body.append(f'<line x1="{x}" y1="{y + 7}" x2="{x + 24}" y2="{y + 7}" stroke="black" stroke-opacity="0.6"/>')
    body.append(f'<circle cx="{x + 24}" cy="{y + 7}" r="2" fill="black" fill-opacity="0.6"/>')
    body.append(f'<text x="{x + 30}" y="{y + 11}">the BKL handed to another CPU</text>')
    body.append(f'<text x="{LEFT}" y="{y + 34}" fill="#666" font-size="11">Each pixel shows the state that took '
                f'most of its time. Made by tools/bench/trace.py from /proc/trace (docs/tracing.md).</text>')
    height = y + 46
    shown = f" (every {every}th drawn above)" if every > 1 else ""
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">',
            f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
            f'<text x="{LEFT}" y="20" font-size="15" font-weight="bold">{escape(title)}</text>',
            f'<text x="{LEFT}" y="38" fill="#444">{len(m.handoffs)} hand-offs of the BKL from one CPU to another'
            f'{shown}</text>']
    with open(path, "w") as f:
        f.write("\n".join(head + body + ["</svg>"]) + "\n")


def draw(text, out_dir, title):
    """Parse a /proc/trace text and write trace.json and timeline.svg into out_dir: the Model."""
    m = Model(parse(text))
    os.makedirs(out_dir, exist_ok=True)
    write_json(m, os.path.join(out_dir, "trace.json"), title)
    write_svg(m, os.path.join(out_dir, "timeline.svg"), title)
    return m


# ---- taking a trace in QEMU -------------------------------------------------------------------

def capture(h, cmd, cpus, mem, append, out_dir, name="trace", timeout=600, disks=()):
    """Boot, run cmd traced at the shell, copy /proc/trace out through -debugcon: (text, console).
    disks: IDE images, as harness.Qemu takes them."""
    os.makedirs(out_dir, exist_ok=True)
    raw = os.path.join(out_dir, "trace.txt")
    if os.path.exists(raw):
        os.remove(raw)
    q = h.Qemu(name, cpus=cpus, mem=mem, append=append, timeout=timeout, extra=["-debugcon", "file:" + raw],
               disks=disks)

    def wait_for(pattern, start, wait):
        rx, end = re.compile(pattern, re.M), time.monotonic() + wait
        while not rx.search(q.output, start):
            if time.monotonic() > end or q._read_some(0.3) is None:
                return False
        return True

    def run(line, wait):
        start = len(q.output)
        q.send(line + "; echo trace-step-done-$?\r")      # the echo of the line shows "$?", not a number
        if not wait_for(r"trace-step-done-\d+\n\$ ", start, wait):
            raise RuntimeError(f"'{line}' did not finish in {wait} s")

    try:
        if not wait_for(r"^\$ ", 0, 120):
            raise RuntimeError("no shell prompt")
        run(f"echo 1 > /proc/sys/kernel/trace; {cmd}; echo 0 > /proc/sys/kernel/trace", timeout)
        run("cat /proc/trace > /dev/debugcon", 300)
        q.send("poweroff\r")
        q.wait_exit()
    finally:
        q.kill()
    with open(raw, errors="replace") as f:
        return f.read(), q.output


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cmd", default="ioctlbench -d bkl")
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--mem", type=int, default=128)
    ap.add_argument("--append", default="")
    ap.add_argument("--out", default=None)
    ap.add_argument("--from", dest="source", default=None, help="draw this /proc/trace text instead of booting")
    ap.add_argument("--title", default=None)
    ap.add_argument("--disks", action="store_true", help="attach make bench-disk's two IDE disk images")
    a = ap.parse_args(argv)
    import harness as h
    h.LOCKDEP_BOOTS = False     # a timeline of the real costs: without the lock-order checker's
    out = a.out or os.path.join(h.BUILD, "trace")
    if a.source:
        with open(a.source, errors="replace") as f:
            text = f.read()
    else:
        t0 = time.monotonic()
        try:
            disks = ()
            if a.disks:
                import bench_disk
                hda, hdc = bench_disk.make_images()
                disks = [hda, None, hdc]
            text, console = capture(h, a.cmd, a.cpus, a.mem, a.append, out, disks=disks)
        except RuntimeError as e:
            print(f"trace: {e} (console log: build/test-logs/trace.log)", file=sys.stderr)
            return 1
        bad = h.bad_lines(console)
        if bad:
            print("trace: the kernel reported: " + bad[0], file=sys.stderr)
        print(f"trace: took the trace in {time.monotonic() - t0:.0f} s: {out}/trace.txt")
    title = a.title or f"smpix -smp {a.cpus}: {a.cmd}"
    m = draw(text, out, title)
    print(f"trace: {len(m.trace.events)} events, {m.trace.ncpus} CPUs, {(m.end - m.start) / 1e6:.1f} ms shown, "
          f"{len(m.handoffs)} BKL hand-offs between CPUs")
    for c in range(m.trace.ncpus):
        sh = m.share(c)
        print(f"trace: CPU {c}: " + ", ".join(f"{s} {sh[s] * 100:.0f}%" for s in STATES if sh[s] >= 0.005))
    print(f"trace: wrote {out}/trace.json (open in https://ui.perfetto.dev or chrome://tracing) "
          f"and {out}/timeline.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
