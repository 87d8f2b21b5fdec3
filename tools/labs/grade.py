#!/usr/bin/env python3
"""grade: the checks of one lab (`make grade LAB=n`), run in QEMU on this tree.

Each check is worth some points and prints one line, PASS or FAIL, with its
score; the last line is "lab N: score X/Y". The exit status is 0 only for a
full score. Every QEMU run has a hard timeout and is always killed; a run
stops early when the kernel reports a BKL lockup or panics. Logs go to
build/grade-logs/. The checks look at behaviour only (what the kernel
prints, what the guest program /bin/labcheck finds), never at timing.

    tools/labs/grade.py N            grade lab N
    tools/labs/grade.py N --json     the same, as JSON: every check with its points, why it failed, its log
    tools/labs/grade.py --list       the labs

A check can need others (Grade.check(needs=...)): its points count only when they pass too, so that an
untouched handout scores at most 10% and a half-done solution only what its work is worth.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test"))
import harness  # noqa: E402  (the Qemu class of make test)

harness.LOGS = os.path.join(harness.BUILD, "grade-logs")
STOP = r"BUG: BKL lockup suspected|Kernel panic|--- end of panic|spinlock lockup"
KTEST_LINE = re.compile(r"^ktest: (\S+) (ok|FAIL)(.*)$", re.M)


class Grade:
    """The checks of one lab. A check may need others (needs=): its points count only when every check
    it needs has passed too, so that what passes on an untouched handout (it boots, bad input is refused,
    the BKL keeps the data whole) or on a half-done solution (a lock-free journal takes no BKL, one
    unsplit mutex cannot deadlock) scores nothing until the real work that check is about is done.
    The lines are printed at the end, when every gate is known."""

    def __init__(self, lab):
        self.lab, self.checks = lab, []

    def check(self, name, points, ok, detail="", needs=(), q=None, log=None):
        """One check; q: the QEMU run it looked at (its log is named in the report)."""
        if q is not None:
            log = os.path.join(harness.LOGS, q.name + ".log")
        self.checks.append({"name": name, "max": points, "passed": bool(ok), "detail": detail or "",
                            "needs": list(needs), "log": log})

    def settle(self):
        """Give each check its points: full if it passed and every check it needs (by name) did too."""
        passed = {c["name"]: c["passed"] for c in self.checks}
        for c in self.checks:
            missing = [n for n in c["needs"] if n not in passed]
            if missing:
                raise KeyError(f"lab {self.lab}: check {c['name']!r} needs unknown checks {missing}")
            c["blocked_by"] = [n for n in c["needs"] if not passed[n]]
            c["points"] = c["max"] if c["passed"] and not c["blocked_by"] else 0

    @property
    def got(self):
        return sum(c["points"] for c in self.checks)

    @property
    def max(self):
        return sum(c["max"] for c in self.checks)

    def lines(self):
        for c in self.checks:
            line = f"{'PASS' if c['passed'] else 'FAIL'}  lab{self.lab}: {c['name']:<58} {c['points']}/{c['max']}"
            if not c["passed"] and c["detail"]:
                line += f"  ({c['detail']})"
            elif c["blocked_by"]:
                line += f"  (no points until {', '.join(c['blocked_by'])} passes)"
            yield line


def boot(name, append, cpus=2, mem=128, timeout=60, until=None, extra=(), lockdep=None):
    """One QEMU run: wait for `until` (or the power-off), stop early on a lockup or panic; kill it.
    lockdep: the lock-order checker on (lockdep=1, the harness's default), off, or None: the default."""
    q = harness.Qemu(name, append=append, cpus=cpus, mem=mem, timeout=timeout, extra=extra, lockdep=lockdep)
    q.expect(rf"{until or 'power: off'}|{STOP}")
    read_whole_panic(q)
    q.kill()
    return q


def read_whole_panic(q):
    """A panic's first line stops a run early; its message, registers and backtrace come after it:
    read on to its last line (or for 10 s), so that the log shows what went wrong and where."""
    if re.search(r"Kernel panic", q.output) and "--- end of panic" not in q.output:
        q.expect(r"--- end of panic", timeout=10)


def trouble(q, lockdep_too=True):
    """Why a run was not clean, or ''. lockdep_too=False: a lock-order report, graded on its own, is not."""
    why = [l for l in harness.bad_lines(q.output) if lockdep_too or not re.search(harness.LOCKDEP_REPORT, l)]
    if why:
        return "kernel reported: " + why[0].strip()
    if q.timed_out:
        return "timeout"
    return ""


def lockdep_inversion(out):
    """The lock-order checker's first report (docs/locking.md) in a boot log, in one line, or ''."""
    m = re.search(harness.LOCKDEP_REPORT + r".*$", out, re.M)
    if not m:
        return ""
    what, rest = m.group(0)[len("WARNING: "):], out[m.end():]
    want = re.search(r"^(\S+) is trying to acquire lock:\n \((.+?)\)\{", rest, re.M)
    held = re.search(r"^but task is already holding lock:\n \((.+?)\)\{", rest, re.M)
    if want and held:
        return (f"lockdep: {what}: {want.group(1)} holds {held.group(1)} and takes {want.group(2)}, "
                f"the reverse of an order seen before")
    return "lockdep: " + what


def ktest_checks(g, q, points, needs=()):
    """One check per ktest named in points; a test that never reported fails (it hung or crashed).
    needs: {test: checks it needs} (a check's name is "ktest TEST"), or the checks every one needs."""
    seen = {t: (s, rest.strip()) for t, s, rest in KTEST_LINE.findall(q.output)}
    for test, pts in points.items():
        status, rest = seen.get(test, (None, ""))
        g.check(f"ktest {test}", pts, status == "ok",
                rest if status else "did not report: " + (trouble(q) or "never ran"),
                needs=needs.get(test, ()) if isinstance(needs, dict) else needs, q=q)


def labcheck_checks(g, q, points, needs=None):
    """One check per labcheck test named in points; needs: {test: the checks it needs}."""
    seen = {t: (s, rest.strip()) for t, s, rest in
            re.findall(r"^labcheck: (\S+) (ok|FAIL)(.*)$", q.output, re.M)}
    for test, pts in points.items():
        status, rest = seen.get(test, (None, ""))
        g.check(test, pts, status == "ok", rest if status else "did not report: " + (trouble(q) or "?"),
                needs=(needs or {}).get(test, ()), q=q)


# ---- lab 1: boot and Multiboot -------------------------------------------------------------

GDB_DUMP = r"""
import struct
def val(e):
    return int(gdb.parse_and_eval(e))
base = 0xC0000000
mbi = val("*(unsigned int *)&multiboot_info_phys") + base
flags = val("((struct multiboot_info *)%d)->flags" % mbi)
length = val("((struct multiboot_info *)%d)->mmap_length" % mbi)
addr = val("((struct multiboot_info *)%d)->mmap_addr" % mbi) + base
mem = gdb.selected_inferior().read_memory(addr, length).tobytes()
off = 0
while flags & 0x40 and off + 24 <= length:
    size, start, ln, kind = struct.unpack_from("<IQQI", mem, off)
    print("grade-gdb: loader %x %x %d" % (start, start + ln, kind))
    off += size + 4
for i in range(val("boot_info.nregions")):
    r = "boot_info.regions[%d]" % i
    print("grade-gdb: kernel %x %x %d" % (val(r + ".start"), val(r + ".end"), val(r + ".type")))
"""

TYPE_NAMES = {1: "usable", 2: "reserved", 3: "ACPI reclaimable", 4: "ACPI NVS", 5: "bad memory"}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def lab1(g):
    """The loader's memory map, read in gdb from the Multiboot information itself, must be what the
    kernel kept (boot_info, also read in gdb) and printed."""
    port = free_port()
    script = os.path.join(harness.BUILD, "grade-lab1.py")
    os.makedirs(harness.BUILD, exist_ok=True)
    with open(script, "w") as f:
        f.write(GDB_DUMP)
    q = harness.Qemu("lab1", append="test=cmdline_has_test_word", cpus=2, mem=128, timeout=60,
                     extra=("-S", "-gdb", f"tcp:127.0.0.1:{port}"))
    try:
        gdb = subprocess.run(["gdb", "-q", "-nx", "-batch", harness.KERNEL,
                              "-ex", f"target remote 127.0.0.1:{port}",
                              "-ex", "break multiboot_print_memory_map", "-ex", "continue",
                              "-ex", f"source {script}", "-ex", "delete", "-ex", "detach"],
                             capture_output=True, text=True, timeout=40)
        gdb_out = gdb.stdout + gdb.stderr
    except (OSError, subprocess.TimeoutExpired) as e:
        gdb_out = f"gdb failed: {e}"
    q.expect(rf"power: off|{STOP}")
    read_whole_panic(q)
    q.kill()
    out = q.output
    loader = re.findall(r"^grade-gdb: loader (\w+) (\w+) (\d+)$", gdb_out, re.M)
    kept = re.findall(r"^grade-gdb: kernel (\w+) (\w+) (\d+)$", gdb_out, re.M)
    printed = re.findall(r"^  \[([0-9a-f]+)-([0-9a-f]+)\)\s+\d+ KiB (.+)$", out, re.M)
    as_ints = lambda rows: [(int(a, 16), int(b, 16), c) for a, b, c in rows]  # noqa: E731
    loader = [(a, b, int(c)) for a, b, c in as_ints(loader)]
    kept = [(a, b, int(c)) for a, b, c in as_ints(kept)]
    printed = as_ints(printed)

    # The handout boots and gdb reads its map too: those two count only with the walk itself.
    walk = "boot_info.regions[] holds the loader's map, entry by entry"
    g.check("the kernel boots and prints a memory map", 1,
            bool(printed) and "ktest: cmdline_has_test_word ok" in out and not trouble(q),
            trouble(q) or "no memory map or no ktest line in the boot log", needs=[walk], q=q)
    g.check("gdb stopped in multiboot_print_memory_map and read the loader's map", 1, len(loader) > 0,
            "no map read in gdb: " + gdb_out.strip()[-200:], needs=[walk], q=q)
    g.check(walk, 4, bool(loader) and kept == loader,
            f"loader gave {len(loader)} regions, boot_info has {len(kept)}", q=q)
    g.check("the log prints every region with its type", 2,
            bool(loader) and printed == [(a, b, TYPE_NAMES.get(t, "unknown")) for a, b, t in loader],
            f"printed {len(printed)} regions, the loader gave {len(loader)}", needs=[walk], q=q)
    reserved = [r for r in printed if r[2] != "usable"]
    g.check("the firmware's reserved ranges are there (not only usable memory)", 2, len(reserved) > 0,
            "no reserved region in the printed map", needs=[walk], q=q)


# ---- lab 2: bringing up the APs -------------------------------------------------------------

def lab2(g):
    tests = {"smp_apic_ids_match_tables": 1, "smp_call_function_reaches_every_cpu": 2,
             "smp_timer_ticks_on_every_cpu": 1, "smp_spinlock_counter_exact": 1,
             "smp_every_cpu_has_caches_on": 1}
    q = boot("lab2-smp4", "test=" + ",".join(tests), cpus=4, timeout=60)
    m = re.search(r"^smp: (\d+) CPUs online", q.output, re.M)
    # With the boot CPU alone, "every CPU" is one CPU: the handout passes most ktests, and only the
    # APs' coming up makes them mean anything.
    online = "smp: 4 CPUs online at -smp 4"
    g.check(online, 3, bool(m) and m.group(1) == "4", f"the boot log says {m.group(0) if m else 'nothing'}", q=q)
    late = re.findall(r"^smp: CPU \d+ .*did not answer.*$", q.output, re.M)
    g.check("every AP answered in time", 1, not late and bool(m), late[0] if late else trouble(q),
            needs=[online], q=q)
    ktest_checks(g, q, tests, needs=[online])
    q1 = boot("lab2-smp1", "test=smp_timer_ticks_on_every_cpu", cpus=1, timeout=30)
    g.check("one CPU still boots (nothing to start)", 1,
            re.search(r"^smp: 1 CPUs? online", q1.output, re.M) is not None and not trouble(q1),
            trouble(q1) or "no 'smp: 1 CPUs online'", needs=[online], q=q1)


# ---- lab 3: spinlocks and the BKL -----------------------------------------------------------

def lab3(g):
    tests = {"bkl_nests_three_deep": 2, "bkl_released_while_holder_sleeps": 3,
             "bkl_contention_from_all_cpus_is_exact": 1, "bkl_statistics_count_each_site": 2,
             "bkld_holds_the_bkl_for_life": 1}
    # A boot per test, so that one that hangs (a BKL never let go) costs the others nothing.
    # The two rules the student writes; what a non-recursive BKL held across sleep passes anyway
    # (one level of locking, the counters) counts only with both.
    rules = ["ktest bkl_nests_three_deep", "ktest bkl_released_while_holder_sleeps"]
    clean = []
    for test in tests:
        q = boot(f"lab3-{test}", f"test={test}", cpus=2, timeout=30)
        ktest_checks(g, q, {test: tests[test]}, needs=[] if f"ktest {test}" in rules else rules)
        clean.append("power: off" in q.output and not trouble(q))
    g.check("no BUG report, no lockup, a clean power off after each", 1, all(clean),
            f"{clean.count(False)} of the {len(clean)} boots were not clean (see build/grade-logs/)",
            needs=rules, log=harness.LOGS)
    q1 = boot("lab3-smp1", "test=bkl_released_while_holder_sleeps", cpus=1, timeout=30)
    g.check("one CPU: the BKL is let go while its holder sleeps", 2,
            "ktest: bkl_released_while_holder_sleeps ok" in q1.output and not trouble(q1),
            trouble(q1) or "the test did not pass", q=q1)


# ---- lab 4: the syscall table and the VFS ---------------------------------------------------

def lab4(g):
    q = boot("lab4-vfstest", "init=/bin/vfstest", cpus=2, timeout=90,
             until=r"init \(pid \d+\) exited with status")
    out = q.output
    line = re.search(r"^vfstest: pread-pwrite (ok|FAIL)(.*)$", out, re.M)
    # The handout's other suites pass already: they count only with the two calls working.
    calls = "vfstest pread-pwrite: offsets, errors, the position left alone"
    g.check(calls, 4, bool(line) and line.group(1) == "ok", line.group(0) if line else trouble(q) or "no result line",
            q=q)
    nosys = re.findall(r"^.*syscall \d+ \((pread64|pwrite64)\) is not implemented.*$", out, re.M)
    g.check("pread64 and pwrite64 are in the syscall table (no -ENOSYS)", 2, not nosys and bool(line),
            nosys[0] if nosys else "", needs=[calls], q=q)
    summary = re.search(r"^vfstest: summary (\d+) passed, (\d+) failed", out, re.M)
    g.check("every vfstest suite passes (some use pread64 too)", 2, bool(summary) and summary.group(2) == "0",
            summary.group(0) if summary else trouble(q) or "no summary", needs=[calls], q=q)
    sh = harness.Qemu("lab4-shell", append="", cpus=2, timeout=40)
    shown = ""
    if sh.expect(r"^\$ ", timeout=30):
        sh.send("grep pread /proc/syscalls\n")
        m = sh.expect(r"^\s*180 pread64 [^\n]*\n", timeout=15)       # the whole line, not a part
        shown = m.group(0).strip() if m else ""
        sh.send("poweroff\n")
        sh.expect(r"power: off", timeout=10)
    sh.kill()
    g.check("/proc/syscalls shows pread64 (180) as implemented", 1,
            bool(shown) and " ni" not in shown, shown.strip() or trouble(sh) or "no line for 180", needs=[calls],
            q=sh)


# ---- lab 5: unserializing ioctl -------------------------------------------------------------

def lab5(g):
    q = boot("lab5-smp4", "init=/bin/labcheck lab=5", cpus=4, timeout=120,
             until=r"init \(pid \d+\) exited with status")
    # The handout keeps every update under ioctl=auto (the BKL does it) and refuses bad input: that
    # counts only once the driver runs unlocked and keeps every update there. A flag without a lock
    # loses updates under auto too, so it gains nothing.
    lock, flag = "tally-unlocked-keeps-every-update", "tally-calls-run-unlocked"
    both = [lock, flag]
    labcheck_checks(g, q, {"tally-bad-input": 1, "tally-auto-keeps-every-update": 2, flag: 3, lock: 3,
                           "tally-slots-are-separate": 1},
                    needs={"tally-bad-input": both, "tally-auto-keeps-every-update": both,
                           flag: [lock, "tally-auto-keeps-every-update"], "tally-slots-are-separate": both})
    g.check("no BUG report, no lockup", 1, not trouble(q) and "labcheck: summary" in q.output, trouble(q),
            needs=both, q=q)


# ---- lab 6: lock statistics and debugging ---------------------------------------------------

def lab6(g):
    q = boot("lab6-smp4", "init=/bin/labcheck lab=6", cpus=4, timeout=120,
             until=r"init \(pid \d+\) exited with status")
    # The BKL numbers every record once (the handout), and no lock at all takes no BKL (a lock-free
    # journal): each of the two counts only with the other, and the rest only with both.
    once, nobkl = "journal-numbers-every-record-once", "journal-without-the-bkl"
    labcheck_checks(g, q, {once: 3, nobkl: 4, "journal-bad-input": 1},
                    needs={once: [nobkl], nobkl: [once], "journal-bad-input": [once, nobkl]})
    g.check("no BUG report, no lockup", 1, not trouble(q) and "labcheck: summary" in q.output, trouble(q),
            needs=[once, nobkl], q=q)


# ---- lab 7: the pushdown ------------------------------------------------------------------

def lab7(g):
    """labcheck lab=7 ends a deadlock it finds itself (after 10 s, naming who holds which lock);
    a hang it cannot end runs into the boot's timeout, and the checks that never reported say so.
    The boot has the lock-order checker on (lockdep=1): an order of the branch locks and its
    reverse, seen in any test, is reported before any deadlock, and fails its own check."""
    q = boot("lab7-smp2", "init=/bin/labcheck lab=7", cpus=2, timeout=180,
             until=r"init \(pid \d+\) exited with status", lockdep=True)
    # Steps 1 and 2 count once the books balance (no lock at all is pushed down and takes no BKL too);
    # step 3's split once the branches are apart as well (one unsplit mutex cannot deadlock or invert
    # an order). One never-split mutex scores steps 1 and 2: 9 of 16.
    books, apart = "ledger-books-balance", "ledger-branches-apart"
    labcheck_checks(g, q, {"ledger-bad-input": 1, "ledger-pushed-down": 2, "ledger-without-the-bkl": 2,
                           books: 3, apart: 2, "ledger-no-deadlock": 3},
                    needs={"ledger-bad-input": [books], "ledger-pushed-down": [books],
                           "ledger-without-the-bkl": [books], apart: [books],
                           "ledger-no-deadlock": [books, apart]})
    inversion = lockdep_inversion(q.output)
    g.check("ledger-lock-order: lockdep=1 reports no inversion", 2, not inversion and "lockdep: on" in q.output,
            inversion or "the boot did not say 'lockdep: on'", needs=[books, apart], q=q)
    clean = not trouble(q, lockdep_too=False) and "labcheck: summary" in q.output
    g.check("no BUG report, no lockup", 1, clean, trouble(q, lockdep_too=False), needs=[books], q=q)


# ---- lab 8: the TLB shootdown ---------------------------------------------------------------

# tlbtest's race tests (user/tests/tlbtest.c): a thread reads or writes a page in a loop on CPU 1 while
# the main thread, on CPU 0, takes the page away. A FAIL line names the CHECK that failed; what it means.
TLB_RACES = {"munmap_while_another_cpu_reads": 3, "munmap_and_map_again_at_the_same_address": 2,
             "mprotect_none_while_another_cpu_reads": 2, "mprotect_readonly_while_another_cpu_writes": 2,
             "madvise_dontneed_while_another_cpu_reads": 1}
TLB_OTHERS = ("parallel_faults_on_one_mapping", "madvise_errors",
              "madvise_dontneed_gives_zeroed_pages_willneed_keeps_them")
TLB_WHY = [
    (r"joined_within\(0", "3 s after the call returned, the thread on CPU 1 was still using the page instead of "
                      "faulting: its TLB still maps the old frame (after a munmap, a freed frame)"),
    (r"w\.bad == 0", "the thread on CPU 1 read a value the page never held: the next contents of the freed "
                     "frame, through its stale TLB entry"),
    (r"w\.faulted", "the thread on CPU 1 never faulted: its TLB still maps the page"),
    (r"w\.news", "the thread on CPU 1 never saw the new page mapped at the same address: it kept reading "
                 "the old, freed frame through its stale TLB entry"),
    (r"w\.zeroes", "after MADV_DONTNEED the thread on CPU 1 never saw the fresh zeroed page: it kept reading "
                   "the old, freed frame through its stale TLB entry"),
    (r"\*w\.page == v", "writes from CPU 1 still landed after mprotect(PROT_READ) returned: its TLB still "
                        "has the writable entry"),
]


def tlb_why(rest):
    """A tlbtest FAIL line's 'line N: expr', said as what happened on the other CPU."""
    for pattern, why in TLB_WHY:
        if re.search(pattern, rest):
            return f"{why} [tlbtest: {rest}]"
    return rest


def tlbtest_checks(g, q, label):
    seen = {t: (s, rest.strip()) for t, s, rest in
            re.findall(r"^tlbtest: (\S+) (ok|FAIL|SKIP)(.*)$", q.output, re.M)}
    for test, pts in TLB_RACES.items():
        status, rest = seen.get(test, (None, ""))
        g.check(f"{label}: {test}", pts, status == "ok",
                tlb_why(rest) if status else "did not report: " + (trouble(q) or "?"), q=q)
    return seen


def lab8(g):
    """Three boots: the shootdown ktest at -smp 4 (every CPU of the mask answers before the flush
    returns; one IPI per munmap, not per page), then /bin/tlbtest as init at -smp 2 and -smp 4. The
    handout's kernel sends no IPI: the ktest fails at once, and tlbtest's reader on CPU 1 keeps
    reading a page that CPU 0 unmapped (each race test gives up after a few seconds)."""
    test = "tlb_shootdown_reaches_every_cpu_in_the_mask_and_waits"
    # A FAIL ends the run: the test's readers may be left spinning with preemption off.
    qk = boot("lab8-ktest-smp4", f"test={test}", cpus=4, timeout=90, until=r"^ktest: \S+ FAIL.*$|power: off")
    status, rest = {t: (s, r.strip()) for t, s, r in KTEST_LINE.findall(qk.output)}.get(test, (None, ""))
    shootdown = f"ktest {test} (-smp 4)"
    g.check(shootdown, 3, status == "ok", rest if status else "did not report: " + (trouble(qk) or "never ran"),
            q=qk)
    q2 = boot("lab8-tlbtest-smp2", "init=/bin/tlbtest", cpus=2, timeout=240)
    seen = tlbtest_checks(g, q2, "-smp 2")
    # What passes without any shootdown counts only with it.
    real = [shootdown, f"-smp 2: {next(iter(TLB_RACES))}"]
    others = [t for t in TLB_OTHERS if seen.get(t, ("",))[0] != "ok"]
    g.check("-smp 2: parallel faults on one mapping, madvise's answers", 1, not others,
            f"{others[0]}: {seen.get(others[0], ('', 'did not report'))[1]}" if others else "", needs=real, q=q2)
    if any(seen.get(t, ("",))[0] != "ok" for t in TLB_RACES):
        # Each failed race test waits seconds for a reader that never faults: not twice.
        g.check("-smp 4: every tlbtest test passes", 2, False, "not run: the race tests fail at -smp 2 already",
                q=q2)
        qs = (qk, q2)
    else:
        q4 = boot("lab8-tlbtest-smp4", "init=/bin/tlbtest", cpus=4, timeout=240)
        qs = (qk, q2, q4)
        summary = re.search(r"^tlbtest: summary (\d+) passed, (\d+) failed", q4.output, re.M)
        failed = re.search(r"^tlbtest: (\S+) FAIL(.*)$", q4.output, re.M)
        g.check("-smp 4: every tlbtest test passes", 2,
                bool(summary) and summary.group(2) == "0"
                and int(summary.group(1)) >= len(TLB_RACES) + len(TLB_OTHERS),
                f"{failed.group(1)}: {tlb_why(failed.group(2).strip())}" if failed
                else summary.group(0) if summary else "no summary: " + (trouble(q4) or "?"), q=q4)
    clean = [q for q in qs if trouble(q) or not re.search(r"power: off|^ktest: \S+ FAIL", q.output, re.M)]
    g.check("no BUG report, no lockup, a clean power off after each", 1, not clean,
            f"{clean[0].name}: {trouble(clean[0]) or 'no power off'}" if clean else "", needs=real,
            log=harness.LOGS)


# ---- lab 9: the buffer cache, split ---------------------------------------------------------

# /bin/bcachetest (user/tests/bcachetest.c) as init at -smp 4 on a fresh disk (hda1: ext2, hda2: raw
# scratch): one worker per CPU reads its own cached blocks of hda2 over and over, rewriting some, and
# prints /proc/lock_stat. The cache's lock classes are those whose name has "bcache" in it (the
# handout's bcache_lock; a split's bucket locks, named so by the page's contract).
LAB9_CPUS = 4
# Measured at -smp 4 on a loaded 2-core host: the handout's one lock 3.8% to 62% of its acquisitions
# waited; the reference split (256 buckets) 0.03% to 0.4%.
LAB9_MAX_RATE = 0.01      # contended acquisitions of the cache's locks, at most
LAB9_TESTS = ("regions_written", "stream_area_written", "files_written", "parallel_reads_and_writes",
              "streams_evict_in_parallel", "every_block_still_right", "files_read_back_and_removed")
LAB9_DISK_MIB = 16        # hda2, the last quarter: 4 MiB, 3 of them streamed through a cache of ...
LAB9_CACHE_KIB = 1024     # ... 1 MiB (bcache_limit=), so the streams evict on every CPU
LOCK_STAT_CLASS = re.compile(r"^\s*(\S.*?):((?:\s+\d+(?:\.\d+)?){12})\s*$", re.M)


def lab9_disk():
    """A disk of LAB9_DISK_MIB: tools/build/mkdisk.py's MBR, hda1 an ext2 made by mke2fs -d, hda2 raw."""
    d = os.path.join(harness.BUILD, "grade-lab9")
    os.makedirs(d, exist_ok=True)
    root, img = os.path.join(d, "root"), os.path.join(d, "hda.img")
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "hello.txt"), "w") as f:
        f.write("the buffer cache lab\n")
    env = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
    subprocess.run([sys.executable, os.path.join(harness.ROOT, "tools", "build", "mkdisk.py"), img, str(LAB9_DISK_MIB),
                    "--root", root], check=True, env=env, capture_output=True)
    return img, env


