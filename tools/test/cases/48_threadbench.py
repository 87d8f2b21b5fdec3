"""threadbench (user/compat/threadbench.c), the glibc pthread program of make bench and make bench-linux,
as a smoke test: at 1% of its counts it runs as init on smpix and as a plain process on the Linux
reference (tools/test/linuxref.py), and every figure it prints is parsed by bench_linux.py's parser,
both times: the parallel sum by 1, 2 and 4 threads in rounds whose order takes turns, and the futex
ping-pong. Never a timing assertion: a speedup is measured by make bench, not judged here."""
import importlib
import os
import sys

import linuxref

SCALE = linuxref.SYSBENCH_SCALE
SUM_ROUNDS, TRIP_ROUNDS = 5, 3


def bench_linux(h):
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "bench"))
    return importlib.import_module("bench_linux")


def check_output(h, out, want_pid1):
    """Every figure, each > 0, in the order the program promises; the start and done lines."""
    bl = bench_linux(h)
    out = out or ""
    start, done = bl.START.search(out), bl.DONE.search(out)
    if not start or not start.group(0).startswith("threadbench:"):
        return [f"no start line: {out[-300:]!r}"]
    problems = []
    pid, cpus = int(start.group(2)), int(start.group(3))
    if (pid == 1) != want_pid1:
        problems.append(f"ran as pid {pid}")
    found = bl.LINE.findall(out)
    rounds = {}
    for fig, r, ops, value in found:
        rounds.setdefault(fig, []).append(float(value))
        if float(value) <= 0 or int(ops) <= 0:
            problems.append(f"{fig} round {r}: ops {ops}, value {value}")
    # The thread counts take turns: 1, 2, 4 in odd rounds, 4, 2, 1 in even ones; then the ping-pong.
    counts = bl.THREAD_COUNTS
    wanted = [(f"sum_t{n}_ms", r) for r in range(1, SUM_ROUNDS + 1)
              for n in (counts if r % 2 else counts[::-1])]
    wanted += [("futex_rtt_ns", r) for r in range(1, TRIP_ROUNDS + 1)]
    order = [(f, int(r)) for f, r, _, _ in found]
    if order != wanted:
        problems.append(f"figures in the order {order[:5]}..., wanted {wanted[:5]}...")
    if not done or done.group(1) != "0":
        problems.append("status " + (done.group(1) if done else "missing"))
    problems += bl.ERROR.findall(out)
    # make bench-linux's parser turns this run into a value for every threadbench row of its table.
    vals = bl.per_boot({"kernel": "x", "prog": "threadbench", "boot_s": None, "rounds": rounds}, cpus)
    missing = [k for k, _, _, _ in bl.threadbench_figures(cpus) if k not in vals]
    if missing:
        problems.append(f"bench_linux.py finds no {missing}")
    return problems


def on_linux(h):
    def judge(label, result):
        problems = check_output(h, result.out, want_pid1=False)
        if result.status != 0:
            problems.append(f"exit status {result.status}")
        return problems[:4]
    linuxref.check(h, "linux: threadbench, every figure, as a plain process", "threadbench", judge)


def on_smpix(h, cpus):
    name = f"threadbench[smp{cpus}] every figure as init, then power off"
    if not h.wanted(name):
        return
    q = h.Qemu(f"threadbench-smp{cpus}", append=f"init=/bin/compat-threadbench threadbench_scale={SCALE}",
               cpus=cpus, timeout=120)
    q.expect(r"^threadbench: done status=\d+$")
    q.wait_exit()
    problems = check_output(h, q.output, want_pid1=True)
    if "reboot: power down" not in q.output:
        problems.append("no reboot(POWER_OFF)")
    if h.bad_lines(q.output):
        problems.append("kernel reported: " + h.bad_lines(q.output)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}" + (" (timeout)" if q.timed_out else ""))
    h.record(name, not problems, "; ".join(problems[:4]))


def run(h):
    on_linux(h)
    on_smpix(h, 2)
