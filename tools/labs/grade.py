#!/usr/bin/env python3
"""grade: the checks of one lab (`make grade LAB=n`), run in QEMU on this tree.

Each check is worth some points and prints one line, PASS or FAIL, with its
score; the last line is "lab N: score X/Y". The exit status is 0 only for a
full score. Every QEMU run has a hard timeout and is always killed; a run
stops early when the kernel reports a BKL lockup or panics. Logs go to
build/grade-logs/. The checks look at behaviour only (what the kernel
prints, what the guest program /bin/labcheck finds), never at timing.

    tools/labs/grade.py N            grade lab N
    tools/labs/grade.py --list       the labs and their checks' points
"""
import os
import re
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test"))
import harness  # noqa: E402  (the Qemu class of make test)

harness.LOGS = os.path.join(harness.BUILD, "grade-logs")
STOP = r"BUG: BKL lockup suspected|Kernel panic|--- end of panic|spinlock lockup"
KTEST_LINE = re.compile(r"^ktest: (\S+) (ok|FAIL)(.*)$", re.M)


class Grade:
    def __init__(self, lab):
        self.lab, self.got, self.max = lab, 0, 0

    def check(self, name, points, ok, detail=""):
        self.max += points
        self.got += points if ok else 0
        line = f"{'PASS' if ok else 'FAIL'}  lab{self.lab}: {name:<58} {points if ok else 0}/{points}"
        print(line + ("" if ok or not detail else f"  ({detail})"), flush=True)


def boot(name, append, cpus=2, mem=128, timeout=60, until=None, extra=(), lockdep=None):
    """One QEMU run: wait for `until` (or the power-off), stop early on a lockup or panic; kill it.
    lockdep: the lock-order checker on (lockdep=1, the harness's default), off, or None: the default."""
    q = harness.Qemu(name, append=append, cpus=cpus, mem=mem, timeout=timeout, extra=extra, lockdep=lockdep)
    q.expect(rf"{until or 'power: off'}|{STOP}")
    q.kill()
    return q


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


def ktest_checks(g, q, points):
    """One check per ktest named in points; a test that never reported fails (it hung or crashed)."""
    seen = {t: (s, rest.strip()) for t, s, rest in KTEST_LINE.findall(q.output)}
    for test, pts in points.items():
        status, rest = seen.get(test, (None, ""))
        g.check(f"ktest {test}", pts, status == "ok",
                rest if status else "did not report: " + (trouble(q) or "never ran"))


def labcheck_checks(g, q, points):
    seen = {t: (s, rest.strip()) for t, s, rest in
            re.findall(r"^labcheck: (\S+) (ok|FAIL)(.*)$", q.output, re.M)}
    for test, pts in points.items():
        status, rest = seen.get(test, (None, ""))
        g.check(test, pts, status == "ok", rest if status else "did not report: " + (trouble(q) or "?"))


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
    q.kill()
    out = q.output
    loader = re.findall(r"^grade-gdb: loader (\w+) (\w+) (\d+)$", gdb_out, re.M)
    kept = re.findall(r"^grade-gdb: kernel (\w+) (\w+) (\d+)$", gdb_out, re.M)
    printed = re.findall(r"^  \[([0-9a-f]+)-([0-9a-f]+)\)\s+\d+ KiB (.+)$", out, re.M)
    as_ints = lambda rows: [(int(a, 16), int(b, 16), c) for a, b, c in rows]  # noqa: E731
    loader = [(a, b, int(c)) for a, b, c in as_ints(loader)]
    kept = [(a, b, int(c)) for a, b, c in as_ints(kept)]
    printed = as_ints(printed)

    g.check("the kernel boots and prints a memory map", 1,
            bool(printed) and "ktest: cmdline_has_test_word ok" in out and not trouble(q),
            trouble(q) or "no memory map or no ktest line in the boot log")
    g.check("gdb stopped in multiboot_print_memory_map and read the loader's map", 1, len(loader) > 0,
            "no map read in gdb: " + gdb_out.strip()[-200:])
    g.check("boot_info.regions[] holds the loader's map, entry by entry", 4,
            bool(loader) and kept == loader, f"loader gave {len(loader)} regions, boot_info has {len(kept)}")
    g.check("the log prints every region with its type", 2,
            bool(loader) and printed == [(a, b, TYPE_NAMES.get(t, "unknown")) for a, b, t in loader],
            f"printed {len(printed)} regions, the loader gave {len(loader)}")
    reserved = [r for r in printed if r[2] != "usable"]
    g.check("the firmware's reserved ranges are there (not only usable memory)", 2, len(reserved) > 0,
            "no reserved region in the printed map")


# ---- lab 2: bringing up the APs -------------------------------------------------------------

