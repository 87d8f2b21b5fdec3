#!/usr/bin/env python3
"""The smpix test harness (`make test`).

Runs the host unit tests, then boots the kernel in QEMU in many configurations.
Every QEMU run has a hard timeout and is always killed. Each check prints
PASS or FAIL, or SKIP with the reason when this machine cannot show what it
checks (no /dev/kvm, no i386 programs on this host, ...); the last line is
"N passed, N failed" (the skips are counted on the line before); the exit status
is 1 on any failure. Where smpix claims Linux's behaviour, the same programs
run on Linux too (tools/test/linuxref.py: Debian's i386 kernel in QEMU, and this
host where it runs i386 programs). Logs of
every boot are kept in build/test-logs/.

The checks themselves live in tools/test/cases/*.py, one file per area, run in
name order; each has run(h), where h is this module (Qemu, ktests, boot_check,
panic_report, record, wanted). Run a subset with:
    python3 tools/test/harness.py NAME-SUBSTRING...
or the quick one a student runs after each change (make check):
    python3 tools/test/harness.py --check
"""
import os
import re
import select
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# SMPIX_BUILD=DIR: test what `make BUILD=DIR` built (two people on one tree; the QEMU checks only).
BUILD = os.path.join(ROOT, os.environ.get("SMPIX_BUILD") or "build")
LOGS = os.path.join(BUILD, "test-logs")
KERNEL = os.path.join(BUILD, "kernel.elf")
INITRD = os.path.join(BUILD, "initrd.cpio")
ISO = os.path.join(BUILD, "smpix.iso")

# Lines that mean the kernel found a bug in itself: always a failure unless a test expects them.
# The WARNING lines head the lock-order checker's reports (kernel/locking/lockdep.c, docs/locking.md).
LOCKDEP_REPORT = (r"^WARNING: (possible circular locking dependency|possible recursive locking|"
                  r"inconsistent lock state|possible irq lock inversion|HARDIRQ-safe -> HARDIRQ-unsafe)")
BAD_LINES = re.compile(r"Kernel panic|^BUG:|spinlock lockup|" + LOCKDEP_REPORT, re.M)

# Every boot of smpix's kernel checks lock order (the boot word lockdep=1) unless told otherwise:
# the benchmarks (tools/bench*.py, tools/bench/trace.py) set this to False, as the checker costs time.
LOCKDEP_BOOTS = True

# make check: what a student runs after each change, in under two minutes: the host unit tests,
# every ktest at 2 CPUs, usertests, the BKL's misuse reports and its syscall flag, the ioctl path,
# one round of the fuzzer. (`make test` is the whole of it, before a commit.)
CHECK = ["host: test_", "ktest[smp2]", "usertests[smp4-init-mem256]", "report[bkl", "ktest[syscall-bkl",
         "ioctltest[smp4]", "fuzz[smp2]"]

passed = 0
failed = 0
skipped = 0
selected = CHECK if sys.argv[1:] == ["--check"] else sys.argv[1:]


COUNT_LOCK = threading.Lock()    # check files run in lanes (tools/test/lanes.py): the counts are shared


def record(name, ok, detail=""):
    global passed, failed
    with COUNT_LOCK:
        if ok:
            passed += 1
        else:
            failed += 1
    print(f"PASS {name}" if ok else f"FAIL {name}: {detail}", flush=True)


def skip(name, why):
    """A check that cannot run on this machine: said loudly with the reason, counted apart."""
    global skipped
    with COUNT_LOCK:
        skipped += 1
    print(f"SKIP {name}: {why}", flush=True)


def wanted(name):
    return not selected or any(s in name for s in selected)


