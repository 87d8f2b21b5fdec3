#!/usr/bin/env python3
"""make bench: how ioctl() scales with and without the BKL, measured inside each boot, and the
Amdahl's-law mix; writes build/bench/results.csv, results.md, scaling.svg and amdahl.svg (and PNGs).

Speedups compare runs of one boot, never two boots: under QEMU's TCG one boot's rate varies by
30% against another's, so a 2-CPU boot against a 1-CPU boot measured the host as much as the lock.
For each -smp size in BENCH_CPUS, BENCH_BOOTS boots each type at the shell:
  ioctlbench -S -r R -t MS -w SPINS -f 10,25,50,75 -F 10,25,50,75
        R rounds; in each, every mode (bkl, own, serialized, and the mixes that send f% of each
        worker's calls to the BKL device, shuffled (-f, a throughput mix) or phased (-F: the BKL
        calls of each block of 1000 first, then a barrier: a fork-join program)) with 1, 2, ..., N
        workers pinned one per CPU, each run MS milliseconds of calls; one "point" line per run
  ioctlbench -S -r R2 -t MS -w 0 -s 1000 the same modes when every call sleeps in the driver
  ioctlbench -l                          latencies (null syscall, ioctl, lock pairs, ...)
  bklstat -n 6                           the hottest BKL sites after all that
  compat-threadbench                     threads (issue 31): a glibc pthread program summing an array
                                         with 1, 2 and 4 threads, and a futex ping-pong across two CPUs
and the host times each boot to the first shell prompt.

Per boot, speedup(mode, n) = best cps at n workers / best cps at 1 worker (the best of the rounds:
best_round()). Across boots: the median of those, with the smallest and largest boot as the error bars.
Amdahl's prediction, per boot, from the 1-worker runs (docs/performance.md, "Amdahl"):
  s(f) = f*h / (f*t_bkl + (1-f)*t_own)     the serialized share of one worker's time
  S(n) = 1 / (s + (1-s)/n)
with t_bkl, t_own the time per call on each device alone and h the BKL hold per call (/proc/bkl).

Environment (make passes them): BENCH_CPUS (the -smp sizes; by default 2 and 4 but no more vCPUs than
the host has cores, see bench_sizes()), BENCH_BOOTS=3, BENCH_ROUNDS=7,
BENCH_MS=300 (each run), BENCH_SPINS=10000 (work per call), ACCEL=tcg|kvm, MEM=128. Targets are
reported with yes/no here, never asserted by make test. Numbers are wall-clock time under an
emulator: they teach shapes (what scales, what does not), not the speed of a real machine.
"""
import csv
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test"))
import harness as h  # noqa: E402

OUT = os.path.join(h.BUILD, "bench")
POINT = re.compile(r"^ioctlbench: point mode=(\S+) f=(\d+) policy=(\S+) workers=(\d+) cpus=(\d+) round=(\d+) "
                   r"spins=(\d+) sleep_us=(\d+) ns=(\d+) calls=(\d+) bkl_calls=(\d+) cps=(\d+) hold_ns=(\d+) "
                   r"wait_ns=(\d+) counted=(\d+) lost=(\d+) per_cpu=(\S+)$", re.M)
POINT_FIELDS = ("mode", "f", "policy", "workers", "cpus", "round", "spins", "sleep_us", "ns", "calls",
                "bkl_calls", "cps", "hold_ns", "wait_ns", "counted", "lost", "per_cpu")
LAT = re.compile(r"^ioctlbench: latency name=(\S+) ops=(\d+) ns_per_op=([\d.]+)", re.M)
# user/compat/threadbench.c: the lines make bench-linux parses too (tools/bench/bench_linux.py).
THREADS = re.compile(r"^threadbench: (\w+) round=(\d+) ops=(\d+) value=([\d.]+)$", re.M)
THREAD_COUNTS = (1, 2, 4)
PROMPT = "\n$ "

MIX_PERCENTS = (10, 25, 50, 75)         # f = 0 and 100 are the own and bkl modes themselves
# Two kinds of mix: "mix" shuffles each worker's BKL calls among its others (a throughput workload);
# "phased" makes them first in each block of 1000 and ends the block at a barrier (fork-join, the
# program Amdahl's law is about). The Amdahl target is judged on the phased one.
MIX_KINDS = (("phased", "fork-join (phased)"), ("mix", "throughput (shuffled)"))
SLEEP_US = 1000
MODES = [("bkl", "BKL-reliant driver (/dev/bench_bkl)"),
         ("own", "flagged FOP_UNLOCKED_IOCTL (/dev/bench_own)"),
         ("serialized", "the flagged driver under ioctl=serialized"),
         ("bkl-sleep", "BKL-reliant, each call sleeps in the driver"),
         ("own-sleep", "flagged, each call sleeps in the driver"),
         ("serialized-sleep", "flagged under serialized, each call sleeps")]
SHORT = {"bkl": "BKL-reliant", "own": "flagged (unlocked)", "serialized": "flagged, ioctl=serialized",
         "bkl-sleep": "BKL-reliant, sleeping calls", "own-sleep": "flagged, sleeping calls",
         "serialized-sleep": "serialized, sleeping calls"}

# The targets of docs/performance.md: measured here, never asserted by make test.
TARGET_UNLOCKED_2 = 1.6         # the flagged device at 2 workers / at 1 worker, at least
TARGET_SERIAL_2 = 1.05          # the BKL-reliant device, and the flagged one serialized: at most
TARGET_LINUX_SHARE = 0.95       # the flagged device's speedup / Linux's for its unlocked ioctl, at least
TARGET_AMDAHL = 0.10            # measured speedup within 10% of Amdahl's prediction
# Latencies, each the median of this many ioctlbench -l processes per boot. A lock pair's cost moves
# with the process, not the boot: six processes in one boot gave BKL pairs of 82.6-128.8 ns and
# spinlock pairs of 73.1-95.8 (2026-12-06), each process steady within itself. What the two paths
# touch that differs is per-process memory (the task, its kernel stack), whose pages land anywhere in
# TCG's direct-mapped software TLB; one process deciding a boot's ratio made the target flip.
LAT_PROCESSES = 3
TARGET_BKL_PAIR = 1.2           # BKL pair / spinlock pair, at most
TARGET_BOOT_S = 1.0             # boot to the prompt at -smp 4, under TCG with -kernel
TARGET_THREADS_2 = 1.8          # the parallel sum by 2 threads / by 1, at -smp 2, at least