def lab2(g):
    tests = {"smp_apic_ids_match_tables": 1, "smp_call_function_reaches_every_cpu": 2,
             "smp_timer_ticks_on_every_cpu": 1, "smp_spinlock_counter_exact": 1,
             "smp_every_cpu_has_caches_on": 1}
    q = boot("lab2-smp4", "test=" + ",".join(tests), cpus=4, timeout=60)
    m = re.search(r"^smp: (\d+) CPUs online", q.output, re.M)
    g.check("smp: 4 CPUs online at -smp 4", 3, bool(m) and m.group(1) == "4",
            f"the boot log says {m.group(0) if m else 'nothing'}")
    late = re.findall(r"^smp: CPU \d+ .*did not answer.*$", q.output, re.M)
    g.check("every AP answered in time", 1, not late and bool(m), late[0] if late else trouble(q))
    ktest_checks(g, q, tests)
    q1 = boot("lab2-smp1", "test=smp_timer_ticks_on_every_cpu", cpus=1, timeout=30)
    g.check("one CPU still boots (nothing to start)", 1,
            re.search(r"^smp: 1 CPUs? online", q1.output, re.M) is not None and not trouble(q1),
            trouble(q1) or "no 'smp: 1 CPUs online'")


# ---- lab 3: spinlocks and the BKL -----------------------------------------------------------

def lab3(g):
    tests = {"bkl_nests_three_deep": 2, "bkl_released_while_holder_sleeps": 3,
             "bkl_contention_from_all_cpus_is_exact": 1, "bkl_statistics_count_each_site": 2,
             "bkld_holds_the_bkl_for_life": 1}
    # A boot per test, so that one that hangs (a BKL never let go) costs the others nothing.
    clean = []
    for test in tests:
        q = boot(f"lab3-{test}", f"test={test}", cpus=2, timeout=30)
        ktest_checks(g, q, {test: tests[test]})
        clean.append("power: off" in q.output and not trouble(q))
    g.check("no BUG report, no lockup, a clean power off after each", 1, all(clean),
            f"{clean.count(False)} of the {len(clean)} boots were not clean (see build/grade-logs/)")
    q1 = boot("lab3-smp1", "test=bkl_released_while_holder_sleeps", cpus=1, timeout=30)
    g.check("one CPU: the BKL is let go while its holder sleeps", 2,
            "ktest: bkl_released_while_holder_sleeps ok" in q1.output and not trouble(q1),
            trouble(q1) or "the test did not pass")


# ---- lab 4: the syscall table and the VFS ---------------------------------------------------

def lab4(g):
    q = boot("lab4-vfstest", "init=/bin/vfstest", cpus=2, timeout=90,
             until=r"init \(pid \d+\) exited with status")
    out = q.output
    line = re.search(r"^vfstest: pread-pwrite (ok|FAIL)(.*)$", out, re.M)
    g.check("vfstest pread-pwrite: offsets, errors, the position left alone", 4,
            bool(line) and line.group(1) == "ok", line.group(0) if line else trouble(q) or "no result line")
    nosys = re.findall(r"^.*syscall \d+ \((pread64|pwrite64)\) is not implemented.*$", out, re.M)
    g.check("pread64 and pwrite64 are in the syscall table (no -ENOSYS)", 2, not nosys and bool(line),
            nosys[0] if nosys else "")
    summary = re.search(r"^vfstest: summary (\d+) passed, (\d+) failed", out, re.M)
    g.check("every vfstest suite passes (some use pread64 too)", 2, bool(summary) and summary.group(2) == "0",
            summary.group(0) if summary else trouble(q) or "no summary")
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
            bool(shown) and " ni" not in shown, shown.strip() or trouble(sh) or "no line for 180")


# ---- lab 5: unserializing ioctl -------------------------------------------------------------

def lab5(g):
    q = boot("lab5-smp4", "init=/bin/labcheck lab=5", cpus=4, timeout=120,
             until=r"init \(pid \d+\) exited with status")
    labcheck_checks(g, q, {"tally-bad-input": 1, "tally-auto-keeps-every-update": 2,
                           "tally-calls-run-unlocked": 3, "tally-unlocked-keeps-every-update": 3,
                           "tally-slots-are-separate": 1})
    g.check("no BUG report, no lockup", 1, not trouble(q) and "labcheck: summary" in q.output, trouble(q))


# ---- lab 6: lock statistics and debugging ---------------------------------------------------

def lab6(g):
    q = boot("lab6-smp4", "init=/bin/labcheck lab=6", cpus=4, timeout=120,
             until=r"init \(pid \d+\) exited with status")
    labcheck_checks(g, q, {"journal-numbers-every-record-once": 3, "journal-without-the-bkl": 4,
                           "journal-bad-input": 1})
    g.check("no BUG report, no lockup", 1, not trouble(q) and "labcheck: summary" in q.output, trouble(q))


# ---- lab 7: the pushdown ------------------------------------------------------------------

