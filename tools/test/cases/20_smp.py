"""SMP: CPU discovery and bring-up in many shapes, IPIs, timers, locks across CPUs, panics with APs up."""
import os
import re
import subprocess

ONLINE = r"^smp: (\d+) CPUs online"


def boot_cpus(h, label, want, cpus, extra=(), append="", timeout=60, also=(), iso=False):
    """Boot, and require exactly `smp: want CPUs online` (plus any extra patterns, in order)."""
    name = f"smp-boot[{label}]"
    if not h.wanted(name):
        return None
    q = h.Qemu(f"smp-{label}", cpus=cpus, extra=list(extra), append=append, timeout=timeout, iso=iso)
    m = q.expect(ONLINE)
    missing = [p for p in also if not q.expect(p, timeout=10)]
    q.kill()
    problems = []
    if not m:
        problems.append("no 'smp: N CPUs online' line" + (" (timeout)" if q.timed_out else ""))
    elif int(m.group(1)) != want:
        problems.append(f"{m.group(1)} CPUs online, expected {want}")
    problems += [f"never saw /{p}/" for p in missing]
    if h.bad_lines(q.output):
        problems.append("kernel reported: " + h.bad_lines(q.output)[0])
    h.record(name, not problems, "; ".join(problems))
    return q.output


def apic_ids(output):
    return sorted(int(x) for x in re.findall(r"^smp: CPU \d+ \(APIC id (\d+)\) online", output, re.M))


def lockup_report(h):
    name = "smp-lock[lockup report names the holder]"
    if not h.wanted(name):
        return
    q = h.Qemu("smp-lockup", append="test=spinlock_lockup_report", cpus=2, timeout=60)
    q.expect(r"^ktest: summary")
    q.wait_exit()
    out = q.output
    # The test runs on the boot thread, on whichever CPU; the waiter is the other one of the two.
    want = [r"BUG: spinlock lockup suspected on CPU [01]: lock lockup-test wanted at kernel/tests/smp_test\.c:\d+",
            r"held by CPU [01], taken at kernel/tests/smp_test\.c:\d+",
            r"lockup_waiter\+0x",
            r"ktest: spinlock_lockup_report ok"]
    missing = [p for p in want if not re.search(p, out, re.M)]
    h.record(name, not missing, "output lacks " + ", ".join(f"/{p}/" for p in missing))


def panic_stops_others(h, cpus=4):
    name = f"smp-panic[stops the other CPUs, -smp {cpus}]"
    if not h.wanted(name):
        return
    q = h.Qemu("smp-panic-stop", append="test=smp_panic_stops_others", cpus=cpus, timeout=60)
    q.expect(r"--- end of panic")
    q.expect(r"will not appear", timeout=1)      # let any late output arrive
    q.kill()
    out = q.output
    problems = []
    # Odd CPUs chatter with interrupts off: only the NMI fallback can stop them. Even ones take the
    # stop IPI (or, if the host did not run them within 100 ms, the NMI too). The test runs on the
    # boot thread, which may have moved to any CPU: the panicking one stops all the others.
    m = re.search(r"^smp: CPU (\d+) stopped the other CPUs for the panic: ", out, re.M)
    me = int(m.group(1)) if m else 0
    others = " ".join(str(i) + (r"\(nmi\)" if i % 2 else r"(\(nmi\))?") for i in range(cpus) if i != me)
    if not re.search(rf"^smp: CPU {me} stopped the other CPUs for the panic: {others}$", out, re.M):
        problems.append(f"no line saying the {cpus - 1} other CPUs stopped, the odd ones by NMI")
    if not re.search(r"^chatter: CPU \d+ still running", out, re.M):
        problems.append("the other CPUs never ran the chatter loop (test did not exercise anything)")
    report = out[out.find("Kernel panic on CPU"):] if "Kernel panic on CPU" in out else ""
    if not report:
        problems.append("no panic report")
    elif "chatter" in report:
        problems.append("another CPU printed after the panic report began")
    if report and not re.search(r"deliberate panic with %d CPUs online\nBacktrace:\n" % cpus, report):
        problems.append("the panic report is garbled")
    if not re.search(rf"--- end of panic: CPU {me} halted", out):
        problems.append("no end-of-panic line")
    h.record(name, not problems, "; ".join(problems))


def serial_input(h):
    name = "smp-serial[input arrives by IRQ4 through the IOAPIC]"
    if not h.wanted(name):
        return
    q = h.Qemu("smp-serial-input", cpus=2, timeout=60)
    ok = q.expect(r"echoes what you type") is not None
    # init prints a line of its own as it starts, then the shell its prompt: let them, so that
    # the echo is not interleaved with either ("hello from the$  host" was seen).
    ok = ok and q.expect(r"init: pid 1 running in user mode") is not None
    ok = ok and q.expect(r"\$ $") is not None
    if ok:
        q.send("hello from the host\r")
        ok = q.expect(r"hello from the host", timeout=10) is not None
    q.kill()
    h.record(name, ok, "typed text was not echoed (serial interrupt not delivered?)")

    name = "smp-serial[input handler gets typed bytes]"
    if not h.wanted(name):
        return
    q = h.Qemu("smp-serial-handler", append="test=serial_input_handler", cpus=2, timeout=60)
    ok = q.expect(r"type 'ping' and Enter now") is not None
    if ok:
        q.send("ping\r")
        ok = q.expect(r"^ktest: serial_input_handler (ok|FAIL.*)$") is not None
    q.wait_exit()
    h.record(name, ok and "ktest: serial_input_handler ok" in q.output,
             (re.findall(r"^ktest: serial_input_handler FAIL.*$", q.output, re.M) or ["no result"])[0])


