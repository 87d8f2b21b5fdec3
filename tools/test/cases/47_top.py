"""top (user/bin/top/, docs/time.md "top"): at -smp 2, two ioctlbench workers fight for the BKL in the
background while `top -b -n 1 -d 1` measures one second: every CPU is busy in the kernel and much of it
spinning, and the workers are listed with their BKL wait. Once they are killed, the CPUs are idle again.
Then the interactive top: it redraws until `q`, and leaves the terminal as it found it."""
import re

import testlib

NAME = "top[smp2]"
# "CPU  %usr %sys %spin %bkl %irq %iowait %steal %idle", then "all" and one line per CPU.
CPU_LINE = re.compile(r"^(all|\d+)\s+" + r"\s+".join([r"(\d+\.\d)"] * 8) + r"$", re.M)
# "  PID CPU S  %CPU  %BKL      TIME COMMAND"
TASK_LINE = re.compile(r"^\s*(\d+)\s+(\d+) ([A-Z])\s+(\d+\.\d)\s+(\d+\.\d)\s+\d+:\d\d\.\d\d (\S.*)$", re.M)
BENCH = "ioctlbench -d bkl -p 2 -n 1000000 -w 20000 -r 1 > /dev/null &"


def cpu_shares(out):
    """{"all" or "N": {"usr": .., "sys": .., ...}} from top's CPU table."""
    names = ("usr", "sys", "spin", "bkl", "irq", "iowait", "steal", "idle")
    return {m.group(1): dict(zip(names, map(float, m.groups()[1:]))) for m in CPU_LINE.finditer(out or "")}


def had(c):
    """The share of the interval the virtual CPU really ran: the host took the rest (steal)."""
    return max(100.0 - c["steal"], 1.0)


def check_busy(h, s):
    """While the workers run: every CPU is mostly in the kernel and spins there, and they wait for the BKL."""
    out = s.run("top -b -n 1 -d 1", timeout=150)   # /proc reads wait for the BKL the workers fight for
    cpus = cpu_shares(out)
    why = "" if len(cpus) == 3 else f"{len(cpus)} CPU lines, not all + 2, in {out!r}"
    for name, c in sorted(cpus.items()):
        if why:
            break
        if c["sys"] < 0.5 * had(c):
            why = f"CPU {name}: sys {c['sys']} is not most of the {had(c):.1f}% it ran: {c}"
        elif not 0 < c["spin"] <= c["sys"] + 0.1:
            why = f"CPU {name}: spin {c['spin']} is not a share of sys {c['sys']}: {c}"
    h.record(f"{NAME} top -b -n 1 under the BKL benchmark: every CPU busy in sys, with spin", not why, why)
    workers = [m for m in TASK_LINE.finditer(out or "") if m.group(6) == "ioctlbench" and m.group(3) == "R"]
    waiting = [m for m in workers if float(m.group(5)) > 0 and float(m.group(4)) > 0]
    testlib.check(h, f"{NAME} the 2 ioctlbench workers are listed running, with %CPU and BKL wait",
                  f"{len(waiting)} of {len(workers)} running workers wait for the BKL\n{out}",
                  r"^2 of 2 running workers")
    cpus_seen = {m.group(2) for m in workers}
    h.record(f"{NAME} the workers' last CPUs (field 39) are the 2 CPUs", cpus_seen == {"0", "1"},
             f"CPUs {sorted(cpus_seen)} in {out!r}")


def check_idle(h, s):
    out = s.run("top -b -n 1", timeout=30)
    cpus = cpu_shares(out)
    why = "" if len(cpus) == 3 else f"{len(cpus)} CPU lines in {out!r}"
    for name, c in sorted(cpus.items()):
        if not why and c["idle"] < 0.8 * had(c) - 0.1:
            why = f"CPU {name}: idle {c['idle']} of the {had(c):.1f}% it ran: {c}"
    h.record(f"{NAME} top -b -n 1 after the benchmark: the CPUs are idle", not why, why)


def check_threads(h, s):
    """-H: a line per thread, with its process id and its own id; init has one thread, its tid is its pid."""
    out = s.run("top -b -H -n 1 -d 0.5", timeout=30) or ""
    init = re.search(r"^\s*1\s+(\d+)\s+\d+ [A-Z]\s+\d+\.\d\s+\d+\.\d\s+\S+ init$", out, re.M)
    h.record(f"{NAME} top -H: PID and TID columns, a line per thread", "  PID   TID CPU S" in out and
             init is not None and init.group(1) == "1", f"got {out!r}")


def check_interactive(h, s):
    """`top`, `H`, then `q`: the screen was drawn (cleared and redrawn), the prompt is back, stty unchanged."""
    before = s.run("stty -a")
    start = len(s.q.output)
    s.q.send("top -d 0.5\r")
    drawn = s.wait_for(re.compile(r"\x1b\[H\x1b\[J(.|\n)*\(q quits"), start, 20)
    s.q.send("H")
    threads = s.wait_for(re.compile(r"\x1b\[H\x1b\[J[^\x1b]*  PID   TID CPU"), drawn.end() if drawn else start, 20)
    s.q.send("q")
    back = s.wait_for(testlib.PROMPT, threads.end() if threads else start, 20)
    h.record(f"{NAME} interactive top draws a screen, H shows threads, and q quits to the prompt",
             bool(drawn and threads and back), f"output {s.q.output[start:]!r}")
    after = s.run("stty -a")
    h.record(f"{NAME} the terminal is as it was after q (stty -a)", before is not None and before == after,
             f"before {before!r}, after {after!r}")


def run(h):
    if not h.wanted(NAME):
        return
    s = testlib.Session(h, "top-smp2", cpus=2, timeout=400)
    if not s.ok:
        h.record(f"{NAME} boot to a prompt", False, "no prompt")
        return
    out = s.run(BENCH)
    job = re.search(r"\[\d+\] (\d+)", out or "")
    h.record(f"{NAME} the benchmark starts in the background", job is not None, f"got {out!r}")
    if job:
        s.run("sleep 3")                # the workers fork and pin themselves (slowly on a busy host)
        check_busy(h, s)
        s.run(f"kill -TERM -{job.group(1)}; wait", timeout=120)
        check_idle(h, s)
    testlib.check(h, f"{NAME} bad input: top -d x is a usage error", s.run("top -d x; echo status=$?"),
                  r"^usage: top .*\nstatus=2$")
    check_threads(h, s)
    check_interactive(h, s)
    problems = s.power_off()
    h.record(f"{NAME} power off", not problems, "; ".join(problems))