def lab7(g):
    """labcheck lab=7 ends a deadlock it finds itself (after 10 s, naming who holds which lock);
    a hang it cannot end runs into the boot's timeout, and the checks that never reported say so.
    The boot has the lock-order checker on (lockdep=1): an order of the branch locks and its
    reverse, seen in any test, is reported before any deadlock, and fails its own check."""
    q = boot("lab7-smp2", "init=/bin/labcheck lab=7", cpus=2, timeout=180,
             until=r"init \(pid \d+\) exited with status", lockdep=True)
    labcheck_checks(g, q, {"ledger-bad-input": 1, "ledger-pushed-down": 2, "ledger-without-the-bkl": 2,
                           "ledger-books-balance": 3, "ledger-branches-apart": 2, "ledger-no-deadlock": 3})
    inversion = lockdep_inversion(q.output)
    g.check("ledger-lock-order: lockdep=1 reports no inversion", 2, not inversion and "lockdep: on" in q.output,
            inversion or "the boot did not say 'lockdep: on'")
    clean = not trouble(q, lockdep_too=False) and "labcheck: summary" in q.output
    g.check("no BUG report, no lockup", 1, clean, trouble(q, lockdep_too=False))


# ---- lab 8: the TLB shootdown ---------------------------------------------------------------

# tlbtest's race tests (user/tests/tlbtest.c): a thread reads or writes a page in a loop on CPU 1 while
# the main thread, on CPU 0, takes the page away. A FAIL line names the CHECK that failed; what it means.
TLB_RACES = {"munmap_while_another_cpu_reads": 3, "munmap_and_map_again_at_the_same_address": 2,
             "mprotect_none_while_another_cpu_reads": 2, "mprotect_readonly_while_another_cpu_writes": 2,
             "madvise_dontneed_while_another_cpu_reads": 1}
TLB_OTHERS = ("parallel_faults_on_one_mapping", "madvise_errors",
              "madvise_dontneed_gives_zeroed_pages_willneed_keeps_them")
TLB_WHY = [
    (r"joined\(0\)", "5 s after the call returned, the thread on CPU 1 was still using the page instead of "
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
                tlb_why(rest) if status else "did not report: " + (trouble(q) or "?"))
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
    g.check(f"ktest {test} (-smp 4)", 3, status == "ok",
            rest if status else "did not report: " + (trouble(qk) or "never ran"))
    q2 = boot("lab8-tlbtest-smp2", "init=/bin/tlbtest", cpus=2, timeout=240)
    seen = tlbtest_checks(g, q2, "-smp 2")
    others = [t for t in TLB_OTHERS if seen.get(t, ("",))[0] != "ok"]
    g.check("-smp 2: parallel faults on one mapping, madvise's answers", 1, not others,
            f"{others[0]}: {seen.get(others[0], ('', 'did not report'))[1]}" if others else "")
    if any(seen.get(t, ("",))[0] != "ok" for t in TLB_RACES):
        # Each failed race test waits seconds for a reader that never faults: not twice.
        g.check("-smp 4: every tlbtest test passes", 2, False, "not run: the race tests fail at -smp 2 already")
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
                else summary.group(0) if summary else "no summary: " + (trouble(q4) or "?"))
    clean = [q for q in qs if trouble(q) or not re.search(r"power: off|^ktest: \S+ FAIL", q.output, re.M)]
    g.check("no BUG report, no lockup, a clean power off after each", 1, not clean,
            f"{clean[0].name}: {trouble(clean[0]) or 'no power off'}" if clean else "")


LABS = {1: ("boot and Multiboot, in gdb", lab1), 2: ("bringing up the APs", lab2),
        3: ("spinlocks and the recursive BKL", lab3), 4: ("the syscall table and the VFS", lab4),
        5: ("unserializing ioctl", lab5), 6: ("lock statistics: push the BKL out of a hot site", lab6),
        7: ("the pushdown: from the BKL to a driver's own locks", lab7),
        8: ("the TLB shootdown: one address space on several CPUs", lab8)}


def main(argv):
    if argv[1:] == ["--list"]:
        for n, (title, _) in LABS.items():
            print(f"lab {n}: {title}")
        return 0
    if len(argv) != 2 or not argv[1].isdigit() or int(argv[1]) not in LABS:
        print("usage: tools/labs/grade.py N (make grade LAB=N), N in " + " ".join(map(str, LABS)), file=sys.stderr)
        return 2
    n = int(argv[1])
    title, fn = LABS[n]
    for f in (harness.KERNEL, harness.INITRD):
        if not os.path.exists(f):
            print(f"grade: {f} is missing: run make first", file=sys.stderr)
            return 2
    print(f"lab {n}: {title} (grading {harness.ROOT})", flush=True)
    g = Grade(n)
    fn(g)
    print(f"lab {n}: score {g.got}/{g.max}", flush=True)
    return 0 if g.got == g.max else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