def env_int(name, default):
    return int(os.environ.get(name, "") or default)


def mode_name(mode, f, sleep_us):
    """The name a point is filed under: bkl, own, serialized, mix10..., phased10..., with -sleep if it
    slept."""
    name = f"{mode}{f}" if mode in ("mix", "phased") else mode
    return name + ("-sleep" if sleep_us else "")


def fmt_time(s):
    return f"{int(s) // 60}:{int(s) % 60:02d}"


class Guest:
    """One booted smpix with a shell: type a command, get what it printed up to the next prompt."""

    def __init__(self, name, cpus, accel, mem, timeout):
        self.start = time.monotonic()
        self.q = h.Qemu(name, cpus=cpus, mem=mem, accel=accel, timeout=timeout)
        self.boot_s = None
        if self.q.expect(r"^\$ ", timeout=120):
            self.boot_s = time.monotonic() - self.start

    def run(self, command, timeout=600, on_line=None):
        """Type command; return its output. on_line(line) sees each line as it arrives."""
        mark = len(self.q.output)
        seen = mark
        self.q.send(command + "\n")
        end = time.monotonic() + timeout
        while PROMPT not in self.q.output[mark:] and time.monotonic() < end:
            if self.q._read_some(0.5) is None:
                break
            seen = self._lines(seen, on_line)
        self._lines(seen, on_line)
        return self.q.output[mark:]

    def _lines(self, seen, on_line):
        """Hand on_line the complete lines after offset seen; the offset after them."""
        cut = self.q.output.rfind("\n", seen)
        if on_line and cut >= seen:
            for line in self.q.output[seen:cut].split("\n"):
                on_line(line)
            return cut + 1
        return seen

    def close(self):
        self.q.send("poweroff\n")
        self.q.wait_exit()


