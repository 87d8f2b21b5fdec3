"""Tasks, the scheduler and the Big Kernel Lock: misuse must be reported, not tolerated."""


def check_bklsurvey(h):
    """tools/build/bklsurvey finds in the source exactly the lock_kernel() sites built into kernel.elf,
    and says so when they differ (a copy of the tree with one extra call must fail the check)."""
    import os
    import re
    import shutil
    import subprocess
    import tempfile
    name = "tools[bklsurvey agrees with kernel.elf and gives every site a kind]"
    if not h.wanted(name):
        return
    tool = os.path.join(h.ROOT, "tools", "build", "bklsurvey")
    nm = subprocess.run(["nm", h.KERNEL], capture_output=True, text=True).stdout
    built = len(re.findall(r" [dDbB] bkl_site_\.\d+$", nm, re.M))
    r = subprocess.run([tool, "--elf", h.KERNEL], capture_output=True, text=True, timeout=60)
    problems = []
    if r.returncode != 0:
        problems.append(f"exit status {r.returncode}: {r.stdout[-300:]}")
    if not re.search(rf"^{built} lock_kernel\(\) call sites", r.stdout, re.M):
        problems.append(f"the table does not count the {built} sites nm sees")
    if f"check: the {built} sites" not in r.stdout:
        problems.append("no agreement line")
    # Every site has a kind: a rule that names a file that moved leaves its sites in "other".
    other = re.search(r"^  other\s+(\d+)\s+(\S+)", r.stdout, re.M)
    if other:
        problems.append(f"{other.group(1)} sites of kind 'other' (first: {other.group(2)}): a KINDS rule is stale")
    with tempfile.TemporaryDirectory() as d:
        for top in ("kernel", "fs", "drivers"):
            if os.path.isdir(os.path.join(h.ROOT, top)):
                shutil.copytree(os.path.join(h.ROOT, top), os.path.join(d, top))
        with open(os.path.join(d, "kernel", "main.c"), "a") as f:
            f.write("\nvoid bklsurvey_extra(void)\n{\n\tlock_kernel();\n}\n")
        bad = subprocess.run([tool, "--elf", h.KERNEL, "--root", d], capture_output=True, text=True,
                             timeout=60)
        if bad.returncode != 1 or "is in the source but not built" not in bad.stdout:
            problems.append("an extra lock_kernel() in the source went unnoticed")
    h.record(name, not problems, "; ".join(problems))



def lockup_report_of_junk_ebp_call(h):
    """bkl=syscalls at 4 CPUs (user/tests/reporttest.c): a system call made with %ebp = 0xfffff000
    waits for the BKL long enough to be reported; the report's backtrace ends at the call's trap
    frame from user mode instead of following %ebp out of the kernel stack, and nothing panics."""
    import re
    name = "report[BKL lockup report of a call with a junk %ebp ends at its trap frame]"
    if not h.wanted(name):
        return
    q = h.Qemu("report-junk-ebp", append="init=/bin/reporttest bkl=syscalls", cpus=4, timeout=120)
    q.expect(r"init \(pid \d+\) exited")
    q.wait_exit()
    lines = q.output.splitlines()
    problems = []
    walked = 0
    for i, line in enumerate(lines):
        if re.fullmatch(r"  -- user mode: eip [0-9a-f]{8}, ebp fffff000 --", line):
            start = max(j for j in range(i + 1) if lines[j] == "Backtrace:" or j == 0)
            walked += any(re.match(r"  \[<[0-9a-f]{8}>\] syscall_dispatch\+0x", l) for l in lines[start:i])
    if not walked:
        problems.append("no backtrace from syscall_dispatch ending at 'user mode: ... ebp fffff000'")
    if "Kernel panic" in q.output:
        problems.append("the kernel panicked")
    if not re.search(r"^reporttest: summary 1 passed, 0 failed$", q.output, re.M):
        problems.append("no clean summary" + (" (timeout)" if q.timed_out else ""))
    if not re.search(r"init \(pid \d+\) exited with status 0x0;", q.output):
        problems.append("init did not exit with status 0")
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    h.record(name, not problems, "; ".join(problems))


def run(h):
    h.expect_report("bkl-in-interrupt", "bkl_in_interrupt_is_reported",
                    [r"^BUG: lock_kernel\(\) called from interrupt context at kernel/tests/bkl_test\.c:\d+",
                     r"^BUG: unlock_kernel\(\) called from interrupt context",
                     r"bkl_from_irq_handler\+0x"])
    h.expect_report("bkl-unlock-without-lock", "bkl_unlock_without_lock_is_reported",
                    [r"^BUG: unlock_kernel\(\) without lock_kernel\(\) at kernel/tests/bkl_test\.c:\d+",
                     r"lock_depth -1"])
    h.expect_report("might-sleep-with-spinlock", "might_sleep_with_spinlock_is_reported",
                    [r"^BUG: sleeping function called from invalid context at kernel/tests/bkl_test\.c:\d+",
                     r"preempt_count: 1",
                     r"holding spinlock ktest-sleepy, taken at kernel/tests/bkl_test\.c:\d+",
                     r"ktest_fn_might_sleep_with_spinlock_is_reported\+0x"])
    lockup_report_of_junk_ebp_call(h)
    check_bklsurvey(h)
    # bkld, the rpciod of 2.6.6: started by the test in a boot of its own, at 2 CPUs.
    h.ktests("bkld", tests="bkld_holds_the_bkl_for_life", cpus=2)
    h.boot_check("bkld-boot-word", [r"bkld: a kernel thread now lives in the BKL"], append="bkld=1")
