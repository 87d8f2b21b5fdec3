#!/usr/bin/env python3
"""make bench ERAS=1: the history of the BKL in one picture.

One workload, booted once per era (kernel/era.c, docs/bkl.md "The eras") at -smp 2: era=2.0,
2.6.6, 2.6.8 and 2.6.11 on the ordinary kernel, and the kernel built with make ERA=2.6.39
(build/era-2.6.39/) for the last. In each, at the shell:

  ioctlbench -d bkl -p 1 / -p 2   /dev/bench_bkl, the driver that relies on the BKL, at 1 and 2
                                  workers (one per CPU)
  ioctlbench -d own -p 1 / -p 2   /dev/bench_own, the flagged driver (FOP_UNLOCKED_IOCTL)
  ioctlbench -d bkl -p 4 -w 500   the contended mix: four workers on two CPUs, short work, so
                                  the lock changes hands all the time; here the semaphore BKL
                                  of 2.6.8 pays a wakeup and a switch per hand-off, the cost
                                  that made Linux revert it in 2008 (commit 8e3e076c5a78)

and writes build/bench/eras.csv, eras.md and eras.svg (gnuplot; eras.png too). BENCH_DOCS=1
(--update-docs) copies the plot and the table into docs/img/.

Environment: ACCEL=tcg|kvm, MEM=128, BENCH_REPEAT=3, BENCH_CALLS=2000, BENCH_SPINS=5000. Wall-clock
time under an emulator: the shapes teach, the numbers do not describe a real machine.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test"))
import harness as h  # noqa: E402

OUT = os.path.join(h.BUILD, "bench")
ERA_DIR = os.path.join(h.BUILD, "era-2.6.39")
ERAS = ["2.0", "2.6.6", "2.6.8", "2.6.11", "2.6.39"]
MEDIAN = re.compile(r"^ioctlbench: median dev=(\S+) policy=(\S+) procs=(\d+) cpus=(\d+) sleep_us=\d+ cps=(\d+)",
                    re.M)
PROMPT = "\n$ "
CPUS = 2
MIX_PROCS, MIX_SPINS = 4, 500

# (key, label in the plot and the table)
SERIES = [("bkl-1", "BKL-reliant driver, 1 worker"),
          ("bkl-2", "BKL-reliant driver, 2 workers"),
          ("own-1", "flagged driver, 1 worker"),
          ("own-2", "flagged driver, 2 workers"),
          ("mix-4", f"contended mix: {MIX_PROCS} workers on {CPUS} CPUs, BKL-reliant, short work")]


def env_int(name, default):
    return int(os.environ.get(name, "") or default)


class Guest:
    """One booted smpix with a shell: type a command, get what it printed up to the next prompt."""

    def __init__(self, era, accel, mem):
        no_bkl = era == "2.6.39"
        self.q = h.Qemu(f"bench-era-{era}", cpus=CPUS, mem=mem, accel=accel, timeout=1200,
                        append=f"era={era}",
                        kernel=os.path.join(ERA_DIR, "kernel.elf") if no_bkl else None,
                        initrd=os.path.join(ERA_DIR, "initrd.cpio") if no_bkl else None)
        self.ok = self.q.expect(r"^\$ ", timeout=120) is not None

    def run(self, command, timeout=600):
        mark = len(self.q.output)
        self.q.send(command + "\n")
        end = time.monotonic() + timeout
        while PROMPT not in self.q.output[mark:] and time.monotonic() < end:
            if self.q._read_some(0.5) is None:
                break
        return self.q.output[mark:]

    def close(self):
        self.q.send("poweroff\n")
        self.q.wait_exit()


def measure(era, accel, mem, repeat, calls, spins):
    """One boot as era: {series key: calls per second}, the raw output, and any problem seen."""
    g = Guest(era, accel, mem)
    if not g.ok:
        g.q.kill()
        return {}, g.q.output, f"era {era}: no shell prompt (see build/test-logs/bench-era-{era}.log)"
    out = g.run("cat /proc/sys/kernel/era")
    for dev in ("bkl", "own"):
        for procs in (1, 2):
            out += g.run(f"ioctlbench -d {dev} -p {procs} -n {max(calls // procs, 1)} -w {spins} -r {repeat}")
    out += g.run(f"ioctlbench -d bkl -p {MIX_PROCS} -n {max(calls // MIX_PROCS, 1)} -w {MIX_SPINS} -r {repeat}")
    out += g.run("bklstat -n 3")
    g.close()
    got = {}
    for dev, _, procs, _, cps in MEDIAN.findall(out):
        key = f"{'mix' if int(procs) == MIX_PROCS else dev}-{procs}"
        got[key] = int(cps)
    problem = ""
    if not re.search(rf"^{re.escape(era)}$", out, re.M):
        problem = f"era {era}: /proc/sys/kernel/era does not say {era}"
    elif "made " in out or "FAIL" in out or len(got) < len(SERIES):
        problem = f"era {era}: ioctlbench reported a problem or a run is missing"
    return got, out, problem


def write_csv(table):
    with open(os.path.join(OUT, "eras.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["era", "series", "calls_per_s"])
        for era in ERAS:
            for key, _ in SERIES:
                w.writerow([era, key, table.get(era, {}).get(key, "")])


def write_md(table, accel, notes, load):
    lines = ["# make bench ERAS=1: ioctl throughput across the eras", "",
             f"- one boot per era at -smp {CPUS}, accelerator {accel}, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             f"- host: {os.cpu_count()} cores, load average {load[0]:.1f} at the start and {load[1]:.1f} at the end "
             f"(above 0.5 or so, the 2-worker points are noise)",
             "- calls per second, all workers together; the median of the repeats in one boot", "",
             "| series | " + " | ".join(ERAS) + " |", "|---" * (len(ERAS) + 1) + "|"]
    for key, label in SERIES:
        lines.append(f"| {label} | " + " | ".join(str(table.get(e, {}).get(key, "-")) for e in ERAS) + " |")
    sem, spin = table.get("2.6.8", {}).get("mix-4"), table.get("2.6.6", {}).get("mix-4")
    if sem and spin:
        lines += ["", f"The semaphore BKL (2.6.8) under contention: {sem / spin:.2f}x the spinning BKL's "
                  f"throughput (2.6.6) on the contended mix."]
    lines += ["", "What each era is: docs/bkl.md, \"The eras\"."]
    for n in notes:
        lines += ["", "```", n, "```"]
    with open(os.path.join(OUT, "eras.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def plot(table, accel):
    if not shutil.which("gnuplot"):
        print("make bench ERAS=1: gnuplot is missing (make deps installs it): no plot drawn")
        return None
    data = os.path.join(OUT, "eras.dat")
    with open(data, "w") as f:
        f.write("# era " + " ".join(k for k, _ in SERIES) + "\n")
        for e in ERAS:
            f.write(f"\"{e}\" " + " ".join(str(table.get(e, {}).get(k, "NaN")) for k, _ in SERIES) + "\n")
    svg = os.path.join(OUT, "eras.svg")
    body = f"""