def lab9_fsck(img, env):
    """e2fsck -fn on hda1 (copied out: e2fsck reads no partition table): '' if clean, else why."""
    start, size = 2048 * 512, (LAB9_DISK_MIB * 2048 * 3 // 4 - 2048) * 512   # mkdisk.py's layout
    part = img + ".hda1"
    with open(img, "rb") as f:
        f.seek(start)
        data = f.read(size)
    with open(part, "wb") as f:
        f.write(data)
    fsck = shutil.which("e2fsck", path=env["PATH"])
    if not fsck:
        return "no e2fsck on this host (apt-get install e2fsprogs)"
    r = subprocess.run([fsck, "-fn", part], capture_output=True, text=True, env=env)
    return "" if r.returncode == 0 else (r.stdout + r.stderr).strip().replace("\n", " | ")[-300:]


def cache_lock_stat(out):
    """From bcachetest's lock_stat block: {class: (contentions, acquisitions)} of the cache's classes."""
    m = re.search(r"^bcachetest: lock_stat begin$(.*?)^bcachetest: lock_stat end$", out, re.M | re.S)
    classes = {}
    for name, nums in LOCK_STAT_CLASS.findall(m.group(1) if m else ""):
        f = nums.split()
        if "bcache" in name:
            c, a = classes.get(name, (0, 0))
            classes[name] = (c + int(f[1]), a + int(f[7]))
    return classes


def lab9(g):
    """One boot: bcachetest at -smp 4 with lockdep=1 and lock_stat=1, then e2fsck -fn on the host.
    The cache's contention is the fraction of its locks' acquisitions that had to wait; the handout's
    one bcache_lock waits in a good part of them, a cache split into buckets almost never. Every other
    check counts only once the contention has fallen: an untouched handout scores 0."""
    img, env = lab9_disk()
    q = boot("lab9-bcachetest-smp4", f"init=/bin/bcachetest lock_stat=1 bcache_limit={LAB9_CACHE_KIB}",
             cpus=LAB9_CPUS, timeout=240,
             until=r"power: off", extra=tuple(harness.disk_args([img])), lockdep=True)
    out = q.output
    classes = cache_lock_stat(out)
    reads = re.search(r"^bcachetest: reads (\d+)$", out, re.M)
    cont = sum(c for c, _ in classes.values())
    acq = sum(a for _, a in classes.values())
    rate = cont / acq if acq else 1.0
    names = ", ".join(f"{n} {c}/{a}" for n, (c, a) in sorted(classes.items())) or "none"
    # Each read is at least a lookup and a release in the cache: fewer acquisitions than reads means
    # the cache's structure went unlocked (or its locks are not named "bcache").
    enough = bool(reads) and acq >= int(reads.group(1))
    split = enough and rate <= LAB9_MAX_RATE
    if not reads:
        why = "bcachetest never finished its parallel reads: " + (trouble(q) or "see the log")
    elif not enough:
        why = (f"the cache's lock classes (named bcache...) were taken {acq} times for {reads.group(1)} "
               f"reads: is the cache locked, are its locks named bcache...? [{names}]")
    else:
        why = f"{100 * rate:.2f}% of the cache's acquisitions waited, want <= {100 * LAB9_MAX_RATE:.0f}% [{names}]"
    split_check = f"the cache's lock contention at -smp {LAB9_CPUS} has fallen"
    g.check(split_check, 6, split, "" if split else why, q=q)
    gate = (split_check,)      # what an untouched handout passes too counts only after the split
    seen = {t: (s, r.strip()) for t, s, r in re.findall(r"^bcachetest: (\S+) (ok|FAIL|SKIP)(.*)$", out, re.M)}
    bad = [t for t in LAB9_TESTS if seen.get(t, ("",))[0] != "ok"]
    g.check("every block and file read back right (bcachetest)", 2, not bad,
            f"{bad[0]}: {seen.get(bad[0], ('', 'did not report: ' + (trouble(q) or '?')))[1]}" if bad else "",
            needs=gate, q=q)
    inversion = lockdep_inversion(out)
    g.check("no lock-order report (lockdep=1)", 1, not inversion, inversion, needs=gate, q=q)
    fsck = lab9_fsck(img, env) if not q.timed_out else "the run timed out"
    g.check("no lost block: e2fsck -fn finds hda1 clean", 1, not fsck, fsck, needs=gate, q=q)
    clean = not trouble(q, lockdep_too=False) and re.search(r"power: off", out)
    g.check("no BUG report, no lockup, a clean power off", 1, bool(clean),
            trouble(q, lockdep_too=False) or "no power off", needs=gate, q=q)


# ---- lab 10: the open pushdown --------------------------------------------------------------

# The live BKL sites a student may push the BKL out of (docs/labs/lab10-open-pushdown.md), each with
# the functions /proc/bkl names for it in the handout, the guest test that checks its subsystem (and
# that test's cases that check the site takes the BKL, which a pushdown fails on purpose), and what
# the name of its new lock's class must match (/proc/lock_stat). /bin/bklsites drives each one.
LAB10_SITES = {
    "flock": (("sys_flock", "flock_release_file"), "flocktest", (), r"flock|file_lock"),
    "proc": (("proc_file_read", "proc_file_write"), "proctest", ("bkl", "sys_outside_bkl"), r"proc"),
    "llseek": (("default_llseek",), "vfstest", (), r"llseek|i_mutex"),
    "cpuid": (("cpuid_llseek",), "vfstest", (), r"cpuid|i_mutex"),
    "chrdev-open": (("chrdev_open",), "vfstest", (), r"chrdev|cdev"),
}
LAB10_PROCS, LAB10_OPS = 2, 300           # per site: 2 workers, 300 operations each, beside a BKL hog
LAB10_HOG = "driver_ioctl"                # the hog's own site (ioctlbench's /dev/bench_bkl)
LAB10_ELSEWHERE = 0.02                    # BKL acquisitions anywhere during the workload, per op, at most
LAB10_WAITED = 0.01                       # of its ops that waited for the BKL, at most
LAB10_ANSWERS = os.path.join(harness.ROOT, "docs", "labs", "answers", "lab10.md")


def lab10_stated_site():
    """The site the student names in docs/labs/answers/lab10.md ("Site: flock"), or ''."""
    try:
        m = re.search(r"^Site:[ \t]*([\w-]*)", open(LAB10_ANSWERS, encoding="utf-8").read(), re.M)
    except OSError:
        return ""
    return m.group(1) if m and m.group(1) in LAB10_SITES else ""


def lab10_measure(out):
    """From bklsites' lines: {site: {"ops", "ms", "bkl": [(acq, con, where)], "lock_stat": text, "fail"}}."""
    got = {}
    for name in LAB10_SITES:
        esc = re.escape(name)
        done = re.search(rf"^bklsites: {esc} done ops=(\d+) procs=\d+ hog=\d+ ms=(\d+)$", out, re.M)
        fail = re.search(rf"^bklsites: {esc} FAIL (.*)$", out, re.M)
        ls = re.search(rf"^bklsites: {esc} lock_stat begin$(.*?)^bklsites: {esc} lock_stat end$", out, re.M | re.S)
        got[name] = {"ops": int(done.group(1)) if done else 0, "ms": int(done.group(2)) if done else 0,
                     "bkl": [(int(a), int(c), w) for a, c, w in
                             re.findall(rf"^bklsites: {esc} bkl (\d+) (\d+) (.*)$", out, re.M)],
                     "lock_stat": ls.group(1) if ls else "", "fail": fail.group(1) if fail else ""}
    return got


def lab10_at_site(m, name):
    """BKL acquisitions and contentions at the site's own functions during its workload."""
    funcs = LAB10_SITES[name][0]
    rows = [(a, c, w) for a, c, w in m["bkl"] if w.split()[-1] in funcs]
    return sum(a for a, _, _ in rows), sum(c for _, c, _ in rows), rows


def lab10_anywhere(m):
    """BKL acquisitions and contentions at every site but the hog's during a workload."""
    rows = [(a, c, w) for a, c, w in m["bkl"] if w.split()[-1] != LAB10_HOG]
    return sum(a for a, _, _ in rows), sum(c for _, c, _ in rows), rows


def lab10_own_lock(m, name):
    """{class: acquisitions} of the lock classes named for the site in the workload's /proc/lock_stat."""
    pattern = LAB10_SITES[name][3]
    classes = {}
    for cls, nums in LOCK_STAT_CLASS.findall(m["lock_stat"]):
        if re.search(pattern, cls) or "lab10" in cls:
            classes[cls] = classes.get(cls, 0) + int(nums.split()[7])
    return classes


def lab10_choose(got):
    """The site graded: the one named in the answers file, else the first whose BKL acquisitions fell to 0."""
    stated = lab10_stated_site()
    if stated:
        return stated, "named in docs/labs/answers/lab10.md"
    for name, m in got.items():
        if m["ops"] and lab10_at_site(m, name)[0] == 0:
            return name, "the first site whose acquisitions fell to 0 (no 'Site:' in docs/labs/answers/lab10.md)"
    return next(iter(LAB10_SITES)), "no site's acquisitions fell to 0"


def lab10_tests(sh, test):
    """Run the site's subsystem test at the shell of the same boot: its output, or '' if it never ended."""
    mark = len(sh.output)
    sh.send(f"{test}\n")
    m = sh.expect(rf"^{test}: summary \d+ passed, \d+ failed.*$", timeout=150)
    return sh.output[mark:] if m else ""


def lab10(g):
    """One boot at -smp 2 with lockdep=1 and lock_stat=1, driven at its shell: /bin/bklsites runs the
    workload of every candidate site beside a BKL hog (reading /proc/bkl and /proc/lock_stat around
    each), then, if a site's BKL acquisitions fell to 0, that site's subsystem test. The three checks
    of the pushdown itself (no BKL at the site, not moved elsewhere, a lock of its own) need each
    other, and the rest needs all three: an untouched handout, the BKL moved to a new site and a site
    left with no lock at all each score 0."""
    sh = harness.Qemu("lab10-smp2", append="lock_stat=1", cpus=2, timeout=420, lockdep=True)
    got, tested, name, why = {}, "", next(iter(LAB10_SITES)), ""
    if sh.expect(r"^\$ ", timeout=90):
        sh.send(f"bklsites all -p {LAB10_PROCS} -n {LAB10_OPS} -H\n")
        sh.expect(rf"^bklsites: {re.escape(list(LAB10_SITES)[-1])} (done|FAIL).*$", timeout=240)
        got = lab10_measure(sh.output)
        name, why = lab10_choose(got)
        m = got[name]
        if m["ops"] and lab10_at_site(m, name)[0] == 0:
            tested = lab10_tests(sh, LAB10_SITES[name][1])
        sh.send("poweroff\n")
        sh.expect(r"power: off", timeout=30)
    sh.kill()
    m = got.get(name) or {"ops": 0, "ms": 0, "bkl": [], "lock_stat": "", "fail": ""}
    ops = m["ops"]
    at, _, rows = lab10_at_site(m, name)
    anywhere, waited, elsewhere = lab10_anywhere(m)
    own = lab10_own_lock(m, name)
    pushed = f"{name}: no BKL acquisition at the site during its workload"
    moved = "the BKL is not taken elsewhere instead (every site but the hog's)"
    locked = f"{name}: a lock of its own, taken once per operation or more (/proc/lock_stat)"
    core = [pushed, moved, locked]
    why_not = ""
    if not ops:
        why_not = m["fail"] or "bklsites never finished: " + (trouble(sh) or "see the log")
    g.check(pushed, 5, ops and at == 0,
            why_not if not ops else f"{at} acquisitions in {ops} operations ({why}): " +
            "; ".join(f"{a} at {w}" for a, _, w in rows), needs=[c for c in core if c != pushed], q=sh)
    g.check(moved, 3, ops and anywhere <= LAB10_ELSEWHERE * ops,
            why_not if not ops else f"{anywhere} BKL acquisitions in {ops} operations, want <= "
            f"{int(LAB10_ELSEWHERE * ops)}: " + "; ".join(f"{a} at {w}" for a, _, w in elsewhere[:4]),
            needs=[c for c in core if c != moved], q=sh)
    taken = sum(own.values())
    g.check(locked, 2, ops and taken >= ops,
            why_not if not ops else f"classes matching /{LAB10_SITES[name][3]}/ (or named lab10...) were "
            f"taken {taken} times in {ops} operations: " + (", ".join(f"{k} {v}" for k, v in own.items()) or "none"),
            needs=[c for c in core if c != locked], q=sh)
    # The baseline, in this boot: the workloads of the sites still under the BKL, beside the same hog.
    base = [(n, lab10_anywhere(x)[1] / x["ops"]) for n, x in got.items()
            if n != name and x["ops"] and lab10_at_site(x, n)[0] > 0]
    worst = max((r for _, r in base), default=None)
    fell = ops and waited <= LAB10_WAITED * ops and (worst is None or waited / ops <= worst / 5)
    g.check("the BKL contention has fallen, beside a BKL hog on the other CPU", 2, fell,
            f"{waited} BKL waits in {ops} operations, want <= {int(LAB10_WAITED * ops)}" +
            (f"; at the sites still under it, this boot, waits per operation: " +
             ", ".join(f"{n} {r:.2f}" for n, r in base)
             if base else ""), needs=core, q=sh)
    report = lockdep_inversion(sh.output) or next(
        (l for l in harness.bad_lines(sh.output) if re.search(harness.LOCKDEP_REPORT, l)), "")
    g.check("lockdep=1: no lock-order report (the workloads and the test)", 2,
            not report and "lockdep: on" in sh.output and bool(tested),
            report or ("the boot did not say 'lockdep: on'" if "lockdep: on" not in sh.output
                       else "the subsystem test did not run"), needs=core, q=sh)
    test, expected = LAB10_SITES[name][1], LAB10_SITES[name][2]
    failed = [t for t in re.findall(rf"^{test}: (\S+) FAIL", tested, re.M) if t not in expected]
    summary = re.search(rf"^{test}: summary (\d+) passed", tested, re.M)
    g.check(f"{test} passes in the same boot", 2, bool(summary) and not failed and int(summary.group(1)) > 0,
            f"{test}: {', '.join(failed)} failed" if failed else f"{test} did not finish", needs=core, q=sh)
    clean = not trouble(sh, lockdep_too=False) and "power: off" in sh.output
    g.check("no BUG report, no lockup, a clean power off", 1, clean,
            trouble(sh, lockdep_too=False) or "no power off", needs=core, q=sh)


# ---- lab 12: the eras -----------------------------------------------------------------------

# What a student hands in (docs/labs/lab12-eras.md): docs/labs/answers/lab12.md, whose "claim:" lines
# compare eras, and beside it docs/labs/answers/lab12/, what `make bench ERAS=1` wrote in build/bench/:
# eras.csv (the numbers), eras.md (the table), eras.dat and eras.svg (the plot's data, the plot) and
# era-ERA.log (each era's boot). SMPIX_LAB12_ANSWERS=DIR grades DIR/lab12.md and DIR/lab12/ instead.
LAB12_FILES = ("eras.csv", "eras.md", "eras.dat", "eras.svg")
LAB12_CLAIM = re.compile(r"^claim:\s*(\S+)\s+(\S+)\s*([<>])\s*(?:([\d.]+)\s*x\s+)?(\S+)\s+(\S+)\s*$", re.M)


def lab12_bench():
    """tools/bench/bench_eras.py, for its ERAS, SERIES and MEDIAN (what make bench ERAS=1 writes)."""
    sys.path.insert(0, os.path.join(harness.ROOT, "tools", "bench"))
    import bench_eras
    return bench_eras


def lab12_csv(path, eras, keys):
    """{era: {series: number}} from eras.csv, and what is wrong with it ('' if nothing)."""
    import csv
    table, wrong = {}, []
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0] != ["era", "series", "calls_per_s"]:
        return {}, "its header is not era,series,calls_per_s"
    for row in rows[1:]:
        if len(row) != 3 or row[0] not in eras or row[1] not in keys or not row[2].isdigit():
            wrong.append(",".join(row))
            continue
        table.setdefault(row[0], {})[row[1]] = int(row[2])
    missing = [f"{e} {k}" for e in eras for k in keys if k not in table.get(e, {})]
    if wrong or missing:
        return table, f"rows not understood: {wrong[:2]}" if wrong else f"no number for {', '.join(missing[:3])}"
    return table, ""


