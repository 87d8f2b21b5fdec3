"""sysbench, make bench-linux's binary, as a smoke test: the same file runs as init on smpix and as a
plain process on the Linux reference (tools/test/linuxref.py), and prints every figure both times (never a
timing assertion); tools/bench/bench_linux.py parses those lines and writes a Linux initramfs that cpio
reads. Booting sysbench itself as Linux's init is make bench-linux, by hand."""
import importlib
import os
import subprocess
import sys
import tempfile

import linuxref

SCALE = linuxref.SYSBENCH_SCALE   # percent of the usual counts: a second or two in all


def bench_linux(h):
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "bench"))
    return importlib.import_module("bench_linux")


def binary(h):
    """The stripped copy in smpix's initrd: the very bytes that make bench-linux boots on Linux."""
    return os.path.join(h.BUILD, "initrd", "bin", "sysbench")


def check_output(h, name, out, want_pid1):
    """Every figure of figures(), from one run's output, each > 0; the start and done lines."""
    bl = bench_linux(h)
    problems = []
    start, done = bl.START.search(out or ""), bl.DONE.search(out or "")
    if not start:
        return [f"no start line: {(out or '')[-300:]!r}"]
    pid, cpus = int(start.group(2)), int(start.group(3))
    if (pid == 1) != want_pid1:
        problems.append(f"ran as pid {pid}")
    rounds = {}
    for fig, r, ops, value in bl.LINE.findall(out):
        rounds.setdefault(fig, []).append(float(value))
        if float(value) <= 0 or int(ops) <= 0:
            problems.append(f"{fig} round {r}: ops {ops}, value {value}")
    want = {"getpid_ns", "pipe_rtt_same_us", "fork_exit_wait_us", "fork_exec_exit_us"}
    want |= {f"fionread{kind}_cps_w{w}" for w in range(1, min(cpus, 8) + 1) for kind in ("", "_work")}
    if cpus > 1:
        want.add("pipe_rtt_cross_us")
    for fig in sorted(want):
        n = 5 if fig.startswith("fionread_") else 3
        if len(rounds.get(fig, [])) != n:
            problems.append(f"{fig}: {len(rounds.get(fig, []))} rounds, wanted {n}")
    # FIONREAD's worker counts take turns: 1..N in odd rounds, N..1 in even ones.
    order = [(f, int(r)) for f, r, _, _ in bl.LINE.findall(out) if f.startswith("fionread_")]
    n = min(cpus, 8)
    wanted = [(f"fionread{kind}_cps_w{w}", r) for kind in ("", "_work") for r in range(1, 6)
              for w in (range(1, n + 1) if r % 2 else range(n, 0, -1))]
    if order != wanted:
        problems.append(f"FIONREAD runs in the order {order[:6]}..., wanted {wanted[:6]}...")
    if set(rounds) - want:
        problems.append(f"unexpected figures {sorted(set(rounds) - want)}")
    if not done or done.group(1) != "0":
        problems.append("status " + (done.group(1) if done else "missing"))
    problems += bl.ERROR.findall(out)
    # The parser of make bench-linux turns this run into a value for every row of its table.
    boot = {"kernel": "x", "boot_s": 0.1, "rounds": rounds}
    missing = [k for k, _, _, _ in bl.figures(min(cpus, 8)) if k not in bl.per_boot(boot, min(cpus, 8))]
    if missing:
        problems.append(f"bench_linux.py finds no {missing}")
    return problems


def on_linux(h):
    """The same bytes as a plain process on the Linux reference (tools/test/linuxref.py)."""
    def judge(label, result):
        problems = check_output(h, label, result.out, want_pid1=False)
        if result.status != 0:
            problems.append(f"exit status {result.status}")
        return problems[:4]
    linuxref.check(h, "linux: sysbench, every figure, as a plain process", "sysbench", judge)


def on_smpix(h, cpus):
    name = f"sysbench[smp{cpus}] every figure as init, then power off"
    if not h.wanted(name):
        return
    q = h.Qemu(f"sysbench-smp{cpus}", append=f"init=/bin/sysbench sysbench_scale={SCALE}", cpus=cpus,
               timeout=180)
    q.expect(r"^sysbench: done status=\d+$")
    q.wait_exit()
    problems = check_output(h, name, q.output, want_pid1=True)
    if "reboot: power down" not in q.output:
        problems.append("no reboot(POWER_OFF)")
    if h.bad_lines(q.output):
        problems.append("kernel reported: " + h.bad_lines(q.output)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}" + (" (timeout)" if q.timed_out else ""))
    h.record(name, not problems, "; ".join(problems[:4]))


def initramfs(h):
    """The Linux initramfs, without Linux: cpio lists /dev, /dev/console (c 5,1) and /init, our binary."""
    name = "tools[bench_linux.py writes an initramfs: /dev/console and the binary as /init]"
    if not h.wanted(name):
        return
    with tempfile.TemporaryDirectory() as d:
        path = bench_linux(h).linux_initramfs(binary(h), os.path.join(d, "initramfs.cpio"))
        listing = subprocess.run(["cpio", "-itv", "--quiet"], stdin=open(path, "rb"), capture_output=True,
                                 text=True).stdout
        out = os.path.join(d, "x")
        os.mkdir(out)
        subprocess.run(["cpio", "-id", "--quiet", "init"], stdin=open(path, "rb"), cwd=out)
        with open(binary(h), "rb") as a, open(os.path.join(out, "init"), "rb") as b:
            same = a.read() == b.read()
    lines = listing.splitlines()
    ok = len(lines) == 3 and lines[0].startswith("d") and lines[0].endswith(" dev") and \
        lines[1].startswith("c") and "5,   1" in lines[1] and lines[1].endswith(" dev/console") and \
        lines[2].startswith("-rwx") and lines[2].endswith(" init") and same
    h.record(name, ok, f"same bytes: {same}; cpio -itv: {listing!r}")


def run(h):
    on_linux(h)
    on_smpix(h, 2)
    initramfs(h)
