"""The lock-order checker (kernel/locking/lockdep.c, docs/locking.md): every boot of make test runs
with lockdep=1 and fails on a report (harness.BAD_LINES); here, inversions planted on purpose
(kernel/tests/lockdep_test.c) must be reported with the lines a reader needs, in that order."""
import re

HEX = r"\[<[0-9a-f]{8}>\]"
SRC = r"kernel/tests/lockdep_test\.c:\d+"
FOOTER = [r"^stack backtrace:$",
          r"^lockdep: turning off the locking correctness validator; docs/locking\.md explains this report$"]

# test=lockdep_abba_is_reported: one task takes lockdep-a then -b, later -b then -a.
ABBA = [r"^lockdep: on", r"^={54}$",
        r"^WARNING: possible circular locking dependency detected$", r"^-{54}$",
        r"^boot/\d+ is trying to acquire lock:$",
        rf"^ \(&lockdep_a\)\{{\+\}}, at: {HEX} take_b_then_a\+0x",
        r"^but task is already holding lock:$",
        rf"^ \(&lockdep_b\)\{{\+\}}, at: {HEX} take_b_then_a\+0x",
        r"^which lock already depends on the new lock\.$",
        r"^the existing dependency chain \(in reverse order\) is:$",
        r"^-> #1 \(&lockdep_b\)\{\+\}:$",
        rf"^       taken while holding &lockdep_a \(taken at {HEX} take_a_then_b\+0x[0-9a-f]+\), at:$",
        rf"^       {HEX} mutex_lock\+0x",
        rf"^       {HEX} take_a_then_b\+0x",
        r"^-> #0 \(&lockdep_a\)\{\+\}:$",
        r"^       taken now while holding &lockdep_b, at:$",
        r"^ Possible unsafe locking scenario:$",
        r"^       CPU0                    CPU1$",
        r"^  lock\(&lockdep_b\);$", r"^                               lock\(&lockdep_a\);$",
        r"^                               lock\(&lockdep_b\);$", r"^  lock\(&lockdep_a\);$",
        r"^ \*\*\* DEADLOCK \*\*\*$",
        r"^1 lock held by boot/\d+:$", rf"^ #0: \(&lockdep_b\)\{{\+\}}, at: {HEX} take_b_then_a\+0x",
        FOOTER[0], r"^Backtrace:$", r"take_b_then_a\+0x", FOOTER[1]]

# test=lockdep_irq_inconsistent_is_reported: ktest-irq-lock taken with interrupts on, then in a handler.
INCONSISTENT = [r"^WARNING: inconsistent lock state$",
                r"^inconsistent \{HARDIRQ-ON-W\} -> \{IN-HARDIRQ-W\} usage\.$",
                r"^boot/\d+ \[HC1:HE0\] takes:$",
                rf"^ \(ktest-irq-lock\)\{{\?\}}, at: {SRC}$",
                r"^\{HARDIRQ-ON-W\} state was registered at:$",
                rf"^       {SRC} \(pid \d+\)$",
                r"ktest_fn_lockdep_irq_inconsistent_is_reported\+0x",
                r"^  <Interrupt>$", r"^    lock\(ktest-irq-lock\);$", r"^ \*\*\* DEADLOCK \*\*\*$",
                FOOTER[0], r"take_irq_lock_handler\+0x", FOOTER[1]]

# test=lockdep_irq_lock_order_is_reported: irq-safe ktest-irq-lock held while irq-unsafe ktest-irq-unsafe is taken.
IRQ_ORDER = [r"^WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected$",
             r"^boot/\d+ is trying to acquire lock:$",
             rf"^ \(ktest-irq-unsafe\)\{{\+\}}, at: {SRC}$",
             r"a HARDIRQ-irq-safe lock:$", r"^ \(ktest-irq-lock\)\{-\}$",
             r"^\.\.\. which became HARDIRQ-irq-safe at:$", r"take_irq_lock_handler\+0x",
             r"^to a HARDIRQ-irq-unsafe lock:$", r"^ \(ktest-irq-unsafe\)\{\+\}$",
             r"^\.\.\. which became HARDIRQ-irq-unsafe at:$",
             r"ktest_fn_lockdep_irq_lock_order_is_reported\+0x",
             r"^                               local_irq_disable\(\);$", r"^  <Interrupt>$",
             r"^    lock\(ktest-irq-lock\);$", r"^ \*\*\* DEADLOCK \*\*\*$",
             r"^1 lock held by boot/\d+:$", rf"^ #0: \(ktest-irq-lock\)\{{-\}}, at: {SRC}$", FOOTER[0],
             FOOTER[1]]