def lab12_logs(sub, b, table):
    """'' if every number of the table is the median ioctlbench printed in its era's log, else why not."""
    for era in b.ERAS:
        path = os.path.join(sub, f"era-{era}.log")
        if not os.path.isfile(path):
            return f"no era-{era}.log"
        out = open(path, errors="replace").read()
        if not re.search(rf"^{re.escape(era)}$", out, re.M):
            return f"era-{era}.log: /proc/sys/kernel/era does not say {era}"
        medians = {}
        for dev, _, procs, _, cps in b.MEDIAN.findall(out):
            medians[f"{'mix' if int(procs) == b.MIX_PROCS else dev}-{procs}"] = int(cps)
        for key, _ in b.SERIES:
            if medians.get(key) != table[era][key]:
                return f"{era} {key}: eras.csv says {table[era][key]}, era-{era}.log's median {medians.get(key)}"
    return ""


def lab12_table(path, b, table):
    """'' if the table of eras.md has a row per series with eras.csv's numbers, era by era, else why not."""
    text = open(path, errors="replace").read()
    head = re.search(r"^\| series \|(.*)\|\s*$", text, re.M)
    if not head or [c.strip() for c in head.group(1).split("|")] != b.ERAS:
        return "no '| series | 2.0 | ... |' head with the five eras in order"
    for key, label in b.SERIES:
        row = re.search(rf"^\| {re.escape(label)} \|(.*)\|\s*$", text, re.M)
        if not row:
            return f"no row for {label!r}"
        cells = [c.strip() for c in row.group(1).split("|")]
        want = [str(table[e][key]) for e in b.ERAS]
        if cells != want:
            return f"{key}: the table says {' '.join(cells)}, eras.csv {' '.join(want)}"
    return ""


