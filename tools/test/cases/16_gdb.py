"""gdb extensions (tools/gdb/): the `smpix` commands against a halted QEMU at -smp 4.

Each check runs gdb in batch mode with the repo's .gdbinit, stops the kernel at a
known moment, runs the commands, and compares what they print with the truth from
elsewhere: gdb's own evaluation of the same variables (printf), `info threads`, and
the kernel's boot log on the serial console. QEMU always dies at the end (hard
timeouts in testlib.run_cmd and harness.Qemu).
"""
import os
import re
import shutil

import testlib as tools  # noqa: E402  (gdb_mirror, qemu_halted_with_stub, run_cmd, ...)

CPUS = 4


def gdb_session(h, logname, cmds, append="", timeout=40):
    """gdb -batch with .gdbinit against QEMU -smp 4 -S: (gdb's rc, gdb's output, the console)."""
    port = tools.free_port()
    d = tools.gdb_mirror(target_port=port)
    q = tools.qemu_halted_with_stub(h, "gdb-" + logname, CPUS, port, append=append)
    try:
        argv = ["gdb", "-q", "-nx", "-batch", "-x", ".gdbinit"]
        for c in cmds:
            argv += ["-ex", c]
        rc, out = tools.run_cmd(argv, cwd=d, timeout=timeout)
    finally:
        q.kill()
        shutil.rmtree(d, ignore_errors=True)
    tools.log(h, "gdb-" + logname, out)
    return rc, out, q.output


def truth(out, key):
    """The `truth KEY ...` lines that gdb's own printf wrote: {first field: rest}."""
    return {m.group(1): m.group(2).split() for m in
            re.finditer(r"^truth %s (\S+) (.*)$" % re.escape(key), out, re.M)}


def section(out, command):
    """What one command printed: from its echoed marker to the next marker."""
    m = re.search(r"^==== %s\n(.*?)(?=^==== |\Z)" % re.escape(command), out, re.M | re.S)
    return m.group(1) if m else ""


def marked(cmds):
    """Echo a marker before each command, so each one's output can be checked alone."""
    out = []
    for c in cmds:
        out += [f"echo ==== {c}\\n", c]
    return out


def record(h, name, logname, rc, problems):
    if rc is None:
        problems.append("gdb timed out")
    h.record(name, not problems, "; ".join(problems) +
             f" (logs: build/test-logs/tools-gdb-{logname}.log, console gdb-{logname}.log)")


