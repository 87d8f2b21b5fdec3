"""ioctlbench, the benchmark behind make bench, as a smoke test: tiny runs whose counts must add up
(never a timing assertion), its latency mode, the bkl_timing knob it flips, and tools/bench.py's
parsing of real output."""
import importlib
import os
import re
import sys

RUN = re.compile(r"^ioctlbench: run dev=(\S+) policy=(\S+) procs=(\d+) cpus=(\d+) calls=(\d+) "
                 r"spins=\d+ sleep_us=(\d+) ns=(\d+) cps=(\d+) counted=(\d+) lost=(\d+) per_cpu=(\S+)$", re.M)
LAT = re.compile(r"^ioctlbench: latency name=(\S+) ops=(\d+) ns_per_op=([\d.]+)$", re.M)
LAT_NAMES = {"getpid", "ioctl_unlocked", "ioctl_bkl", "bkl_pair", "bkl_pair_untimed", "spinlock_pair",
             "context_switch", "fork_exec_exit"}


def ioctl_counts(out):
    """{driver: (bkl_calls, unlocked_calls)} from /proc/ioctl."""
    return {d: (int(b), int(u)) for d, b, u in re.findall(r"^(\w+)\s+\S+\s+(\d+)\s+(\d+)\s+\d+$", out, re.M)}


def check_runs(h, out, cpus, calls, devs):
    runs = RUN.findall(out or "")
    seen = {r[0] for r in runs}
    h.record(f"ioctlbench[smp{cpus}] a run line for each of {', '.join(devs)}", seen == set(devs),
             f"got runs for {sorted(seen)}")
    bad = []
    for dev, policy, procs, gcpus, made, sleep_us, ns, cps, counted, lost, per_cpu in runs:
        want_policy = "serialized" if dev == "serialized" else "auto"
        cpus_used = {c.split(":")[0] for c in per_cpu.split(",")}
        if int(procs) != cpus or int(gcpus) != cpus:
            bad.append(f"{dev}: {procs} workers on {gcpus} CPUs")
        if int(made) != cpus * calls or int(counted) != int(made):
            bad.append(f"{dev}: made {made} calls, device counted {counted}")
        if int(sleep_us) == 0 and int(lost) != 0:
            bad.append(f"{dev}: {lost} updates lost without sleeping")
        if policy != want_policy:
            bad.append(f"{dev}: policy {policy}")
        if len(cpus_used) != cpus:
            bad.append(f"{dev}: workers ran on CPUs {sorted(cpus_used)}")
        if int(ns) <= 0 or int(cps) <= 0:
            bad.append(f"{dev}: no time measured")
    h.record(f"ioctlbench[smp{cpus}] counts add up: calls made = device's count, none lost, one CPU per worker",
             runs and not bad, "; ".join(bad[:3]))