def lab12_plot(sub, b, table):
    """'' if eras.dat (the plot's data) is eras.csv and eras.svg is gnuplot's plot of the eras and series."""
    rows = [l.split() for l in open(os.path.join(sub, "eras.dat"), errors="replace") if l.strip() and l[0] != "#"]
    got = {r[0].strip('"'): r[1:] for r in rows}
    for era in b.ERAS:
        want = [str(table[era][k]) for k, _ in b.SERIES]
        if got.get(era) != want:
            return f"eras.dat's {era} row is {' '.join(got.get(era, ['missing']))}, eras.csv's {' '.join(want)}"
    svg = open(os.path.join(sub, "eras.svg"), errors="replace").read()
    if "<svg" not in svg or "gnuplot" not in svg.lower():
        return "eras.svg is not a gnuplot SVG"
    lost = [x for x in b.ERAS + [label for _, label in b.SERIES] if f">{x}<" not in svg.replace("&quot;", '"')]
    return f"eras.svg does not show {lost[0]!r}" if lost else ""


def lab12_claims(answers, table):
    """The claims of lab12.md and '' if there are enough and each holds for eras.csv, else why not."""
    text = open(answers, errors="replace").read() if os.path.isfile(answers) else ""
    claims = LAB12_CLAIM.findall(text)
    if len(claims) < 3:
        return claims, f"{len(claims)} claim: lines in lab12.md, want at least 3"
    eras = set()
    for e1, k1, op, factor, e2, k2 in claims:
        line = f"{e1} {k1} {op} {factor + ' x ' if factor else ''}{e2} {k2}"
        if k1 not in table.get(e1, {}) or k2 not in table.get(e2, {}):
            return claims, f"claim '{line}': no such era or series in eras.csv"
        a, c = table[e1][k1], float(factor or 1) * table[e2][k2]
        if not (a < c if op == "<" else a > c):
            return claims, f"claim '{line}' is false: {a} vs {c:g}"
        eras |= {e1, e2}
    if len(eras) < 3 or "2.6.39" not in eras:
        return claims, f"the claims compare {len(eras)} eras ({', '.join(sorted(eras))}): want 3 or more, 2.6.39 among them"
    return claims, ""