def check_commands_in_lock_kernel(h):
    """Stop in lock_kernel_site() when init (pid 1) calls it, step out so init holds the BKL,
    and run every command."""
    names = {k: f"gdb[smpix {k} at -smp 4, init in lock_kernel]" for k in
             ("threads", "bkl", "cpus", "ps", "syscalls", "$current")}
    if not any(h.wanted(n) for n in names.values()):
        return
    if not shutil.which("gdb"):
        for n in names.values():
            h.skip(n, "gdb is not installed")
        return
    truth_cmds = [f'printf "truth cpu {i} %d %d %d\\n", cpus[{i}].apic_id, cpus[{i}].curr->pid, '
                  f'cpus[{i}].curr->lock_depth' for i in range(CPUS)]
    truth_cmds += ['printf "truth bkl holder %d %d\\n", (\'bkl.c\'::kernel_flag).holder->pid, '
                   '(\'bkl.c\'::kernel_flag).holder_cpu']
    truth_cmds += [f'printf "truth calls {n} %d\\n", ' +
                   " + ".join(f"\'dispatch.c\'::rows[{c}].calls[{nr}]" for c in range(16))
                   for n, nr in (("getpid", 20), ("ioctl", 54))]
    cmds = ["break lock_kernel_site if $current()->pid == 1", "continue", "finish"] + truth_cmds + \
        marked(["info threads", "smpix bkl", "smpix cpus", "smpix ps", "smpix syscalls getpid ioctl reboot",
                "print $current()->pid", "print $cpu()"]) + ["kill"]
    rc, out, console = gdb_session(h, "lock-kernel", cmds)
    stopped = re.search(r"^Thread (\d+) hit Breakpoint 1, lock_kernel_site", out, re.M)
    cpu_truth = truth(out, "cpu")
    holder = truth(out, "bkl").get("holder", ["?", "?"])
    base = [] if stopped and len(cpu_truth) == CPUS else \
        ["gdb did not stop in lock_kernel_site for pid 1 (or printf failed)"]
    bkl_cpu = holder[1]

    # info threads: one gdb thread per vCPU
    threads = re.findall(r"Thread 1\.\d+ \(CPU#(\d+)", section(out, "info threads"))
    p = list(base)
    if sorted(threads) != [str(i) for i in range(CPUS)]:
        p.append(f"info threads should list CPU#0..{CPUS - 1}, saw {threads}")
    record(h, names["threads"], "lock-kernel", rc, p)

    # smpix bkl: the owner is init, on the CPU kernel_flag names, depth 0 (one lock_kernel())
    p = list(base)
    s = section(out, "smpix bkl")
    if holder[0] != "1":
        p.append(f"gdb itself says the BKL holder is pid {holder[0]}, not init: the stop went wrong")
    if not re.search(r"^BKL held by pid 1 \(init\) on CPU %s, lock_depth 0, \d+ waiting, "
                     r"taken at fs/\S+:\d+ \w+" % re.escape(bkl_cpu), s, re.M):
        p.append(f"smpix bkl does not name pid 1 (init) on CPU {bkl_cpu} at depth 0 with its site")
    if not re.search(r"^  kernel/main\.c:\d+ boot_thread: 1 acquired", s, re.M):
        p.append("smpix bkl does not list boot_thread's site (kernel/main.c) as acquired once")
    record(h, names["bkl"], "lock-kernel", rc, p)

    # smpix cpus: 4 rows whose APIC id, task and depth match gdb's printf and the boot log
    p = list(base)
    s = section(out, "smpix cpus")
    rows = {m.group(1): m.groups() for m in re.finditer(
        r"^[* ]\s*(\d+)\s+(\d+)\s+(\S+)\s+pid (\d+) \(([^)]*)\)\s+(-?\d+)\s+(.*)$", s, re.M)}
    logged = dict(re.findall(r"^smp: CPU (\d+) \(APIC id (\d+)\) online", console, re.M))
    if not re.search(r"^%d CPUs, %d online" % (CPUS, CPUS), s, re.M):
        p.append(f"no '{CPUS} CPUs, {CPUS} online' line")
    if sorted(rows) != [str(i) for i in range(CPUS)]:
        p.append(f"rows for CPUs {sorted(rows)}, expected 0..{CPUS - 1}")
    for i, (apic, pid, depth) in cpu_truth.items():
        r = rows.get(i)
        if not r:
            continue
        if r[1] != apic or r[3] != pid or r[5] != depth:
            p.append(f"CPU {i}: apic/pid/depth {r[1]}/{r[3]}/{r[5]}, gdb's printf says {apic}/{pid}/{depth}")
        if i != "0" and logged.get(i) not in (None, apic):
            p.append(f"CPU {i}: APIC id {apic}, the boot log says {logged.get(i)}")
    if len(logged) != CPUS - 1:
        p.append(f"the boot log shows {len(logged)} APs online, expected {CPUS - 1}")
    r = rows.get(bkl_cpu)
    if not r or r[2] != "busy" or r[4] != "init" or r[5] != "0":
        p.append(f"CPU {bkl_cpu}'s row should show init busy at lock_depth 0: {r}")
    for i, r in rows.items():
        # "idle+irq": stopped in an interrupt taken while idle (the tick, the serial line's).
        if i != bkl_cpu and r[4].startswith("idle/") and r[2] not in ("idle", "idle+irq"):
            p.append(f"CPU {i} runs its idle task but is not shown idle")
    record(h, names["cpus"], "lock-kernel", rc, p)

    # smpix ps: init is pid 1, RUNNING on the BKL's CPU, at depth 0; every CPU's idle task is listed
    p = list(base)
    s = section(out, "smpix ps")
    if not re.search(r"^\s+1\s+1 RUNNING\s+running on %s\s+0\s+init$" % re.escape(bkl_cpu), s, re.M):
        p.append(f"smpix ps has no row '1 RUNNING running on {bkl_cpu} 0 init'")
    for i in range(CPUS):
        if not re.search(r"^\s+0\s+0 RUNNING\s+\S+ on %d\s+-1\s+idle/%d$" % (i, i), s, re.M):
            p.append(f"no row for idle/{i}")
    record(h, names["ps"], "lock-kernel", rc, p)

    # smpix syscalls: flags from the table, counts equal to calls[] as gdb reads it
    p = list(base)
    s = section(out, "smpix syscalls getpid ioctl reboot")
    calls = truth(out, "calls")
    for name, nr, flags in (("getpid", 20, "-"), ("ioctl", 54, "-"), ("reboot", 88, "BKL")):
        m = re.search(r"^\s*%d %s\s+\d+ (\S+)\s+sys_%s\s+(\d+)$" % (nr, name, name), s, re.M)
        if not m:
            p.append(f"no row for {name} ({nr}) with handler sys_{name}")
            continue
        if m.group(1) != flags:
            p.append(f"{name}: flags {m.group(1)}, expected {flags}")
        if name in calls and m.group(2) != calls[name][0]:
            p.append(f"{name}: {m.group(2)} calls, gdb's printf says {calls[name][0]}")
    if calls.get("ioctl", ["0"])[0] == "0":
        p.append("init is inside ioctl(), yet calls[54] is 0")
    if not re.search(r"^3 of \d+ table entries shown", s, re.M):
        p.append("no '3 of N table entries shown' line")
    record(h, names["syscalls"], "lock-kernel", rc, p)

    # $current() and $cpu(): the task and CPU of the thread gdb stopped in
    p = list(base)
    if not re.search(r"^\$\d+ = 1$", section(out, "print $current()->pid"), re.M):
        p.append("print $current()->pid is not 1")
    if not re.search(r"^\$\d+ = %s$" % re.escape(bkl_cpu), section(out, "print $cpu()"), re.M):
        p.append(f"print $cpu() is not {bkl_cpu}, the CPU that stopped")
    if stopped and str(int(stopped.group(1)) - 1) != bkl_cpu:
        p.append(f"gdb thread {stopped.group(1)} stopped, but the BKL is on CPU {bkl_cpu}")
    record(h, names["$current"], "lock-kernel", rc, p)