def session(h, cpus):
    name = f"ioctlbench[smp{cpus}]"
    if not h.wanted(name):
        return
    Session = importlib.import_module("50_userland").Session
    # bkl_timing=0 at boot: the knob must read 0, and ioctlbench -l must put it back after flipping it.
    s = Session(h, f"ioctlbench-smp{cpus}", cpus=cpus, timeout=200, append="bkl_timing=0")
    if not s.ok:
        h.record(f"{name} boot to a shell", False, "no prompt")
        s.q.kill()
        return
    before = ioctl_counts(s.run("cat /proc/ioctl") or "")
    calls = 30
    out = s.run(f"ioctlbench -n {calls} -w 20 -r 1; echo status=$?", timeout=90)
    check_runs(h, out, cpus, calls, ["bkl", "own", "serialized"])
    h.record(f"{name} exits 0 when the counts add up", out is not None and "status=0" in out, repr(out)[-200:])
    after = ioctl_counts(s.run("cat /proc/ioctl") or "")
    n = cpus * calls
    got = {d: (after.get(d, (0, 0))[0] - before.get(d, (0, 0))[0],
               after.get(d, (0, 0))[1] - before.get(d, (0, 0))[1]) for d in ("bench_bkl", "bench_own")}
    # bench_own: n unlocked under auto, then n under the BKL when the policy was serialized (plus
    # the BENCH_RESET/BENCH_READ calls of each run, under whichever policy held).
    ok = got["bench_bkl"][0] >= n and got["bench_bkl"][1] == 0 and got["bench_own"][1] >= n and \
        got["bench_own"][0] >= n
    h.record(f"{name} /proc/ioctl: bench_bkl's calls under the BKL, bench_own's unlocked and then serialized",
             ok, f"deltas {got}, wanted >= {n} each")
    out = s.run("ioctlbench -d bkl -n 3 -w 0 -s 20000 -r 1", timeout=60)
    runs = RUN.findall(out or "")
    h.record(f"{name} a sleeping call under the BKL counts every call",
             len(runs) == 1 and int(runs[0][8]) == int(runs[0][4]) == 3 * cpus, repr(out))
    out = s.run("cat /proc/sys/kernel/bkl_timing; ioctlbench -l -n 300; echo status=$?; "
                "cat /proc/sys/kernel/bkl_timing", timeout=90)
    lats = {n: float(v) for n, ops, v in LAT.findall(out or "") if int(ops) > 0}
    h.record(f"{name} -l measures every latency", set(lats) == LAT_NAMES and all(v > 0 for v in lats.values())
             and out is not None and "status=0" in out, f"got {sorted(lats)}: {out!r}"[-300:])
    knob = re.findall(r"^([01])$", out or "", re.M)
    h.record(f"{name} -l puts bkl_timing back as it found it", knob == ["0", "0"], f"bkl_timing read {knob}")
    out = s.run("bklstat -r; ioctlbench -d bkl -n 300 -w 20000 -r 1 > /dev/null; bklstat -b -n 5", timeout=120)
    h.record(f"{name} bklstat -b names the driver's ioctl site as the one the BKL waits were spent on",
             out is not None and re.search(r"^\s+\d+\s+\d+\s+fs/ioctl/vfs_ioctl\.c:\d+ driver_ioctl\s+"
                                           r"(fs/ioctl/vfs_ioctl\.c:\d+ driver_ioctl|\(nobody: handing over\))$",
                                           out, re.M) is not None
             and re.search(r"^bklstat: others waited \d+ us \(\d+% of all BKL waiting\) while the BKL was held "
                           r"at fs/ioctl/vfs_ioctl\.c:\d+ driver_ioctl: push the BKL out of it first$", out, re.M)
             is not None, repr(out))
    out = s.run("ioctlbench -d nope; echo status=$?; ioctlbench -p 0; echo status=$?")
    h.record(f"{name} bad arguments: usage and status 2",
             out is not None and out.count("usage: ioctlbench") == 2 and out.count("status=2") == 2, repr(out))
    s.run("poweroff")
    s.q.wait_exit()
    h.record(f"{name} no kernel complaint, powers off", not h.bad_lines(s.q.output) and s.q.exit_code is not None,
             (h.bad_lines(s.q.output) or ["no power off"])[0])


def parser_understands_ioctlbench(h):
    """tools/bench.py's regular expressions against the lines this ioctlbench prints."""
    name = "tools[bench.py parses ioctlbench's lines]"
    if not h.wanted(name):
        return
    tools = os.path.dirname(os.path.abspath(h.__file__))
    sys.path.insert(0, tools)
    bench = importlib.import_module("bench")
    with open(os.path.join(tools, "..", "user", "bin", "ioctlbench.c")) as f:
        src = f.read()
    sample = ("ioctlbench: median dev=own policy=auto procs=2 cpus=2 sleep_us=0 cps=25842\n"
              "ioctlbench: latency name=getpid ops=20000 ns_per_op=1065.7\n")
    ok = bench.RUN.search(sample) and bench.LAT.search(sample) and \
        'ioctlbench: median dev=%s policy=%s procs=%d cpus=%d sleep_us=%u cps=%llu' in src and \
        'ioctlbench: latency name=%s ops=%llu ns_per_op=%llu.%llu' in src
    h.record(name, bool(ok), "the formats in user/bin/ioctlbench.c and tools/bench.py disagree")


def run(h):
    parser_understands_ioctlbench(h)
    session(h, 2)