def lab12_no_bkl():
    """make ERA=2.6.39 in this tree, then tools/build/bklsurvey --elf on it: '' if 0 sites, else why not."""
    build = os.path.relpath(harness.BUILD, harness.ROOT)
    try:
        made = subprocess.run(["make", "-s", "-C", harness.ROOT, f"BUILD={build}", "era-2.6.39"],
                              capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return "make ERA=2.6.39 took more than 900 s"
    if made.returncode != 0:
        return "make ERA=2.6.39 failed: " + (made.stdout + made.stderr).strip()[-300:]
    elf = os.path.join(harness.BUILD, "era-2.6.39", "kernel.elf")
    r = subprocess.run([os.path.join(harness.ROOT, "tools", "build", "bklsurvey"), "--elf", elf],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or not re.search(r"^0 lock_kernel\(\) call sites", r.stdout, re.M):
        first = re.search(r"^\d+ lock_kernel\(\) call sites.*$", r.stdout, re.M)
        return f"bklsurvey --elf: {first.group(0) if first else (r.stdout + r.stderr).strip()[-300:]}"
    return ""


def lab12(g):
    """No boot: the student's submission checked against itself (the numbers, their logs, the table,
    the plot and the claims), then make ERA=2.6.39 and bklsurvey --elf on this tree. Everything needs
    the submission; the build, which an untouched tree passes too, needs every consistency check."""
    b = lab12_bench()
    base = os.environ.get("SMPIX_LAB12_ANSWERS") or os.path.join(harness.ROOT, "docs", "labs", "answers")
    sub, answers = os.path.join(base, "lab12"), os.path.join(base, "lab12.md")
    keys = [k for k, _ in b.SERIES]
    missing = [f for f in LAB12_FILES if not os.path.isfile(os.path.join(sub, f))]
    table, why = ({}, f"{os.path.relpath(sub, harness.ROOT)}/ lacks {', '.join(missing)}") if missing else \
        lab12_csv(os.path.join(sub, "eras.csv"), b.ERAS, keys)
    there = "the submission: eras.csv with every era and series, the table, the plot"
    g.check(there, 2, not why, why, log=sub)
    ok = not why
    logs = lab12_logs(sub, b, table) if ok else "no submission"
    g.check("every number in eras.csv is its era's median in era-ERA.log", 2, not logs, logs, needs=[there], log=sub)
    tab = lab12_table(os.path.join(sub, "eras.md"), b, table) if ok else "no submission"
    g.check("the table (eras.md) says what eras.csv says", 2, not tab, tab, needs=[there], log=sub)
    plot = lab12_plot(sub, b, table) if ok else "no submission"
    g.check("the plot: eras.dat is eras.csv, eras.svg is its plot", 2, not plot, plot, needs=[there], log=sub)
    claims, wrong = lab12_claims(answers, table) if ok else ([], "no submission")
    claim = "the era claims in lab12.md hold for these numbers"
    g.check(claim, 2, not wrong, wrong, needs=[there], log=answers)
    consistent = [there, "every number in eras.csv is its era's median in era-ERA.log",
                  "the table (eras.md) says what eras.csv says", "the plot: eras.dat is eras.csv, eras.svg is its plot",
                  claim]
    no_bkl = lab12_no_bkl() if ok else "not built: no submission"
    g.check("make ERA=2.6.39 builds this tree's drivers; bklsurvey --elf: 0 sites", 2, not no_bkl, no_bkl,
            needs=consistent, log=os.path.join(harness.BUILD, "era-2.6.39"))


LABS = {1: ("boot and Multiboot, in gdb", lab1), 2: ("bringing up the APs", lab2),
        3: ("spinlocks and the recursive BKL", lab3), 4: ("the syscall table and the VFS", lab4),
        5: ("unserializing ioctl", lab5), 6: ("lock statistics: push the BKL out of a hot site", lab6),
        7: ("the pushdown: from the BKL to a driver's own locks", lab7),
        8: ("the TLB shootdown: one address space on several CPUs", lab8),
        9: ("the buffer cache: one lock split into buckets", lab9)}
LABS[10] = ("the open pushdown: a live BKL site of your choice, pushed out", lab10)
LABS[12] = ("the eras: the BKL's history measured, and a kernel without it", lab12)


# ---- lab 11: the lockdep hunt ---------------------------------------------------------------

# pipetest in a shell at -smp 4 with lockdep=1, then /proc/lockdep. The handout's FIFO close takes the
# pipe's mutex and then the inode's i_mutex, the reverse of the FIFO open (fs/pipe/fifo.c): the checker
# reports it at the first FIFO's last close, long before the deadlock; the run stops at that report.
LAB11_CPUS = 4
# The two classes in /proc/lockdep ("FD: n {u}: name (file:line)"): the checker must have watched both.
LAB11_CLASSES = {"&inode->i_mutex": r"fs/inode\.c", "&p->mutex": r"fs/pipe/pipe\.c"}
# The two paths, as the answers file must name them (any of the names on each path's call chain).
LAB11_PATHS = {"the open (fifo_attach)": r"\b(fifo_attach|fifo_open)\b",
               "the close (fifo_detach)": r"\b(fifo_detach|fifo_release|pipe_release)\b"}


def lab11(g):
    """One boot: a shell runs pipetest (its FIFO tests, and a FIFO opened and closed on every CPU at once),
    then cat /proc/lockdep. The first check is the hunt itself: no lock-order report, the checker still
    on at the end, and both FIFO locks watched by it (a checker turned off, or a lock no longer taken,
    passes nothing). pipetest's own tests, the answers and a clean run count only with it."""
    sh = harness.Qemu(f"lab11-pipetest-smp{LAB11_CPUS}", append="", cpus=LAB11_CPUS, timeout=150, lockdep=True)
    if sh.expect(r"^\$ ", timeout=60):
        sh.send("pipetest; cat /proc/lockdep; poweroff\n")
        if sh.expect(rf"power: off|{STOP}|{harness.LOCKDEP_REPORT}") and re.search(harness.LOCKDEP_REPORT, sh.output, re.M):
            sh.expect(r"^lockdep: turning off", timeout=15)      # the whole report, then stop: the deadlock may follow
    read_whole_panic(sh)
    sh.kill()
    out = sh.output
    inversion = lockdep_inversion(out)
    state = re.search(r"^lockdep: (on|off.*)$", out, re.M)
    watched = [c for c, f in LAB11_CLASSES.items()
               if not re.search(rf"^FD:\s*\d+ \{{.\}}: {re.escape(c)} \({f}:\d+\)$", out, re.M)]
    summary = re.search(r"^pipetest: summary (\d+) passed, (\d+) failed", out, re.M)
    if inversion:
        why = inversion
    elif not state:
        why = "no /proc/lockdep after pipetest: " + (trouble(sh) or "the run did not get there")
    elif state.group(1) != "on":
        why = f"/proc/lockdep says 'lockdep: {state.group(1)}' after pipetest: the checker must stay on"
    elif watched:
        why = f"/proc/lockdep has no class {watched[0]}: the checker never saw it taken"
    else:
        why = ""
    hunt = "lockdep=1: no lock-order report through pipetest, the checker on, both FIFO locks watched"
    g.check(hunt, 6, not why, why, q=sh)
    failed = re.findall(r"^pipetest: (\S+) FAIL(.*)$", out, re.M)
    g.check("every pipetest test passes (FIFOs opened and closed on every CPU at once)", 2,
            bool(summary) and summary.group(2) == "0" and int(summary.group(1)) > 0,
            f"{failed[0][0]}:{failed[0][1]}" if failed else "pipetest did not finish: " + (trouble(sh) or "?"),
            needs=[hunt], q=sh)
    ans = answers_of(11)
    text = "\n".join(ans.get("answered_text", []))
    named = [p for p, rx in LAB11_PATHS.items() if not re.search(rx, text)]
    g.check("docs/labs/answers/lab11.md names the two paths", 1, ans["filled"] and not named,
            "the answers file is untouched" if not ans["filled"] else f"no answer names {named[0]}" if named else "",
            needs=[hunt], log=ans["path"])
    clean = not trouble(sh, lockdep_too=False) and "power: off" in out
    g.check("no BUG report, no lockup, a clean power off", 1, clean,
            trouble(sh, lockdep_too=False) or "no power off", needs=[hunt], q=sh)


LABS[11] = ("the lockdep hunt: a lock-order inversion in the FIFOs", lab11)


# ---- every lab: the written answers, collected for the teacher --------------------------------

def answers_of(n):
    """docs/labs/answers/labN.md (or $SMPIX_ANSWERS_DIR/labN.md): whether it is there and filled in, how many
    of its questions have an answer, and its text. Filled: some text under an 'Answer:', a 'Notes:' or
    'Your name:' (the template has none). answered_text: those texts, for a lab's own light checks."""
    d = os.environ.get("SMPIX_ANSWERS_DIR") or os.path.join(harness.ROOT, "docs", "labs", "answers")
    path = os.path.join(d, f"lab{n}.md")
    info = {"path": path, "present": os.path.isfile(path), "filled": False, "questions": 0, "answered": 0,
            "text": None}
    if not info["present"]:
        return info
    text = open(path, encoding="utf-8", errors="replace").read()
    info["text"] = text
    parts, cur = [], None          # [(kind, [lines])] under each Answer:/Notes:/Your name:
    for line in text.splitlines():
        m = re.match(r"^(Answer|Notes|Your name):\s*(.*)$", line)
        if m:
            body = [m.group(2)] if m.group(2).strip() else []
            parts.append((m.group(1), body))
            cur = body if m.group(1) != "Your name" else None     # a name is one line: the intro follows
        elif line.startswith("#") or line.startswith(">"):
            cur = None
        elif cur is not None and line.strip():
            cur.append(line)
    info["questions"] = sum(1 for k, _ in parts if k == "Answer")
    info["answered"] = sum(1 for k, body in parts if k == "Answer" and body)
    info["answered_text"] = [l for _, body in parts for l in body]
    info["filled"] = bool(info["answered_text"])
    return info


def main(argv):
    args = [a for a in argv[1:] if a != "--json"]
    as_json = len(args) < len(argv) - 1
    if args == ["--list"]:
        for n, (title, _) in sorted(LABS.items()):
            print(f"lab {n}: {title}")
        return 0
    if len(args) != 1 or not args[0].isdigit() or int(args[0]) not in LABS:
        print("usage: tools/labs/grade.py N [--json] (make grade LAB=N [JSON=1]), N in " + " ".join(map(str, sorted(LABS))),
              file=sys.stderr)
        return 2
    n = int(args[0])
    title, fn = LABS[n]
    for f in (harness.KERNEL, harness.INITRD):
        if not os.path.exists(f):
            print(f"grade: {f} is missing: run make first", file=sys.stderr)
            return 2
    if not as_json:
        print(f"lab {n}: {title} (grading {harness.ROOT})", flush=True)
    g = Grade(n)
    fn(g)
    g.settle()
    ans = answers_of(n)
    report = json.dumps({"lab": n, "title": title, "tree": harness.ROOT, "score": g.got, "max": g.max,
                         "logs": harness.LOGS,
                         "answers": {k: ans[k] for k in ("path", "present", "filled", "questions", "answered", "text")},
                         "checks": [{k: c[k] for k in ("name", "points", "max", "passed", "blocked_by", "detail",
                                                       "log")} for c in g.checks]}, indent=1)
    os.makedirs(harness.LOGS, exist_ok=True)
    with open(os.path.join(harness.LOGS, f"lab{n}.json"), "w") as f:     # for scripts, in either mode
        f.write(report + "\n")
    if as_json:
        print(report)
    else:
        for line in g.lines():
            print(line)
        print(f"lab {n}: answers {os.path.relpath(ans['path'], harness.ROOT)}: " +
              (f"filled in, {ans['answered']} of {ans['questions']} questions answered" if ans["filled"]
               else "the untouched template" if ans["present"] else "missing"))
        print(f"lab {n}: score {g.got}/{g.max}", flush=True)
    return 0 if g.got == g.max else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