class Qemu:
    """One QEMU run with the serial console on a pipe: read it, type into it, always kill it."""

    def __init__(self, name, append="", cpus=2, mem=128, iso=False, extra=(), timeout=60,
                 accel="tcg", initrd=None, kernel=None, lockdep=None, disks=()):
        self.name = name
        self.started = time.monotonic()
        self.deadline = self.started + timeout
        self.output = ""
        self.exit_code = None
        self.timed_out = False
        cmd = ["qemu-system-i386", "-machine", "pc", "-accel", accel, "-smp", str(cpus),
               "-m", str(mem), "-display", "none", "-serial", "stdio", "-monitor", "none",
               "-no-reboot", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
        if iso:
            cmd += ["-cdrom", ISO, "-boot", "d"]
        else:
            cmd += ["-kernel", kernel or KERNEL, "-initrd", initrd or INITRD,
                    "-append", with_lockdep(append, kernel, lockdep)]
        cmd += disk_args(disks)
        cmd += list(extra)
        self.cmd = cmd
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, bufsize=0)

    def _read_some(self, wait):
        r, _, _ = select.select([self.proc.stdout], [], [], wait)
        if not r:
            return False
        data = os.read(self.proc.stdout.fileno(), 65536)
        if not data:
            return None
        self.output += data.decode("utf-8", "replace").replace("\r", "").replace("\0", "")  # as a terminal shows them
        return True

    def expect(self, pattern, timeout=None):
        """Wait until pattern (a regex) appears in the output after what was already matched."""
        rx = re.compile(pattern, re.M)
        end = self.deadline if timeout is None else min(self.deadline, time.monotonic() + timeout)
        while True:
            m = rx.search(self.output)
            if m:
                return m
            left = end - time.monotonic()
            if left <= 0:
                self.timed_out = time.monotonic() >= self.deadline
                return None
            got = self._read_some(min(left, 0.5))
            if got is None:
                self.exit_code = self.proc.wait()
                m = rx.search(self.output)
                return m

    def send(self, text):
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def wait_exit(self):
        """Read until QEMU exits by itself or the hard timeout kills it."""
        while self.proc.poll() is None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                self.timed_out = True
                break
            if self._read_some(min(left, 0.5)) is None:
                break
        self.kill()
        return self.exit_code

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.exit_code = self.proc.wait() if self.exit_code is None else self.exit_code
        while self._read_some(0) is True:
            pass
        os.makedirs(LOGS, exist_ok=True)
        with open(os.path.join(LOGS, self.name + ".log"), "w") as f:
            f.write("$ " + " ".join(self.cmd) + "\n" + self.output)
        # Where make test's time goes, a boot a line: sort -n build/test-logs/seconds.txt
        if not getattr(self, "seconds_logged", False):
            self.seconds_logged = True
            with open(os.path.join(LOGS, "seconds.txt"), "a") as f:
                f.write(f"{time.monotonic() - self.started:6.1f} {self.name}\n")


def disk_args(disks):
    """QEMU's -drive options for raw IDE disk images: disks[i] is the i-th IDE unit (0 hda, 1 hdb,
    2 hdc, 3 hdd); None leaves that unit empty."""
    args = []
    for index, path in enumerate(disks):
        if path:
            args += ["-drive", f"file={path},format=raw,if=ide,index={index}"]
    return args


def with_lockdep(append, kernel, lockdep):
    """append, with lockdep=1 first for a boot of smpix (not of Linux: bench_linux's kernels) when
    lockdep (default LOCKDEP_BOOTS) says so and append does not choose itself."""
    if lockdep is None:
        lockdep = LOCKDEP_BOOTS
    smpix = kernel is None or os.path.basename(kernel) == "kernel.elf"
    if not lockdep or not smpix or re.search(r"(^|\s)lockdep=", append):
        return append
    return ("lockdep=1 " + append).strip()


def bad_lines(output):
    return [l for l in output.splitlines() if BAD_LINES.search(l)]


# ---------------------------------------------------------------------------
# Host unit tests