set title "The BKL's history in one picture: ioctl() throughput by era\\n{accel.upper()}, -smp {CPUS}"
set xlabel "era (boot word era=; 2.6.39: make ERA=2.6.39)"
set ylabel "ioctl calls per second (all workers)"
set key below vertical
set grid
set yrange [0:*]
set xrange [-0.3:{len(ERAS) - 0.7}]
plot """ + ", ".join(
        f"'{data}' using 0:{i + 2}{':xtic(1)' if i == 0 else ''} with linespoints lw 2 pt {i + 5} "
        f"title \"{label}\"" for i, (_, label) in enumerate(SERIES))
    script = (f"set terminal svg size 800,560 dynamic noenhanced font 'sans,12'\nset output '{svg}'\n{body}\n"
              f"set terminal pngcairo size 800,560 noenhanced font 'sans,10'\n"
              f"set output '{os.path.join(OUT, 'eras.png')}'\nreplot\n")
    p = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if p.returncode != 0:
        print("make bench ERAS=1: gnuplot failed:\n" + p.stderr)
        return None
    return svg


def main():
    h.LOCKDEP_BOOTS = False     # measured boots: the lock-order checker would cost them time
    accel = os.environ.get("ACCEL", "") or "tcg"
    mem = env_int("MEM", 128)
    repeat = max(1, env_int("BENCH_REPEAT", 3))
    calls = env_int("BENCH_CALLS", 2000)
    spins = env_int("BENCH_SPINS", 5000)
    if not os.path.exists(os.path.join(ERA_DIR, "kernel.elf")):
        sys.exit("make bench ERAS=1: build/era-2.6.39/kernel.elf is missing: make ERA=2.6.39 (make bench ERAS=1 does)")
    os.makedirs(OUT, exist_ok=True)
    table, notes, problems = {}, [], []
    load_start = os.getloadavg()[0]
    print(f"make bench ERAS=1: eras {' '.join(ERAS)}, -smp {CPUS}, accel {accel}, {repeat} repeats")
    for era in ERAS:
        t = time.monotonic()
        got, out, problem = measure(era, accel, mem, repeat, calls, spins)
        table[era] = got
        with open(os.path.join(OUT, f"era-{era}.log"), "w") as f:
            f.write(out)
        if problem:
            problems.append(problem)
            notes.append(problem)
        print(f"  era {era}: done in {time.monotonic() - t:.0f} s: " +
              ", ".join(f"{k} {v}" for k, v in sorted(got.items())))
    write_csv(table)
    write_md(table, accel, notes, (load_start, os.getloadavg()[0]))
    svg = plot(table, accel)
    print(open(os.path.join(OUT, "eras.md")).read())
    print("make bench ERAS=1: wrote build/bench/eras.csv, eras.md" + (", eras.svg, eras.png" if svg else ""))
    if "--update-docs" in sys.argv and svg:
        shutil.copy(svg, os.path.join(h.ROOT, "docs", "img", "eras.svg"))
        shutil.copy(os.path.join(OUT, "eras.md"), os.path.join(h.ROOT, "docs", "img", "bench-eras.md"))
        print("make bench ERAS=1: copied the plot and the table into docs/img/")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
