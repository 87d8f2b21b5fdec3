"""ioctlbench, the benchmark behind make bench, as a smoke test: tiny runs whose counts must add up
(never a timing assertion), its scaling rounds and mixes (-S), its latency mode, the bkl_timing knob
it flips, and tools/bench/bench.py's parsing of real output."""
import importlib
import os
import re
import sys

RUN = re.compile(r"^ioctlbench: run dev=(\S+) policy=(\S+) procs=(\d+) cpus=(\d+) calls=(\d+) "
                 r"spins=\d+ sleep_us=(\d+) ns=(\d+) cps=(\d+) counted=(\d+) lost=(\d+) per_cpu=(\S+)$", re.M)
LAT = re.compile(r"^ioctlbench: latency name=(\S+) ops=(\d+) ns_per_op=([\d.]+)$", re.M)
LAT_NAMES = {"getpid", "ioctl_unlocked", "ioctl_bkl", "bkl_pair", "bkl_pair_every_hold", "bkl_pair_untimed", "spinlock_pair",
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


def bench_module(h):
    tools = os.path.join(h.ROOT, "tools", "bench")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    return importlib.import_module("bench")


def check_scaling(h, out, cpus, rounds, percents):
    """ioctlbench -S: a point line for every mode, worker count and round, in the promised order
    (1..N workers in odd rounds, N..1 in even ones), each run sane; values are not judged."""
    name = f"ioctlbench[smp{cpus}] -S"
    bench = bench_module(h)
    lines = [l for l in (out or "").splitlines() if l.startswith("ioctlbench: point ")]
    points = [bench.parse_point(l) for l in lines]
    h.record(f"{name}: tools/bench/bench.py parses every point line", lines and all(points),
             f"{len(lines)} lines, unparsed: {[l for l, p in zip(lines, points) if not p][:1]}")
    points = [p for p in points if p]
    modes = ["bkl", "own", "serialized"] + [f"mix{f}" for f in percents] + [f"phased{f}" for f in percents]
    want = [(m, w, r) for r in range(1, rounds + 1) for m in modes
            for w in (range(1, cpus + 1) if r % 2 else range(cpus, 0, -1))]
    got = [(bench.mode_name(p["mode"], p["f"], p["sleep_us"]), p["workers"], p["round"]) for p in points]
    h.record(f"{name}: one point per mode, worker count and round, the order reversing every round",
             got == want, f"got {got[:6]}..., wanted {want[:6]}...")
    bad = []
    for p in points:
        what = f"{bench.mode_name(p['mode'], p['f'], 0)} x{p['workers']} r{p['round']}"
        bkl_share = {"bkl": p["calls"], "own": 0, "serialized": 0}.get(p["mode"])
        if p["calls"] <= 0 or p["ns"] <= 0 or p["cps"] <= 0:
            bad.append(f"{what}: no calls or no time")
        if p["counted"] != p["calls"] or p["lost"] != 0:
            bad.append(f"{what}: made {p['calls']}, counted {p['counted']}, lost {p['lost']}")
        if len({c.split(':')[0] for c in p["per_cpu"].split(",")}) != p["workers"] or p["cpus"] != cpus:
            bad.append(f"{what}: workers on CPUs {p['per_cpu']}")
        if p["policy"] != ("serialized" if p["mode"] == "serialized" else "auto"):
            bad.append(f"{what}: policy {p['policy']}")
        if bkl_share is not None and p["bkl_calls"] != bkl_share:
            bad.append(f"{what}: {p['bkl_calls']} of {p['calls']} calls to the BKL device")
        if p["mode"] == "mix" and p["calls"] >= 20 and not 0 < p["bkl_calls"] < p["calls"]:
            bad.append(f"{what}: {p['bkl_calls']} of {p['calls']} calls to the BKL device")
        # A phased mix stops only at a barrier: whole blocks of 1000 calls per worker, exactly f% of them
        # to the BKL device.
        if p["mode"] == "phased" and (p["calls"] % (1000 * p["workers"]) or
                                      p["bkl_calls"] * 100 != p["calls"] * p["f"]):
            bad.append(f"{what}: {p['bkl_calls']} of {p['calls']} calls to the BKL device, not whole blocks")
        if p["mode"] in ("bkl", "serialized") and not 0 < p["hold_ns"] <= p["ns"] * p["workers"]:
            bad.append(f"{what}: BKL held {p['hold_ns']} ns in a run of {p['ns']} ns")
        if p["mode"] == "own" and p["hold_ns"] != 0:
            bad.append(f"{what}: the BKL held {p['hold_ns']} ns by unlocked calls")
    h.record(f"{name}: every run sane (counts add up, one CPU per worker, the BKL held only by BKL calls)",
             points and not bad, "; ".join(bad[:3]))


def session(h, cpus):
    name = f"ioctlbench[smp{cpus}]"
    if not h.wanted(name):
        return
    from testlib import Session
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
    # bkl_timing is 0 (booted so): -S must switch it on for its hold times and put it back.
    out = s.run("ioctlbench -S -r 2 -t 20 -w 20 -f 50 -F 50; echo status=$?; cat /proc/sys/kernel/bkl_timing",
                timeout=120)
    check_scaling(h, out, cpus, 2, [50])
    h.record(f"{name} -S exits 0 and puts bkl_timing back",
             out is not None and "status=0" in out and re.findall(r"^([01])$", out, re.M) == ["0"], repr(out)[-200:])
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
    out = s.run("ioctlbench -d nope; echo status=$?; ioctlbench -p 0; echo status=$?; "
                "ioctlbench -S -m own,nope; echo status=$?; ioctlbench -S -f 101; echo status=$?; "
                "ioctlbench -S -F x; echo status=$?; ioctlbench -S -m phased; echo status=$?; "
                "ioctlbench -S -F 50 -p 17; echo status=$?")
    h.record(f"{name} bad arguments: usage and status 2",
             out is not None and out.count("usage: ioctlbench") == 7 and out.count("status=2") == 7,
             repr(out))
    s.run("poweroff")
    s.q.wait_exit()
    h.record(f"{name} no kernel complaint, powers off", not h.bad_lines(s.q.output) and s.q.exit_code is not None,
             (h.bad_lines(s.q.output) or ["no power off"])[0])


def parser_understands_ioctlbench(h):
    """tools/bench/bench.py's regular expressions against the lines this ioctlbench prints."""
    name = "tools[bench.py parses ioctlbench's lines]"
    if not h.wanted(name):
        return
    bench = bench_module(h)
    with open(os.path.join(h.ROOT, "user", "bin", "ioctlbench.c")) as f:
        src = f.read()
    sample = ("ioctlbench: point mode=mix f=25 policy=auto workers=2 cpus=2 round=3 spins=10000 sleep_us=0 "
              "ns=300123456 calls=4000 bkl_calls=1000 cps=13327 hold_ns=55000000 wait_ns=1000 counted=4000 "
              "lost=0 per_cpu=0:6700,1:6650\n"
              "ioctlbench: latency name=getpid ops=20000 ns_per_op=1065.7\n")
    p = bench.parse_point(sample.splitlines()[0])
    ok = p and p["mode"] == "mix" and p["f"] == 25 and p["workers"] == 2 and p["cps"] == 13327 and \
        bench.mode_name(p["mode"], p["f"], p["sleep_us"]) == "mix25" and bench.LAT.search(sample) and \
        '"ioctlbench: point mode=%s f=%d policy=%s workers=%d cpus=%d round=%d spins=%u "' in src and \
        'ioctlbench: latency name=%s ops=%llu ns_per_op=%llu.%llu' in src
    h.record(name, bool(ok), "the formats in user/bin/ioctlbench.c and tools/bench/bench.py disagree")


def run(h):
    parser_understands_ioctlbench(h)
    session(h, 2)
