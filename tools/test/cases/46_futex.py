"""Futexes (kernel/futex/, docs/futex.md): futextest booted as init at 2 and 4 CPUs and with every
system call under the BKL, and the same binary on the Linux reference (its expectations are Linux's).
The ktests (kernel/tests/futex_test.c: the WAIT/WAKE hammer on every CPU, requeue, WAKE_OP, the robust
list) run in the ktest boots of 10_boot.py."""
import re

import linuxref

SUITE = "futextest"
MIN_TESTS = 8
SUMMARY = rf"^{SUITE}: summary \d+ passed, 0 failed"
INIT_EXIT = r"init \(pid \d+\) exited with status 0x([0-9a-f]+)"


def guest_run(h, label, cpus, append=""):
    """Boot with init=/bin/futextest: one result per test (a SKIP said with its reason), then the run."""
    name = f"{SUITE}[{label}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"{SUITE}-{label}", append=f"init=/bin/{SUITE} {append}".strip(), cpus=cpus, timeout=120)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    count, _ = h.suite_results(name, SUITE, out)
    problems = []
    if not re.search(SUMMARY, out, re.M):
        problems.append("no clean summary line" + (" (timeout)" if q.timed_out else ""))
    if count < MIN_TESTS:
        problems.append(f"only {count} tests reported")
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    h.record(f"{name} run, power off", not problems, "; ".join(problems))


def run(h):
    linuxref.check(h, f"linux: {SUITE}", SUITE, linuxref.suite_judge(h, SUITE, MIN_TESTS, each=True))
    guest_run(h, "smp2", 2)
    guest_run(h, "smp4", 4)
    # Linux 2.0's way, every call under the BKL: a futex waiter must let it go while it sleeps.
    guest_run(h, "bkl-syscalls", 2, append="bkl=syscalls")