def check_spinlock_hang(h):
    """A CPU stuck on a spinlock (ktest spinlock_lockup_report): smpix cpus says who holds it."""
    name = "gdb[smpix cpus: a CPU spinning on a lock, and its holder]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    rc, out, _ = gdb_session(h, "spin-hang", ["break report_lockup", "continue"] + marked(["smpix cpus"]) +
                             ['printf "truth lock holder %d\\n", lockup_lock.holder_cpu', "kill"],
                             append="test=spinlock_lockup_report")
    s = section(out, "smpix cpus")
    holder = truth(out, "lock").get("holder", ["?"])[0]
    # The ktest sends the waiter to CPU 1 when the lock's holder runs on CPU 0, else to CPU 0
    # (kernel/tests/smp_test.c): the boot thread that holds it may run on any CPU.
    waiter = "1" if holder == "0" else "0"
    p = []
    if not re.search(rf"^Thread {int(waiter) + 1} hit Breakpoint 1, report_lockup", out, re.M):
        p.append(f"CPU {waiter} (gdb thread {int(waiter) + 1}) did not stop in report_lockup")
    m = re.search(rf"^CPU {waiter} spins for spinlock lockup-test \(held by CPU (\d+), taken at "
                  r"kernel/tests/smp_test\.c:\d+\)$", s, re.M)
    if not m:
        p.append(f"no line 'CPU {waiter} spins for spinlock lockup-test (held by CPU n, taken at ...)'")
    elif m.group(1) != holder:
        p.append(f"smpix says CPU {m.group(1)} holds it, gdb's printf says CPU {holder}")
    if not re.search(r"^[* ]\s*%s\s+\d+\s+\S+\s+pid \d+ \(boot\).*lockup-test@kernel/tests/smp_test\.c:\d+"
                     % re.escape(holder), s, re.M):
        p.append(f"CPU {holder}'s row does not list lockup-test among its spinlocks held")
    if re.search(rf"^CPU (?!{waiter} )\d+ spins", s, re.M):
        p.append(f"a CPU other than CPU {waiter} is said to spin")
    record(h, name, "spin-hang", rc, p)


def stop_in_bkl_hammer(h):
    """gdb commands that stop the ktest bkl_contention_from_all_cpus_is_exact 50 increments in: every
    worker has started, and the lock goes round them. The line is the worker's increment under the
    BKL, found in the source so that an edit above it cannot move it."""
    src = open(os.path.join(h.ROOT, "kernel", "tests", "bkl_test.c")).read().split("\n")
    line = next(i + 1 for i, l in enumerate(src) if "bkl_counter++;" in l)
    return ["break bkl_contention_worker", "continue", "delete", f"break kernel/tests/bkl_test.c:{line}",
            "ignore 2 50", "continue"]