def in_order(out, patterns):
    """The first pattern not found after the ones before it, or None."""
    pos = 0
    for p in patterns:
        m = re.compile(p, re.M).search(out, pos)
        if not m:
            return p
        pos = m.end()
    return None


def planted(h, label, test, patterns):
    """Boot test=TEST (lockdep=1, the harness's default): exactly one report, with every pattern in
    order; the ktest passes (it checks that the checker counted one report and went off)."""
    name = f"lockdep[{label}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"lockdep-{test}", append=f"test={test}", cpus=2, timeout=60)
    q.expect(h.KTEST_SUMMARY.pattern)
    q.wait_exit()
    out = q.output
    problems = []
    missing = in_order(out, patterns)
    if missing:
        problems.append(f"no /{missing}/ after the lines before it")
    reports = re.findall(h.LOCKDEP_REPORT, out, re.M)
    if len(reports) != 1:
        problems.append(f"{len(reports)} reports, not one")
    if not re.search(rf"^ktest: {test} ok", out, re.M):
        problems.append(f"ktest {test} did not pass")
    if re.search(r"Kernel panic|^BUG:", out, re.M):
        problems.append("the kernel panicked or reported a BUG")
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    h.record(name, not problems, "; ".join(problems) + f" (log: build/test-logs/lockdep-{test}.log)")


def boots_get_lockdep(h):
    """Every boot of smpix in make test has lockdep=1, unless it says lockdep= itself; Linux's kernels
    (bench_linux) and the benchmarks' boots (LOCKDEP_BOOTS = False) do not."""
    name = "lockdep[make test's boots pass lockdep=1, the benchmarks' do not]"
    if not h.wanted(name):
        return
    saved = h.LOCKDEP_BOOTS
    try:
        h.LOCKDEP_BOOTS = True
        got = [h.with_lockdep("test=all", None, None), h.with_lockdep("", "/x/era-2.6.39/kernel.elf", None),
               h.with_lockdep("lockdep=0 init=/bin/sh", None, None), h.with_lockdep("", "/x/vmlinuz", None),
               h.with_lockdep("a=1", None, False)]
        h.LOCKDEP_BOOTS = False
        got.append(h.with_lockdep("a=1", None, None))
    finally:
        h.LOCKDEP_BOOTS = saved
    want = ["lockdep=1 test=all", "lockdep=1", "lockdep=0 init=/bin/sh", "", "a=1", "a=1"]
    h.record(name, got == want, f"got {got!r}, want {want!r}")


def proc_lockdep(h):
    """A clean boot to the shell: /proc/lockdep says the checker is on, with classes and dependencies
    recorded and no report; the BKL is one of its classes."""
    from testlib import Session
    name = "lockdep[/proc/lockdep after a boot: on, classes and dependencies, no report]"
    if not h.wanted(name):
        return
    s = Session(h, "lockdep-proc", cpus=2)
    out = s.run("cat /proc/lockdep")
    s.run("poweroff")
    s.q.kill()
    problems = []
    if out is None:
        problems.append("no prompt came back")
    else:
        for p in (r"^lockdep: on$", r"^lock classes: [1-9]\d+ of 511$", r"^dependencies: [1-9]\d* of 4095$",
                  r"^irq-safe classes: [1-9]", r"^reports: 0$", r"^FD: +\d+ \{.\}: kernel_flag \(kernel/locking/bkl\.c:\d+\)$"):
            if not re.search(p, out, re.M):
                problems.append(f"no /{p}/")
    if h.bad_lines(s.q.output):
        problems.append("kernel reported: " + h.bad_lines(s.q.output)[0])
    h.record(name, not problems, "; ".join(problems) + f": {(out or '')[:300]!r}")


def run(h):
    boots_get_lockdep(h)
    planted(h, "ABBA of two mutexes: both chains", "lockdep_abba_is_reported", ABBA)
    planted(h, "a lock both irq-safe and irq-unsafe", "lockdep_irq_inconsistent_is_reported", INCONSISTENT)
    planted(h, "an irq-safe lock held while an irq-unsafe one is taken", "lockdep_irq_lock_order_is_reported",
            IRQ_ORDER)
    proc_lockdep(h)