def host_tests():
    d = os.path.join(BUILD, "hosttest")
    if not os.path.isdir(d):
        record("host: unit tests built", False, "build/hosttest is missing (make hosttest)")
        return
    for exe in sorted(os.listdir(d)):
        path = os.path.join(d, exe)
        if not exe.startswith("test_") or not os.access(path, os.X_OK) or exe.endswith(".d"):
            continue
        name = "host: " + exe
        if not wanted(name):
            continue
        if exe.endswith("-i386"):
            import linuxref
            runs, why = linuxref.host_runs_i386(sys.modules[__name__])
            if not runs:
                skip(name, f"{why}; the {exe[:-5]} built for this host's own architecture runs instead")
                continue
        try:
            p = subprocess.run([path], capture_output=True, text=True, timeout=60)
        except OSError as e:
            skip(name, f"this host cannot run it ({e.strerror})")
            continue
        except subprocess.TimeoutExpired:
            record(name, False, "timeout")
            continue
        detail = (p.stdout + p.stderr).strip().splitlines()[-5:]
        record(name, p.returncode == 0, " | ".join(detail))


# ---------------------------------------------------------------------------
# The output of guest test programs (on smpix, and on the Linux reference: tools/test/linuxref.py)


def suite_results(name, suite, out, each=True):
    """The "SUITE: TEST ok", "SUITE: TEST FAIL why" and "SUITE: TEST SKIP why" lines a test
    program prints (user/tests/gtest.h, vfstest.c). Every SKIP is reported as one,
    with its reason; with each, every ok and FAIL line is a result of its own.
    Returns (how many tests reported, the FAIL lines)."""
    lines = re.findall(rf"^{suite}: (\S+) (ok|FAIL|SKIP) ?(.*)$", out, re.M)
    fails = []
    for test, status, rest in lines:
        if status == "SKIP":
            skip(f"{name} {test}", rest.strip())
            continue
        if status == "FAIL":
            fails.append(f"{test} {rest.strip()}")
        if each:
            record(f"{name} {test}", status == "ok", rest.strip())
    return len(lines), fails


# ---------------------------------------------------------------------------
# Kernel self-tests: boot with test=..., one result per ktest line

KTEST_LINE = re.compile(r"^ktest: (\S+) (ok|FAIL)(.*)$", re.M)
KTEST_SUMMARY = re.compile(r"^ktest: summary (\d+) passed, (\d+) failed", re.M)


def ktests(label, tests="all", cpus=2, mem=128, append="", timeout=120, min_count=1, extra=()):
    name = f"ktest[{label}]"
    if not wanted(name):
        return None
    q = Qemu(f"ktest-{label}", append=f"test={tests} {append}".strip(), cpus=cpus, mem=mem,
             timeout=timeout, extra=extra)
    q.expect(KTEST_SUMMARY.pattern)
    q.wait_exit()
    out = q.output
    results = KTEST_LINE.findall(out)
    for test, status, rest in results:
        record(f"{name} {test}", status == "ok", rest.strip())
    problems = []
    if not KTEST_SUMMARY.search(out):
        problems.append("no summary line (timeout or crash)" if not q.timed_out else "timeout")
    if len(results) < min_count:
        problems.append(f"only {len(results)} tests ran, expected at least {min_count}")
    if bad_lines(out):
        problems.append("kernel reported: " + bad_lines(out)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code} (poweroff should give 0)")
    record(f"{name} boot, run and power off", not problems, "; ".join(problems))
    return out


def boot_check(label, patterns, forbid_bad=True, timeout=60, **kw):
    """Boot and wait for each pattern in turn; then kill QEMU."""
    name = f"boot[{label}]"
    if not wanted(name):
        return None
    q = Qemu(f"boot-{label}", timeout=timeout, **kw)
    missing = []
    for p in patterns:
        if not q.expect(p):
            missing.append(p)
            break
    q.kill()
    problems = [f"never saw /{p}/" + (" (timeout)" if q.timed_out else "") for p in missing]
    if forbid_bad and bad_lines(q.output):
        problems.append("kernel reported: " + bad_lines(q.output)[0])
    record(name, not problems, "; ".join(problems))
    return q.output