def check_bkl_waiters(h):
    """Four CPUs hammer the BKL (ktest bkl_contention_from_all_cpus_is_exact): smpix bkl lists
    the CPUs spinning for it, never its holder's, one for each ticket waiting."""
    name = "gdb[smpix bkl: the CPUs spinning for the BKL]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    rc, out, _ = gdb_session(h, "bkl-waiters", stop_in_bkl_hammer(h) + marked(["smpix bkl 2"]) + ["kill"],
                             append="test=bkl_contention_from_all_cpus_is_exact")
    s = section(out, "smpix bkl 2")
    p = []
    m = re.search(r"^BKL held by pid \d+ \(bkl-hammer\) on CPU (\d+), lock_depth 0, (\d+) waiting", s, re.M)
    w = re.search(r"^  spinning for it: (.*)$", s, re.M)
    if not m:
        p.append("smpix bkl does not name a bkl-hammer as the holder")
    elif not w:
        p.append(f"{m.group(2)} tickets waiting, but no CPU is listed as spinning")
    else:
        listed = re.findall(r"CPU (\d+)", w.group(1))
        if m.group(1) in listed:
            p.append(f"the holder's CPU {m.group(1)} is listed as spinning")
        # Every waiting ticket belongs to a CPU inside bkl_raw_acquire(), maybe interrupted there
        # (then only the CFI of trap_common lets the stack walk see it).
        if len(listed) != int(m.group(2)):
            p.append(f"{len(listed)} CPUs listed for {m.group(2)} tickets waiting")
    if not re.search(r"kernel/tests/bkl_test\.c:\d+ bkl_contention_worker: \d+ acquired, [1-9]\d* contended", s):
        p.append("the hammer's site is not listed with contended acquisitions")
    record(h, name, "bkl-waiters", rc, p)


def check_bkl_semaphore(h):
    """era=2.6.8: the same hammering, with the BKL a semaphore. smpix bkl names kernel_sem's holder
    and the tasks asleep for it, as many as kernel_sem.nwaiting says (gdb's own printf), never the
    holder among them; smpix deadlock finds no cycle in a wait for the semaphore."""
    name = "gdb[smpix bkl at era=2.6.8: the semaphore's holder and its sleepers]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    rc, out, _ = gdb_session(h, "bkl-semaphore", stop_in_bkl_hammer(h) +
                             ['printf "truth sem %d %d\\n", (\'bkl_sem.c\'::kernel_sem).holder->pid, '
                              "('bkl_sem.c'::kernel_sem).nwaiting"]
                             + marked(["smpix bkl 2", "smpix deadlock"]) + ["kill"],
                             append="era=2.6.8 test=bkl_contention_from_all_cpus_is_exact")
    s = section(out, "smpix bkl 2")
    holder_pid, asleep = next(iter(truth(out, "sem").items()), (None, [None]))
    p = []
    m = re.search(r"^BKL \(a semaphore, era=2\.6\.8\) held by pid (\d+) \(bkl-hammer\), taken on CPU \d+, "
                  r"lock_depth 0, (\d+) asleep waiting, taken at kernel/tests/bkl_test\.c:\d+ "
                  r"bkl_contention_worker$", s, re.M)
    listed = re.search(r"^  asleep for it, in order: (.*)$", s, re.M)
    sleepers = re.findall(r"pid (\d+) \(([^)]*)\)", listed.group(1)) if listed else []
    if not m:
        p.append("smpix bkl does not name a bkl-hammer as the semaphore's holder, with its site")
    else:
        if (holder_pid, asleep[0]) != m.groups():
            p.append(f"gdb's printf says pid {holder_pid} holds it, {asleep[0]} asleep; smpix bkl says "
                     f"{m.group(1)}, {m.group(2)}")
        if len(sleepers) != int(m.group(2)) or any(n != "bkl-hammer" or pid == m.group(1) for pid, n in sleepers):
            p.append(f"{m.group(2)} asleep, but the list is {sleepers}")
    if not re.search(r"^no deadlock: \d+ task\(s\) waiting, no cycle$", section(out, "smpix deadlock"), re.M):
        p.append("smpix deadlock did not end with 'no deadlock'")
    record(h, name, "bkl-semaphore", rc, p)


TRACE_LINE = re.compile(r"^  (\d+) (\d+) (-?\d+) (switch|comm|syscall_enter|syscall_exit|bkl_contended|bkl_acquire|"
                        r"bkl_release|bkl_drop|bkl_retake|spin_contended|spin_acquired|ioctl_begin|ioctl_end|"
                        r"irq_enter|irq_exit)( .*)?$", re.M)