def host_facts(accel):
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
            cpu = m.group(1).strip() if m else cpu
    except OSError:
        pass
    qemu = subprocess.run(["qemu-system-i386", "--version"], capture_output=True, text=True).stdout
    return {
        "host": platform.node(),
        "cores": os.cpu_count(),
        "system": f"{platform.system()} {platform.release()}, {cpu}",
        "qemu": qemu.splitlines()[0] if qemu else "qemu-system-i386 (version unknown)",
        "accel": accel,
        "autogroup": autogroup(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def cpu_share(seconds=0.5):
    """How many of the host's cores this session gets now: one busy process per core for `seconds`,
    their CPU time over the wall time. With the kernel's autogroups on (Debian's default), CPU is
    shared out between sessions, not threads, so a busy neighbour can leave QEMU's vCPUs one core
    between them whatever the load average says."""
    n = os.cpu_count() or 1
    spin = f"import time\nt = time.time() + {seconds}\nwhile time.time() < t: pass"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    for p in [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(n)]:
        p.wait()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return round(used / wall, 2) if wall > 0 else None


def autogroup():
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as f:
            return "on" if f.read().strip() == "1" else "off"
    except OSError:
        return "unknown"


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


# ---- measuring ----------------------------------------------------------------------------

class Progress:
    """One line per point while the benchmark runs: where it is, what it got, how long is left."""

    def __init__(self, total):
        self.total, self.done, self.start = total, 0, time.monotonic()
        self.ones = {}                  # (boot, mode) -> the 1-worker cps of the latest round

    def point(self, tag, p):
        self.done += 1
        mode = mode_name(p["mode"], p["f"], p["sleep_us"])
        if p["workers"] == 1:
            self.ones[(tag, mode)] = p["cps"]
        one = self.ones.get((tag, mode))
        rel = f"{p['cps'] / one:5.2f}x of 1 worker" if one and p["workers"] > 1 else ""
        took = time.monotonic() - self.start
        eta = took / self.done * (self.total - self.done)
        print(f"  [{self.done:4d}/{self.total}] {tag} round {p['round']}: {mode:18s} {p['workers']} "
              f"worker{'s' if p['workers'] > 1 else ' '} {p['cps']:7d} calls/s {rel:17s} "
              f"({fmt_time(took)} gone, ~{fmt_time(eta)} left)", flush=True)


def parse_point(line):
    m = POINT.match(line)
    if not m:
        return None
    p = dict(zip(POINT_FIELDS, m.groups()))
    for k in POINT_FIELDS:
        if k not in ("mode", "policy", "per_cpu"):
            p[k] = int(p[k])
    return p


def measure_boot(size, boot, cfg, progress):
    """One boot at -smp size: every point, latency and boot time of it, in a dict."""
    tag = f"smp{size} boot {boot}"
    percents = ','.join(str(f) for f in MIX_PERCENTS)
    spin_cmd = f"ioctlbench -S -r {cfg['rounds']} -t {cfg['ms']} -w {cfg['spins']} -f {percents} -F {percents}"
    sleep_cmd = f"ioctlbench -S -r {cfg['sleep_rounds']} -t {cfg['ms']} -w 0 -s {SLEEP_US}"
    points_est = (3 + 2 * len(MIX_PERCENTS)) * cfg["rounds"] * size + 3 * cfg["sleep_rounds"] * size
    timeout = 300 + points_est * (cfg["ms"] / 1000 + 1) * 3
    res = {"size": size, "boot": boot, "points": [], "lat": {}, "threads": {}, "boot_s": None, "load": loadavg(),
           "share": cpu_share(), "problems": [], "log": ""}
    g = Guest(f"bench-smp{size}-boot{boot}", size, cfg["accel"], cfg["mem"], timeout)
    try:
        if g.boot_s is None:
            res["problems"].append(f"-smp {size} boot {boot}: no shell prompt (see build/test-logs/)")
            return res
        res["boot_s"] = g.boot_s

        def on_line(line):
            p = parse_point(line)
            if p:
                res["points"].append(p)
                progress.point(tag, p)

        out = g.run(spin_cmd + "; echo status=$?", timeout=timeout, on_line=on_line)
        out += g.run(sleep_cmd + "; echo status=$?", timeout=timeout, on_line=on_line)
        for _ in range(LAT_PROCESSES):
            out += g.run("ioctlbench -l; echo status=$?", timeout=300)
        hot = g.run("bklstat -n 6")
        threads = g.run("compat-threadbench; echo status=$?", timeout=600) if cfg.get("threads", True) else ""
        g.close()
    finally:
        g.q.kill()
    res["log"] = out + hot + threads
    for name, r, ops, value in THREADS.findall(threads):
        res["threads"].setdefault(name, []).append(float(value))
    if threads and (re.search(r"^status=[^0]", threads, re.M) or "threadbench: error" in threads):
        res["problems"].append(f"-smp {size} boot {boot}: threadbench reported a problem:\n" +
                               "\n".join(l for l in threads.splitlines() if "error" in l or "status=" in l))
    res["hot"] = "\n".join(l for l in hot.splitlines()[1:] if l.strip() and l.strip() != "$")
    if re.search(r"^status=[^0]", out, re.M) or "made " in out or "cannot" in out:
        res["problems"].append(f"-smp {size} boot {boot}: ioctlbench reported a problem:\n" +
                               "\n".join(l for l in out.splitlines() if not l.startswith("ioctlbench: ")))
    for name, ops, ns in LAT.findall(out):
        res.setdefault("lat_all", {}).setdefault(name, []).append(float(ns))
    res["lat"] = {name: statistics.median(v) for name, v in res.get("lat_all", {}).items()}
    return res


# ---- statistics ---------------------------------------------------------------------------

def cps_by(boot_res, mode, workers):
    """The calls/s of every round of one mode at one worker count, in one boot."""
    return [p["cps"] for p in boot_res["points"]
            if mode_name(p["mode"], p["f"], p["sleep_us"]) == mode and p["workers"] == workers]


def best_round(values, higher_is_better=True):
    """One boot's figure for one thing measured in several rounds: the best round. Nothing outside the
    guest can make a round faster, only slower: the host's other work, and on a cloud VM the
    hypervisor's other guests, which no load average or CPU-time reading inside the VM shows (this
    project's VM reports no steal). Measured so on an idle VM: one boot's rounds of the same mode at
    1 worker at 14,800 and at 29,000 calls/s, a median over them then deciding a speedup by chance.
    The best round is the one closest to what the kernel itself does; the Per boot table keeps every
    round's median and range, so a kernel whose rounds spread by themselves still shows."""
    return max(values) if higher_is_better else min(values)


def boot_speedup(boot_res, mode, workers):
    """best(n workers) / best(1 worker), both from this boot's rounds; None if either is missing."""
    one, n = cps_by(boot_res, mode, 1), cps_by(boot_res, mode, workers)
    if not one or not n or best_round(one) == 0:
        return None
    return best_round(n) / best_round(one)


def across(values):
    """(median, min, max) of the values that exist, or None."""
    v = [x for x in values if x is not None]
    return (statistics.median(v), min(v), max(v)) if v else None


def speedup(boots, mode, workers):
    """Across the boots of one size: (median, min, max) of the per-boot speedups."""
    return across(boot_speedup(b, mode, workers) for b in boots)


def amdahl_model(boot_res):
    """From one boot's 1-worker runs: (t_bkl, t_own, h) in ns per call, or None."""
    bkl = [p for p in boot_res["points"] if mode_name(p["mode"], p["f"], p["sleep_us"]) == "bkl"
           and p["workers"] == 1 and p["calls"]]
    own = cps_by(boot_res, "own", 1)
    if not bkl or not own:
        return None
    t_bkl = 1e9 / best_round([p["cps"] for p in bkl])
    t_own = 1e9 / best_round(own)
    # The held share of a BKL call's time, from the same runs as their length: each round's hold
    # per call alone would mix a slow round's hold with the best round's time per call.
    hold = statistics.median(p["hold_ns"] / p["ns"] for p in bkl) * t_bkl
    return t_bkl, t_own, hold


def busy(boot_res, mode, workers):
    """How much of the time the ioctl path held the BKL (its hold time over the wall time), median of
    the rounds; at 1 worker, the serialized share s measured directly. None without such runs."""
    v = [p["hold_ns"] / p["ns"] for p in boot_res["points"]
         if mode_name(p["mode"], p["f"], p["sleep_us"]) == mode and p["workers"] == workers and p["ns"]]
    return statistics.median(v) if v else None


def thread_figures(boot_res):
    """One boot's threadbench figures: the sum's best ms at 1 thread, the speedup at each count
    (best time at 1 / best at n, both this boot's rounds: best_round()), the ping-pong's median ns
    (as make bench-linux gives it for both kernels); or {}."""
    t = boot_res.get("threads") or {}
    out = {}
    one = t.get("sum_t1_ms")
    if one:
        out["sum_t1_ms"] = best_round(one, higher_is_better=False)
        for n in THREAD_COUNTS[1:]:
            if t.get(f"sum_t{n}_ms"):
                out[f"speedup_t{n}"] = out["sum_t1_ms"] / best_round(t[f"sum_t{n}_ms"], higher_is_better=False)
    if t.get("futex_rtt_ns"):
        out["futex_rtt_ns"] = statistics.median(t["futex_rtt_ns"])
    return out


def serial_share(model, f):
    """s(f): the share of one worker's time spent holding the BKL, when a fraction f of calls take it."""
    t_bkl, t_own, hold = model
    return f * hold / (f * t_bkl + (1 - f) * t_own)


def amdahl(s, n):
    return 1 / (s + (1 - s) / n)


def ceiling(s, n):
    """The most a throughput mix can reach: n workers, or 1/s when the lock is busy all the time."""
    return min(n, 1 / s) if s > 0 else n


def amdahl_row(boots, f_pct, n, kind="phased"):
    """One row of the Amdahl table for f% of kind (phased or mix) at n workers, from the boots of one
    size, or None. f = 0 and 100 are the own and bkl modes for both kinds."""
    mode = "bkl" if f_pct == 100 else "own" if f_pct == 0 else f"{kind}{f_pct}"
    preds, shares, direct, used, machine = [], [], [], [], []
    for b in boots:
        model = amdahl_model(b)
        if model:
            s = serial_share(model, f_pct / 100)
            shares.append(s)
            preds.append(amdahl(s, n))
            # The law on the machine as it is: every worker at the speed the unlocked device got
            # with n busy (its speedup / n), which on 2 host cores is not quite a whole core each.
            eff = boot_speedup(b, "own", n)
            if eff:
                machine.append(amdahl(s, n) * eff / n)
        d, u = busy(b, mode, 1), busy(b, mode, n)
        if d is not None:
            direct.append(d)
        if u is not None:
            used.append(u)
    got = speedup(boots, mode, n)
    if not preds or not got:
        return None
    pred, s = statistics.median(preds), statistics.median(shares)
    return {"f": f_pct, "n": n, "kind": kind, "s": s,
            "s_direct": statistics.median(direct) if direct else None,
            "busy": statistics.median(used) if used else None,
            "pred": pred, "got": got, "ratio": got[0] / pred,
            "machine": statistics.median(machine) if machine else None,
            "ok": abs(got[0] / pred - 1) <= TARGET_AMDAHL,
            # a throughput mix: between Amdahl's curve and the ceiling, 10% slack either side
            "between": (1 - TARGET_AMDAHL) * pred <= got[0] <= (1 + TARGET_AMDAHL) * ceiling(s, n)}


def boots_for(results, n):
    """The boots that measure n workers most directly: those of the smallest -smp size >= n."""
    sizes = sorted({b["size"] for b in results if b["size"] >= n and b["points"]})
    return [b for b in results if sizes and b["size"] == sizes[0]]


def linux_unlocked_speedup():
    """Linux's speedup at 2 workers for its own unlocked ioctl in this run, or None when there is
    none. make bench-linux (tools/bench/bench_linux.py) measures Linux apart; nothing feeds it here yet."""
    return None


def targets(results):
    """(what, measured, wanted, met) for each target these boots can judge; met is None if not judged
    (a target measured at more vCPUs than the host has cores is reported, not judged: bench_sizes())."""
    out = []
    for what, got, want, met in raw_targets(results):
        size = re.search(r"-smp (\d+)", what)
        if met is not None and size and not judged(int(size.group(1))):
            what, met = what + f" [not judged: more vCPUs than this host's {os.cpu_count()} cores]", None
        out.append((what, got, want, met))
    return out


def raw_targets(results):
    """targets() before the host's cores are considered."""
    out = []
    two = boots_for(results, 2)
    if two:
        size = two[0]["size"]
        for mode, limit, cmp in (("bkl", TARGET_SERIAL_2, "<="), ("serialized", TARGET_SERIAL_2, "<="),
                                 ("own", TARGET_UNLOCKED_2, ">=")):
            s = speedup(two, mode, 2)
            if s:
                met = s[0] >= limit if cmp == ">=" else s[0] <= limit
                out.append((f"{mode}: speedup at 2 workers (-smp {size}, {len(two)} boots)",
                            f"{s[0]:.2f}x (boots {s[1]:.2f}-{s[2]:.2f}x)", f"{cmp} {limit}x", met))
        own, lx = speedup(two, "own", 2), linux_unlocked_speedup()
        if own and lx:
            out.append(("own: speedup at 2 workers / Linux's for its unlocked ioctl", f"{own[0] / lx:.2f}",
                        f">= {TARGET_LINUX_SHARE}", own[0] / lx >= TARGET_LINUX_SHARE))
        else:
            out.append(("own: speedup at 2 workers / Linux's for its unlocked ioctl",
                        "not measured in this run (make bench-linux)", f">= {TARGET_LINUX_SHARE}", None))
    for n in (2, 4):
        rows = [r for r in (amdahl_row(boots_for(results, n), f, n) for f in (0, 10, 25, 50, 75, 100)) if r]
        if rows:
            worst = max(rows, key=lambda r: abs(r["ratio"] - 1))
            out.append((f"Amdahl at {n} workers (-smp {boots_for(results, n)[0]['size']}), fork-join mix: "
                        "measured within 10% of the prediction, every f",
                        f"{sum(r['ok'] for r in rows)} of {len(rows)} (worst: f={worst['f']}%, "
                        f"{worst['ratio']:.2f} of predicted)", "all", all(r["ok"] for r in rows)))
            fit = [r["got"][0] / r["machine"] for r in rows if r["machine"]]
            if fit:
                out.append((f"the same, against Amdahl x the machine's efficiency (the unlocked device's "
                             f"speedup / {n}, same boots)", f"{sum(abs(x - 1) <= TARGET_AMDAHL for x in fit)} of "
                             f"{len(fit)} within 10% (" + ", ".join(f"{x:.2f}" for x in fit) + ")",
                             "reported", None))
        rows = [r for r in (amdahl_row(boots_for(results, n), f, n, "mix") for f in MIX_PERCENTS) if r]
        if rows:
            out.append((f"throughput mix at {n} workers: between Amdahl's prediction and the ceiling "
                        "min(n, 1/s), 10% slack, every f",
                        f"{sum(r['between'] for r in rows)} of {len(rows)} (measured / Amdahl: " +
                        ", ".join(f"{r['ratio']:.2f}" for r in rows) + ")", "all",
                        all(r["between"] for r in rows)))
    two = [b for b in boots_for(results, 2) if thread_figures(b).get("speedup_t2")]
    if two:
        # Judged on the run's figure, the median of its boots, as issue 31 states the target. Some
        # boots run the second thread about 1.4x slower from first round to last while the 1-thread
        # rounds (CPU 0) keep their speed: seen in 6 of 15 boots on 2026-12-06, with a reload of CR3
        # on every tick as well (so not a stale emulated TLB); the brackets keep showing them.
        s = across(thread_figures(b)["speedup_t2"] for b in two)
        out.append((f"threads: the parallel sum's speedup at 2 threads (-smp {two[0]['size']}, median of "
                    f"{len(two)} boots)", f"{s[0]:.2f}x (boots {s[1]:.2f}-{s[2]:.2f}x)", f">= {TARGET_THREADS_2}x",
                    s[0] >= TARGET_THREADS_2))
    # Uncontended lock pairs: from the boots with the fewest vCPUs, which the host disturbs least. The
    # ratio is taken inside each boot, then the median over boots: a boot the host slowed as a whole
    # (every latency 1.4x) then moves neither side of the ratio, and one odd boot cannot decide it.
    fewest = min((b["size"] for b in results if b["lat"]), default=None)
    same = [b for b in results if b["size"] == fewest and b["lat"].get("spinlock_pair")]
    for name, label in (("bkl_pair_untimed", f"BKL pair / spinlock pair (uncontended, bkl_timing=0, -smp {fewest})"),
                        ("bkl_pair", f"BKL pair / spinlock pair (uncontended, hold timing on as by default: "
                                     f"one hold in 32, -smp {fewest})")):
        ratio = across(b["lat"][name] / b["lat"]["spinlock_pair"] for b in same if b["lat"].get(name))
        if ratio:
            out.append((label + f", median of {len(same)} boots' ratios",
                        f"{ratio[0]:.2f}x (boots {ratio[1]:.2f}-{ratio[2]:.2f}x)",
                        f"<= {TARGET_BKL_PAIR}x", ratio[0] <= TARGET_BKL_PAIR))
    boot = across(b["boot_s"] for b in results if b["size"] == 4)
    if boot:
        out.append(("boot to the shell prompt at -smp 4 (median)", f"{boot[0]:.2f} s", f"< {TARGET_BOOT_S} s",
                    boot[0] < TARGET_BOOT_S))
    return out


# ---- writing it down ----------------------------------------------------------------------

def write_csv(results, facts):
    cols = ["smp", "boot", "kind", "mode", "f", "workers", "round", "sleep_us", "value", "unit", "ns", "calls",
            "bkl_calls", "hold_ns", "wait_ns", "counted", "lost", "per_cpu"]
    tail = [facts["host"], facts["cores"], facts["qemu"], facts["accel"], facts["date"]]
    with open(os.path.join(OUT, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols + ["host", "cores", "qemu", "accel", "date"])
        for b in results:
            if b["boot_s"] is not None:
                w.writerow([b["size"], b["boot"], "boot", "prompt", "", "", "", "", round(b["boot_s"], 3), "s"] +
                           [""] * 8 + tail)
            for p in b["points"]:
                w.writerow([b["size"], b["boot"], "ioctl", mode_name(p["mode"], p["f"], p["sleep_us"]), p["f"],
                            p["workers"], p["round"], p["sleep_us"], p["cps"], "calls/s", p["ns"], p["calls"],
                            p["bkl_calls"], p["hold_ns"], p["wait_ns"], p["counted"], p["lost"], p["per_cpu"]]
                           + tail)
            for name, ns in sorted(b["lat"].items()):
                w.writerow([b["size"], b["boot"], "latency", name, "", "", "", "", ns, "ns"] + [""] * 8 + tail)
            for name, values in sorted(b.get("threads", {}).items()):
                m = re.match(r"sum_t(\d+)_ms", name)
                for i, v in enumerate(values):
                    w.writerow([b["size"], b["boot"], "threads", name, "", m.group(1) if m else 2, i + 1, "", v,
                                "ms" if m else "ns"] + [""] * 8 + tail)


def table(header, rows):
    return ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"] + \
        ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


def sx(s):
    return "-" if not s else f"{s[0]:.2f}x ({s[1]:.2f}-{s[2]:.2f})"


def speedup_tables(results, sizes):
    lines = []
    for size in sizes:
        boots = [b for b in results if b["size"] == size and b["points"]]
        if not boots:
            continue
        rows = []
        for mode, label in MODES:
            cells = []
            for n in range(1, size + 1):
                cps = [c for b in boots for c in cps_by(b, mode, n)]
                cells.append(f"{statistics.median(cps):.0f}" if cps else "-")
            rows.append([label] + cells + [sx(speedup(boots, mode, n)) for n in range(2, size + 1)])
        lines += ["", f"### -smp {size}: {len(boots)} boots", ""] + table(
            ["mode"] + [f"calls/s, {n} worker{'s' if n > 1 else ''}" for n in range(1, size + 1)] +
            [f"speedup, {n} workers" for n in range(2, size + 1)], rows)
    return lines


def amdahl_table(results):
    rows = []
    for kind, label in MIX_KINDS:
        for n in (2, 4):
            boots = boots_for(results, n)
            for f in (0, 10, 25, 50, 75, 100):
                r = amdahl_row(boots, f, n, kind)
                if r:
                    rows.append([label, f"{f}%", n, f"-smp {boots[0]['size']}", f"{r['s']:.3f}",
                                 "-" if r["s_direct"] is None else f"{r['s_direct']:.3f}",
                                 "-" if r["busy"] is None else f"{r['busy']:.2f}",
                                 f"{r['pred']:.2f}x", f"{ceiling(r['s'], n):.2f}x", sx(r["got"]),
                                 f"{r['ratio']:.2f}", "yes" if r["ok"] else "NO",
                                 "-" if not r["machine"] else f"{r['got'][0] / r['machine']:.2f}"])
    return table(["mix", "f (calls to the BKL device)", "workers", "boots", "s (model)",
                  "s (measured, 1 worker)", "BKL busy at n workers", "Amdahl", "ceiling min(n, 1/s)",
                  "measured (boots' range)", "measured / Amdahl", "within 10%",
                  "measured / (Amdahl x the unlocked device's speedup/n)"], rows)


def model_lines(results):
    lines = []
    for size in sorted({b["size"] for b in results}):
        ms = [m for m in (amdahl_model(b) for b in results if b["size"] == size) if m]
        if ms:
            t_bkl, t_own, hold = (statistics.median(m[i] for m in ms) for i in range(3))
            lines.append(f"- -smp {size}: t_bkl = {t_bkl / 1000:.1f} us, t_own = {t_own / 1000:.1f} us per call "
                         f"at 1 worker; BKL held {hold / 1000:.1f} us per BKL call (h/t_bkl = {hold / t_bkl:.2f}); "
                         f"medians of {len(ms)} boots")
    return lines


def per_boot_table(results):
    rows = []
    for b in results:
        for mode, _ in MODES:
            if not cps_by(b, mode, 1):
                continue
            cells = []
            for n in range(1, b["size"] + 1):
                c = cps_by(b, mode, n)
                cells.append(f"{statistics.median(c):.0f} [{min(c)}-{max(c)}]" if c else "-")
            s = [boot_speedup(b, mode, n) for n in range(2, b["size"] + 1)]
            share = b.get("share")
            rows.append([f"smp{b['size']} #{b['boot']}", mode, " / ".join(cells),
                         " / ".join("-" if x is None else f"{x:.2f}x" for x in s), b["load"],
                         "-" if share is None else f"{share:.2f}"])
    return table(["boot", "mode", "calls/s at 1 / 2 / ... workers: median [min-max] of the rounds",
                  "speedup at 2 / ... workers (best round / best round)", "host load at start", "host cores this session got"], rows)


def lost_table(results, sizes):
    rows = []
    for mode, label in MODES:
        cells = []
        for size in sizes:
            pts = [p for b in results if b["size"] == size for p in b["points"]
                   if mode_name(p["mode"], p["f"], p["sleep_us"]) == mode and p["workers"] == size]
            cells.append(f"{sum(p['lost'] for p in pts)} of {sum(p['counted'] for p in pts)}" if pts else "-")
        rows.append([label] + cells)
    return table(["mode"] + [f"{s} workers (-smp {s})" for s in sizes], rows)


def latency_table(results, sizes):
    names = sorted({n for b in results for n in b["lat"]})
    rows = []
    for n in names:
        rows.append([n] + ["-" if not across(b["lat"].get(n) for b in results if b["size"] == s) else
                           f"{across(b['lat'].get(n) for b in results if b['size'] == s)[0]:.0f}" for s in sizes])
    return table(["operation"] + [f"-smp {s}" for s in sizes], rows)


def append_linux_section(md_lines):
    """make bench-linux's results (build/bench/linux.md), as they are, if that ran; else nothing."""
    path = os.path.join(OUT, "linux.md")
    if os.path.exists(path):
        with open(path) as f:
            md_lines += ["", f.read().rstrip()]


def threads_table(results, sizes):
    """threadbench per -smp size: the median of the boots, the smallest and largest boot in brackets."""
    rows = []
    for size in sizes:
        figs = [thread_figures(b) for b in results if b["size"] == size]
        figs = [f for f in figs if f]
        if not figs:
            continue

        def cell(key, fmt):
            v = across(f.get(key) for f in figs)
            return "-" if not v else f"{fmt.format(v[0])} ({fmt.format(v[1])}-{fmt.format(v[2])})"
        rows.append([f"-smp {size}", len(figs), cell("sum_t1_ms", "{:.0f}")] +
                    [cell(f"speedup_t{n}", "{:.2f}x") for n in THREAD_COUNTS[1:]] + [cell("futex_rtt_ns", "{:.0f}")])
    return table(["size", "boots", "sum by 1 thread (ms)"] +
                 [f"speedup, {n} threads" for n in THREAD_COUNTS[1:]] + ["futex ping-pong (ns per round trip)"], rows)


def write_md(results, facts, cfg, sizes, minutes):
    shares = ", ".join("-" if b.get("share") is None else f"{b['share']:.2f}" for b in results)
    shares = f"{shares} of {facts['cores']}; the host kernel's autogroups: {facts.get('autogroup', 'unknown')}"
    if all(b.get("share") is None for b in results):
        shares = "not measured in this run (make bench measures it since this run)"
    lines = ["# make bench results", "",
             f"- host: {facts['host']}, {facts['cores']} cores ({facts['system']})",
             f"- QEMU: {facts['qemu']}", f"- accelerator: {facts['accel']}", f"- date: {facts['date']}",
             f"- host load average (1, 5, 15 min) at the start: {cfg['load_start']}; at the end: {cfg.get('load_end')}",
             f"- host cores this session got, before each boot (busy processes' CPU time over wall time): "
             f"{shares}",
             f"- method: {cfg['boots']} boots per -smp size ({', '.join(str(s) for s in sizes)}); in each, "
             f"{cfg['rounds']} rounds ({cfg['sleep_rounds']} for the sleeping modes) of 1..N pinned workers "
             f"per mode, {cfg['ms']} ms of calls per run, {cfg['spins']} loop iterations of work per call; "
             f"{minutes:.1f} minutes in all",
             "- speedup: the best round's calls/s at n workers over the best round's at 1 worker, both in "
             "the same boot (the host can only slow a round: tools/bench/bench.py, best_round()); "
             "the median of the boots, with the smallest and largest boot in brackets",
             ""]
    busy = [b["share"] for b in results if b.get("share") is not None and b["share"] < 0.9 * facts["cores"]]
    if busy:
        lines += [f"**The host was busy**: before {len(busy)} of {len(results)} boots this session got "
                  f"{min(busy):.2f}-{max(busy):.2f} of {facts['cores']} cores. Speedups measured so teach "
                  "the host's scheduler as much as smpix; rerun on an idle host to judge the targets.", ""]
    lines += ["## Throughput and speedup against 1 worker in the same boot"]
    lines += speedup_tables(results, sizes)
    lines += ["", f"The sleeping modes ask for {SLEEP_US} us and get the scheduler's tick (HZ=100: 10 ms).",
              "", "## Amdahl's law: a mix of BKL-reliant and flagged calls", "",
              "s(f) = f*h / (f*t_bkl + (1-f)*t_own), Amdahl S(n) = 1 / (s + (1-s)/n); from each boot's "
              "1-worker runs:", ""] + model_lines(results) + [""] + amdahl_table(results)
    if any(b.get("threads") for b in results):
        lines += ["", "## Threads: a parallel sum and a futex ping-pong (compat-threadbench)", "",
                  "A glibc pthread program (user/compat/threadbench.c): the same sum over 4 MiB of words by 1, 2 "
                  "and 4 threads pinned to CPUs 0, 1, 2, 3 (mod the CPUs), 5 rounds whose order takes turns; the "
                  "speedup is the best round's time at 1 thread over the best round's at n, in the same boot. Then two threads "
                  "on CPUs 0 and 1 passing a word by FUTEX_WAIT/FUTEX_WAKE, 3 rounds of 2000 round trips.", ""]
        lines += threads_table(results, sizes)
    lines += ["", "## Targets", ""] + table(["target", "measured", "wanted", "met"], [
        [what, got, want, "not judged" if met is None else "yes" if met else "NO"]
        for what, got, want, met in targets(results)])
    lines += ["", "## Per boot", ""] + per_boot_table(results)
    lines += ["", "## Updates lost with sleeping calls (the device's counter behind its calls), at N workers", ""]
    lines += lost_table(results, sizes)
    lines += ["", "## Latencies (ns per operation; median of the boots)", ""] + latency_table(results, sizes)
    lines += ["", "## Boot to the shell prompt (seconds, from starting QEMU; median of the boots)", ""]
    for s in sizes:
        v = across(b["boot_s"] for b in results if b["size"] == s)
        if v:
            lines.append(f"- -smp {s}: {v[0]:.2f} s ({v[1]:.2f}-{v[2]:.2f})")
    lines += ["", "## Lock statistics (bklstat -n 6 after each size's last boot)", ""]
    for s in sizes:
        last = [b for b in results if b["size"] == s and b.get("hot")]
        if last:
            lines += [f"-smp {s}:", "```", last[-1]["hot"], "```", ""]
    problems = [p for b in results for p in b["problems"]]
    if problems:
        lines += ["## Problems", "", "```"] + problems + ["```"]
    append_linux_section(lines)
    with open(os.path.join(OUT, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


# ---- plots (gnuplot: Debian's gnuplot-nox) ---------------------------------------------------

def gnuplot(name, body, facts, size="760,520"):
    """Draw body into build/bench/NAME.svg, and the same into NAME.png for viewers that take no SVG."""
    svg, png = os.path.join(OUT, name + ".svg"), os.path.join(OUT, name + ".png")
    script = (f"set terminal svg size {size} dynamic noenhanced font 'sans,12'\nset output '{svg}'\n{body}\n"
              f"set terminal pngcairo size {size} noenhanced font 'sans,10'\nset output '{png}'\n{body}\n")
    p = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if p.returncode != 0:
        print(f"make bench: gnuplot failed on {name}:\n" + p.stderr)
        return None
    return svg


def plot_scaling(results, sizes, facts):
    """Speedup against workers, one curve per mode, error bars from the smallest to the largest boot;
    one panel per -smp size."""
    sizes = [s for s in sizes if s > 1 and any(b["size"] == s and b["points"] for b in results)]
    if not sizes:
        return None
    panels = []
    for size in sizes:
        boots = [b for b in results if b["size"] == size and b["points"]]
        data = os.path.join(OUT, f"scaling-smp{size}.dat")
        with open(data, "w") as f:
            for mode, _ in MODES:
                f.write(f"# {mode}: workers median min max\n")
                for n in range(1, size + 1):
                    s = speedup(boots, mode, n)
                    f.write(f"{n} {s[0]:.4f} {s[1]:.4f} {s[2]:.4f}\n" if s else f"{n} NaN NaN NaN\n")
                f.write("\n\n")
        curves = [f"x with lines dt 3 lc rgb '#888888' title 'ideal: n times the calls'"]
        for i, (mode, _) in enumerate(MODES):
            dash = 2 if mode.endswith("-sleep") else 1
            off = (i - 2.5) * 0.025     # side by side, so that the bars do not hide each other
            curves.append(f"'{data}' index {i} using ($1+{off}):2:3:4 with yerrorlines lw 2 dt {dash} "
                          f"lc {i % 3 + 1} pt {i + 5} title \"{SHORT[mode]}\"")
        panels.append(f"""
set title "-smp {size}: {len(boots)} boots, speedup over 1 worker in the same boot"
set xlabel "workers (one pinned to each CPU)"
set ylabel "speedup (median of boots; bars: smallest to largest boot)"
set xrange [0.7:{size}.3]
set xtics 1
set yrange [0:{size + 0.2}<*]
set key outside right top vertical
set grid
plot {", ".join(curves)}""")
    body = (f"set multiplot layout {len(panels)},1 title \"smpix: ioctl() scaling inside one boot; "
            f"{facts['accel'].upper()} on {facts['cores']} host cores\"\n" + "\n".join(panels) + "\nunset multiplot")
    return gnuplot("scaling", body, facts, size=f"900,{60 + 420 * len(panels)}")


def plot_amdahl(results, facts):
    """Measured speedup of both kinds of mix at 2 (and 4) workers beside Amdahl's curve and the
    throughput ceiling for the same boots."""
    data = os.path.join(OUT, "amdahl.dat")
    curves, fns, index = [], [], 0
    with open(data, "w") as f:
        for i, n in enumerate((2, 4)):
            boots = boots_for(results, n)
            models = [m for m in (amdahl_model(b) for b in boots) if m]
            if not models:
                continue
            t_bkl, t_own, hold = (statistics.median(m[k] for m in models) for k in range(3))
            for j, (kind, label) in enumerate(MIX_KINDS):
                f.write(f"# {kind}, {n} workers: f% median min max\n")
                for pct in (0, 10, 25, 50, 75, 100):
                    r = amdahl_row(boots, pct, n, kind)
                    if r:
                        off = (j - 0.5) * 1.2   # side by side, so that the bars do not hide each other
                        f.write(f"{pct + off:.1f} {r['got'][0]:.4f} {r['got'][1]:.4f} {r['got'][2]:.4f}\n")
                f.write("\n\n")
                curves.append(f"'{data}' index {index} using 1:2:3:4 with yerrorbars lw 2 lc {i + 1} "
                              f"pt {5 + 2 * j} ps 1.3 title '{label}, {n} workers (-smp {boots[0]['size']})'")
                index += 1
            fns.append(f"s{n}(x) = (x/100.0)*{hold:.1f} / ((x/100.0)*{t_bkl:.1f} + (1-x/100.0)*{t_own:.1f})\n"
                       f"a{n}(x) = 1 / (s{n}(x) + (1 - s{n}(x))/{n})\n"
                       f"c{n}(x) = (s{n}(x)*{n} > 1) ? 1/s{n}(x) : {n}\n")
            curves += [f"[x=0:100] a{n}(x) with lines lw 2 lc {i + 1} title 'Amdahl, {n} workers'",
                       f"[x=0:100] c{n}(x) with lines dt 3 lc {i + 1} title 'ceiling: min({n}, 1/s), {n} workers'"]
    if not curves:
        return None
    title = ("smpix: a fraction f of each worker's calls to the BKL-reliant device\\nmeasured speedup over "
             f"1 worker against Amdahl's law ({facts['accel'].upper()}, {facts['cores']} host cores)")
    body = "".join(fns) + f"""
set title "{title}"
set xlabel "f: calls to /dev/bench_bkl (%); the rest to /dev/bench_own, same work"
set ylabel "speedup over 1 worker (bars: smallest to largest boot)"
set xrange [-3:103]
set yrange [0:*]
set samples 201
set key outside bottom center horizontal maxrows 4
set grid
plot {", ".join(curves)}"""
    return gnuplot("amdahl", body, facts, size="860,660")


# ---- main -----------------------------------------------------------------------------------

def bench_sizes():
    """The -smp sizes: BENCH_CPUS if given (forced, even beyond the host's cores), else 2 and 4 but no
    more vCPUs than the host has cores. With more vCPUs than cores the host deschedules a vCPU that holds
    or is next in line for a lock, and the others spin: what is measured is the host's scheduler (the BKL
    at 4 workers on 2 cores ran at 0.05x), so such boots are left out unless asked for, and their targets
    are reported but not judged (judged())."""
    given = os.environ.get("BENCH_CPUS", "")
    if given:
        return sorted({int(c) for c in given.split()})
    cores = os.cpu_count() or 1
    sizes = [n for n in (2, 4) if n <= cores] or [min(2, cores) or 1]
    if 4 not in sizes:
        print(f"make bench: this host has {cores} cores: -smp 4 is left out, as its boots would measure the "
              "host's scheduler (BENCH_CPUS=\"2 4\" forces it; its targets are then reported, not judged)",
              flush=True)
    return sizes


def judged(size):
    """Can a target measured at -smp size be judged here: does the host have a core for each vCPU?"""
    return size <= (os.cpu_count() or 1)


def measure_all(cfg, sizes, facts):
    """Every boot of every size: a list of measure_boot()'s dicts."""
    total = sum(cfg["boots"] * s * ((3 + 2 * len(MIX_PERCENTS)) * cfg["rounds"] + 3 * cfg["sleep_rounds"])
                for s in sizes)
    print(f"make bench: {facts['host']}, {facts['cores']} cores, {facts['qemu']}, accel {cfg['accel']}; "
          f"-smp {sizes}, {cfg['boots']} boots each, {cfg['rounds']} rounds, {cfg['ms']} ms per run: "
          f"{total} runs; host load {cfg['load_start']}", flush=True)
    share = cpu_share()
    if share is not None and share < 0.9 * facts["cores"]:
        print(f"make bench: warning: the host is busy, this session gets {share:.2f} of {facts['cores']} cores "
              "now; speedups measured so teach the host's scheduler as much as smpix", flush=True)
    progress, results = Progress(total), []
    # Boots of the sizes take turns (2, 4, 2, 4, ...), so that a busy spell of the host is shared.
    for boot in range(1, cfg["boots"] + 1):
        for size in sizes:
            res = measure_boot(size, boot, cfg, progress)
            with open(os.path.join(OUT, f"smp{size}-boot{boot}.log"), "w") as f:
                f.write(res.pop("log"))
            results.append(res)
            tf = thread_figures(res)
            print(f"  -smp {size} boot {boot}: " + ", ".join(
                f"{m} {sx(speedup([res], m, 2))[:5]}" for m in ("bkl", "own", "serialized")) +
                " at 2 workers" + (f"; threads: sum {tf['speedup_t2']:.2f}x at 2, futex ping-pong "
                                   f"{tf.get('futex_rtt_ns', 0):.0f} ns" if tf.get("speedup_t2") else ""), flush=True)
    return results


def report(run):
    """results.md, results.csv and the plots from one run's record (build/bench/run.json)."""
    results, facts, cfg, sizes = run["results"], run["facts"], run["cfg"], run["sizes"]
    write_csv(results, facts)
    write_md(results, facts, cfg, sizes, run["minutes"])
    if not shutil.which("gnuplot"):
        print("make bench: gnuplot is missing (make deps installs it): no plots drawn")
        return []
    return [p for p in (plot_scaling(results, sizes, facts), plot_amdahl(results, facts)) if p]


def main():
    """make bench; tools/bench/bench.py --replot redraws the tables and plots of the last run from
    build/bench/run.json (after a change to them, or to add make bench-linux's section)."""
    h.LOCKDEP_BOOTS = False     # measured boots: the lock-order checker would cost them time
    record = os.path.join(OUT, "run.json")
    if "--replot" in sys.argv:
        with open(record) as f:
            run = json.load(f)
    else:
        cfg = {"accel": os.environ.get("ACCEL", "") or "tcg", "mem": env_int("MEM", 128),
               "boots": max(1, env_int("BENCH_BOOTS", 3)), "rounds": max(1, env_int("BENCH_ROUNDS", 7)),
               "ms": max(10, env_int("BENCH_MS", 300)), "spins": env_int("BENCH_SPINS", 10000),
               "threads": env_int("BENCH_THREADS", 1) != 0,
               "load_start": loadavg()}
        cfg["sleep_rounds"] = max(1, min(cfg["rounds"], 3))
        sizes = bench_sizes()
        os.makedirs(OUT, exist_ok=True)
        facts = host_facts(cfg["accel"])
        start = time.monotonic()
        results = measure_all(cfg, sizes, facts)
        cfg["load_end"] = loadavg()
        run = {"cfg": cfg, "sizes": sizes, "facts": facts, "results": results,
               "minutes": (time.monotonic() - start) / 60}
        with open(record, "w") as f:
            json.dump(run, f, indent=1)
    plots = report(run)
    print(open(os.path.join(OUT, "results.md")).read())
    print("make bench: wrote build/bench/results.csv, results.md" +
          "".join(f", {os.path.basename(p)} (and .png)" for p in plots) +
          f"; the run took {run['minutes']:.1f} minutes")
    if "--update-docs" in sys.argv and plots:
        for p in plots:
            shutil.copy(p, os.path.join("docs", "img", os.path.basename(p)))
        shutil.copy(os.path.join(OUT, "results.md"), os.path.join("docs", "img", "bench-results.md"))
        print("make bench: copied the plots and the tables into docs/img/")
    return 1 if any(b["problems"] for b in run["results"]) else 0


if __name__ == "__main__":
    sys.exit(main())