def user_program(label, prog, cpus=2, mem=128, append="", timeout=120, min_tests=1,
                 patterns=(), forbid=()):
    """Boot init=/bin/PROG, a test program that prints "PROG: NAME ok|FAIL ..." and a summary
    (user/tests/gtest.h). One result per line, then one for the run: summary, exit status 0,
    every pattern present, no forbidden one, no kernel BUG, a clean power off."""
    name = f"{prog}[{label}]"
    if not wanted(name):
        return None
    line = re.compile(rf"^{prog}: (\S+) (ok|FAIL)(.*)$", re.M)
    summary = rf"^{prog}: summary (\d+) passed, (\d+) failed"
    init_exit = r"init \(pid \d+\) exited with status 0x([0-9a-f]+)"
    q = Qemu(f"{prog}-{label}", append=f"init=/bin/{prog} {append}".strip(), cpus=cpus, mem=mem,
             timeout=timeout)
    q.expect(init_exit)
    q.wait_exit()
    out = q.output
    results = line.findall(out)
    for test, status, rest in results:
        record(f"{name} {test}", status == "ok", rest.strip())
    problems = []
    if not re.search(summary, out, re.M):
        problems.append("no summary line" + (" (timeout)" if q.timed_out else ""))
    if len(results) < min_tests:
        problems.append(f"only {len(results)} tests reported, expected {min_tests}")
    m = re.search(init_exit, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    problems += [f"no line /{p}/" for p in patterns if not re.search(p, out, re.M)]
    problems += [f"forbidden line /{p}/" for p in forbid if re.search(p, out, re.M)]
    if bad_lines(out):
        problems.append("kernel reported: " + bad_lines(out)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    record(f"{name} run and power off", not problems, "; ".join(problems))
    return out


FUZZ_SUMMARY = re.compile(r"^fuzz: summary calls=(\d+) children=(\d+) hangs=(\d+) crashes=(\d+) "
                          r"mismatches=(\d+) wrong=(\d+) undying=(\d+) kills=(\d+)$", re.M)
# A finding of the fuzzer's, or the scheduler's report of a task that waited a second for a CPU.
FUZZ_FINDINGS = re.compile(r"^fuzz: (REGISTER MISMATCH|WRONG ANSWER|BUG\?).*$|"
                           r"^INFO: task \d+ \(.*\) runnable but not picked.*$", re.M)


def fuzz(label, seconds, seed, cpus=2, mem=128, append="", echo=False, patterns=()):
    """Boot init=/bin/fuzz (user/tests/fuzz.c) for `seconds`; fail on a panic, a BUG or lockup
    report, a register mismatch, a wrong answer, a child that would not die, no summary, or a
    missing pattern."""
    name = f"fuzz[{label}]"
    if not wanted(name):
        return None
    words = f"init=/bin/fuzz fuzz_seconds={seconds} fuzz_seed={seed} {append}".strip()
    q = Qemu(f"fuzz-{label}", append=words, cpus=cpus, mem=mem, timeout=seconds + 90)
    q.expect(r"init \(pid \d+\) exited")
    q.wait_exit()
    out = q.output
    if echo:
        print("\n".join(l for l in out.splitlines() if l.startswith(("fuzz:", "Out of memory"))
                        or BAD_LINES.search(l)))
    problems = []
    m = FUZZ_SUMMARY.search(out)
    if not m:
        problems.append("no summary line" + (" (timeout)" if q.timed_out else ""))
    elif int(m.group(1)) == 0:
        problems.append("no calls were made")
    elif seconds >= 8 and "fuzz_selftest" not in append and int(m.group(8)) == 0:
        problems.append("no child was killed at random: the kill check did not run")
    problems += [f.group(0) for f in FUZZ_FINDINGS.finditer(out)][:3]
    problems += [f"no line /{p}/" for p in patterns if not re.search(p, out, re.M)]
    if bad_lines(out):
        problems.append("kernel reported: " + bad_lines(out)[0])
    if not re.search(r"init \(pid \d+\) exited with status 0x0;", out):
        problems.append("the fuzzer did not exit with status 0")
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    detail = "; ".join(problems) + f" (replay: make fuzz SEED={seed} CPUS={cpus} SECONDS={seconds})"
    record(name + (f" {m.group(1)} calls" if m else ""), not problems, detail)
    return out


def expect_report(label, test, patterns, cpus=2, timeout=60):
    """Run one explicit ktest that misuses something on purpose; its report lines must appear
    (they are BUG: lines, which any other run would count as failures) and the test must pass."""
    name = f"report[{label}]"
    if not wanted(name):
        return
    q = Qemu(f"report-{label}", append=f"test={test}", cpus=cpus, timeout=timeout)
    q.expect(KTEST_SUMMARY.pattern)
    q.wait_exit()
    out = q.output
    problems = [f"no /{p}/" for p in patterns if not re.search(p, out, re.M)]
    if not re.search(rf"^ktest: {test} ok", out, re.M):
        problems.append(f"ktest {test} did not pass")
    if re.search(r"Kernel panic", out):
        problems.append("the kernel panicked")
    record(name, not problems, "; ".join(problems))


def panic_report(label, test, extra_patterns=(), registers=True, timeout=60):
    """A deliberate crash must produce a full report: what, registers, a symbolized backtrace."""
    name = f"panic[{label}]"
    if not wanted(name):
        return
    q = Qemu(f"panic-{label}", append=f"test={test}", timeout=timeout)
    q.expect(r"--- end of panic")
    q.kill()
    out = q.output
    shape = [r"Kernel panic on CPU \d+", r"Backtrace:", r"\[<[0-9a-f]{8}>\] [A-Za-z_]\w*\+0x[0-9a-f]+",
             r"--- end of panic"] + list(extra_patterns)
    if registers:
        shape += [r"eip [0-9a-f]{8}", r"eax [0-9a-f]{8}", r"err 0x[0-9a-f]+"]
    missing = [p for p in shape if not re.search(p, out, re.M)]
    record(name, not missing, "report lacks " + ", ".join(f"/{m}/" for m in missing))


# ---------------------------------------------------------------------------

def guarded(what, fn):
    """Run fn; an exception in the harness itself is a FAIL with its traceback, never the end of
    the run: whatever this machine lacks, the summary line is printed."""
    import traceback
    try:
        fn()
    except Exception:   # noqa: BLE001 (a crash of a check file is reported, then the next one runs)
        record(f"harness: {what} ran to its end", False, traceback.format_exc().strip().replace("\n", " | "))


def main():
    import importlib
    import lanes
    import linuxref
    start = time.monotonic()
    os.makedirs(LOGS, exist_ok=True)
    open(os.path.join(LOGS, "seconds.txt"), "w").close()
    linuxref.boot_in_background(sys.modules[__name__])
    guarded("host unit tests", host_tests)
    # Each file in tools/test/cases/ adds the QEMU checks of one area: run(h) with h = this module.
    # They run in lanes, two at a time but for those that must run alone (tools/test/lanes.py).
    casedir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
    sys.path.insert(0, casedir)
    files = sorted(f for f in os.listdir(casedir) if f.endswith(".py") and not f.startswith("_"))
    lanes.run_files(files, lambda f: guarded(f"tools/test/cases/{f}",
                                             lambda: importlib.import_module(f[:-3]).run(sys.modules[__name__])))

    print(f"(harness took {time.monotonic() - start:.0f} s; logs in build/test-logs/; {skipped} skipped)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.modules["harness"] = sys.modules[__name__]
    sys.exit(main())