def check_trace(h):
    """Four CPUs hammer the BKL with the trace on (trace=1): smpix trace prints each CPU's last events,
    as many as its ring's head (read by gdb's printf) says it holds, in /proc/trace's format; with a CPU
    argument, that CPU's alone."""
    name = "gdb[smpix trace: the last events of every CPU, from the rings]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    truth_cmds = [f'printf "truth head {c} %u\\n", \'trace.c\'::rings[{c}].head' for c in range(CPUS)]
    rc, out, _ = gdb_session(h, "trace", ["break bkl_contention_worker", "continue", "delete",
                                          "break kernel/tests/bkl_test.c:111", "ignore 2 50", "continue"] +
                             truth_cmds + marked(["smpix trace 5", "smpix trace 3 2"]) + ["kill"],
                             append="test=bkl_contention_from_all_cpus_is_exact trace=1")
    heads = {c: int(v[0]) for c, v in truth(out, "head").items()}
    p = []
    if len(heads) != CPUS:
        p.append("gdb's printf of the rings' heads failed")
    s = section(out, "smpix trace 5")
    blocks = re.split(r"^CPU (\d+): (\d+) events recorded, \d+ kept; the last (\d+):$", s, flags=re.M)
    seen = {}
    for i in range(1, len(blocks) - 3, 4):
        cpu, recorded, last, body = blocks[i], int(blocks[i + 1]), int(blocks[i + 2]), blocks[i + 3]
        lines = TRACE_LINE.findall(body)
        seen[cpu] = recorded
        if heads.get(cpu) is not None and recorded != heads[cpu]:
            p.append(f"CPU {cpu}: {recorded} events recorded, gdb's printf says {heads[cpu]}")
        if last != min(5, recorded) or len(lines) != last:
            p.append(f"CPU {cpu}: {len(lines)} event lines for 'the last {last}'")
        if any(l[0] != cpu for l in lines):
            p.append(f"CPU {cpu}'s block has another CPU's events")
    if sorted(seen) != [str(c) for c in range(CPUS)]:
        p.append(f"blocks for CPUs {sorted(seen)}, expected 0..{CPUS - 1}")
    if not re.search(r"bkl_(acquire|release|contended) site=kernel/tests/bkl_test\.c:\d+ site_func=bkl_contention_worker",
                     s):
        p.append("no BKL event names the hammer's site")
    s2 = section(out, "smpix trace 3 2")
    if re.findall(r"^CPU (\d+):", s2, re.M) != ["2"]:
        p.append("smpix trace 3 2 does not show CPU 2 alone")
    record(h, name, "trace", rc, p)


def check_bt_through_trap(h):
    """bt from panic_trap() goes through trap_common (its .cfi lines) to the faulting function."""
    name = "gdb[bt through a trap: from panic_trap to the faulting function]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    rc, out, _ = gdb_session(h, "bt-trap", ["break panic_trap", "continue"] + marked(["bt"]) + ["kill"],
                             append="test=panic_fault")
    s = section(out, "bt")
    p = []
    if not re.search(r"^#\d+\s+(0x[0-9a-f]+ in )?trap_dispatch .*\n#\d+\s+<signal handler called>\n"
                     r"#\d+\s+panic_fault_helper \(p=p@entry=0xdeadbeef\) at kernel/tests/panic_test\.c:\d+\n"
                     r"#\d+\s+0x[0-9a-f]+ in ktest_fn_panic_fault \(\) at kernel/tests/panic_test\.c:\d+\n"
                     r"#\d+\s+0x[0-9a-f]+ in ktest_run ", s, re.M):
        p.append("bt does not go trap_dispatch, <signal handler called> (trap_common), panic_fault_helper, "
                 "ktest_fn_panic_fault, ktest_run")
    record(h, name, "bt-trap", rc, p)


def check_deadlock(h):
    """Two kernel threads in an ABBA deadlock on two mutexes (ktest abba_deadlock_planted):
    smpix deadlock prints the ring, each task waiting for the mutex the other holds."""
    name = "gdb[smpix deadlock: the ABBA ring of two mutexes]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    rc, out, _ = gdb_session(h, "deadlock", ["break ktest_deadlock_planted", "continue"] +
                             marked(["smpix deadlock"]) + ["kill"], append="test=abba_deadlock_planted")
    s = section(out, "smpix deadlock")
    p = []
    if not re.search(r"^deadlock: a cycle of 2 tasks$", s, re.M):
        p.append("no line 'deadlock: a cycle of 2 tasks'")
    for waiter, lock, holder in (("abba-ab", "ledger-b", "abba-ba"), ("abba-ba", "ledger-a", "abba-ab")):
        if not re.search(rf"^  pid \d+ \({waiter}\) waits for mutex {lock}, held by pid \d+ \({holder}\)$",
                         s, re.M):
            p.append(f"no line: {waiter} waits for mutex {lock}, held by {holder}")
    record(h, name, "deadlock", rc, p)


def run(h):
    check_deadlock(h)
    check_commands_in_lock_kernel(h)
    check_spinlock_hang(h)
    check_bkl_waiters(h)
    check_bkl_semaphore(h)
    check_trace(h)
    check_bt_through_trap(h)