def kvm(h):
    name = "smp-kvm[-accel kvm -smp 2]"
    if not h.wanted(name):
        return
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        h.skip(name, "/dev/kvm is missing or not usable by this user")
        return
    q = h.Qemu("smp-kvm", cpus=2, accel="kvm", extra=["-cpu", "host"], timeout=30)
    m = q.expect(ONLINE)
    q.kill()
    banners = len(re.findall(r"smpix \d+\.\d+: a teaching", q.output))
    if m is None and banners == 0:
        # Nested KVM here resets a 32-bit guest the moment boot_entry turns paging on, before the
        # banner; with -no-reboot QEMU then exits. That is the host's problem, not smpix's.
        h.skip(name, f"kvm reset the guest before its banner (QEMU exit {q.exit_code}); "
               "nested KVM on this machine resets 32-bit guests when they enable paging")
        return
    if m is None:
        h.record(name, False, "the kernel started under kvm but never reported its CPUs")
        return
    ok = int(m.group(1)) == 2 and not h.bad_lines(q.output)
    h.record(name, ok, f"{m.group(1)} CPUs online under kvm, expected 2")


# What the MP table path changes: which CPUs and APIC ids there are, how IPIs and the timer reach
# them, the IOAPIC's routes. The ktests that exercise those (ktest[smp4] runs them all).
MP_TABLE_KTESTS = ("smp_*", "tlb_*", "ioapic_*", "irq_*", "sched_pingpong_*", "sched_pinned_*",
                   "sched_affinity_*", "bkl_contention_*")


def run(h):
    for n in (1, 2, 4, 8):
        boot_cpus(h, f"smp{n}", n, n)
    boot_cpus(h, "smp16", 16, 16, timeout=120)
    boot_cpus(h, "smp20-capped", 16, 20, timeout=120,
              also=[r"^smp: 4 CPUs beyond MAX_CPUS=16 ignored"])
    out = boot_cpus(h, "sparse-apic-ids", 6, "6,sockets=2,cores=3")
    if out is not None and h.wanted("smp-boot[sparse-apic-ids] ids"):
        ids = apic_ids(out)
        h.record("smp-boot[sparse-apic-ids] ids", ids == [1, 2, 4, 5, 6], f"AP APIC ids {ids}")
    boot_cpus(h, "acpi-off", 4, 4, extra=["-machine", "pc,acpi=off"],
                    also=[r"probe: 3 other CPUs answered"])
    out = boot_cpus(h, "acpi-off-sparse", 6, "6,sockets=2,cores=3", extra=["-machine", "pc,acpi=off"])
    if out is not None and h.wanted("smp-boot[acpi-off-sparse] ids"):
        ids = apic_ids(out)
        h.record("smp-boot[acpi-off-sparse] ids", ids == [1, 2, 4, 5, 6], f"AP APIC ids {ids}")
    boot_cpus(h, "mp-table-forced", 4, 4, append="smptables=mp", also=[])
    # QEMU lists hot-pluggable CPUs that are not plugged in as disabled MADT entries.
    boot_cpus(h, "disabled-cpus", 2, "2,maxcpus=4", also=[r"MADT: 2 CPUs listed \(2 disabled"])
    boot_cpus(h, "grub-iso", 4, 4, iso=True, timeout=120)     # GRUB leaves low memory differently
    boot_cpus(h, "no-tables", 1, 4, append="smptables=none")
    boot_cpus(h, "missing-ap-skipped", 2, 2, append="smpfake=9",
              also=[r"^smp: CPU 2 \(APIC id 9\) did not answer within \d+ ms, skipped"])
    if h.wanted("smp-boot[irq0-override]"):
        q = h.Qemu("smp-irq0-override", cpus=2, timeout=60)
        ok = q.expect(r"ISA IRQ 0 -> GSI 2") is not None
        q.kill()
        h.record("smp-boot[irq0-override]", ok, "the MADT's IRQ0 -> GSI2 override was not reported")

    h.ktests("smp1-mem32", cpus=1, mem=32, min_count=15)     # one CPU, in 32 MiB
    h.ktests("smp4", cpus=4, min_count=15, timeout=180)
    # The MP table path with the broadcast probe. (With acpi=off itself QEMU cannot power off, so the
    # ktest run keeps ACPI for power off and only ignores the MADT; smp-boot[acpi-off] covers acpi=off.)
    h.ktests("smp4-mp-table", tests=",".join(MP_TABLE_KTESTS), cpus=4, min_count=14,
             timeout=120, append="smptables=mp")

    h.panic_report("spinlock-recursion", "spinlock_recursion",
                   [r"spinlock recursion: lock recursion-test taken again on CPU \d+ at kernel/tests/smp_test\.c:\d+"
                    r", already held since kernel/tests/smp_test\.c:\d+", r"ktest_fn_spinlock_recursion\+0x"],
                   registers=False)
    lockup_report(h)
    panic_stops_others(h)
    serial_input(h)
    kvm(h)
