"""Foundation: self-tests at several memory sizes, both loaders, panic reports."""


def rtc_matches_host(h):
    """The boot line 'rtc: DATE TIME UTC' shows the host's UTC time (QEMU starts the CMOS clock from it)."""
    import calendar
    import re
    import time
    name = "boot[rtc shows the host's UTC time]"
    if not h.wanted(name):
        return
    before = time.time()
    out = h.boot_check("rtc-line", [r"rtc: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"]) or ""
    m = re.search(r"rtc: (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) UTC", out)
    if not m:
        return h.record(name, False, "no rtc line")
    shown = calendar.timegm(tuple(int(g) for g in m.groups()) + (0, 0, 0))
    ok = before - 5 <= shown <= time.time() + 5
    h.record(name, ok, f"rtc said {m.group(0)!r}, host UTC was {time.strftime('%F %T', time.gmtime(before))}")


def fault_while_panicking(h):
    """A panic whose own report faults (a bad pointer in its message) reports the fault once,
    without a backtrace, and stops: two panics in the log, not a cascade."""
    import re
    name = "panic[fault while panicking]"
    if not h.wanted(name):
        return
    q = h.Qemu("panic-nested", append="test=panic_fault_while_panicking", timeout=60)
    q.expect(r"--- end of panic")
    q.kill()
    out = q.output
    want = [r"Kernel panic on CPU \d+: deliberate panic with a bad message: ",
            r"Kernel panic on CPU \d+: page fault", r"cr2 deadbeef",
            r"^\(a fault while reporting a panic: no more backtrace\)$", r"--- end of panic"]
    problems = [f"no /{p}/" for p in want if not re.search(p, out, re.M)]
    n = len(re.findall(r"Kernel panic on CPU", out))
    if n != 2:
        problems.append(f"{n} panics in the log, expected 2")
    h.record(name, not problems, "; ".join(problems))


# With 3 GiB, more than the 768 MiB direct map: the ktests that allocate, map and copy memory.
# (Every ktest runs at 2 CPUs here, at 1 CPU in 32 MiB and at 4 CPUs in 20_smp.py.)
MEM3072_KTESTS = ("mm_*", "pmm_*", "kheap_*", "vma_*", "filemap_*", "bcache_*", "uaccess_*", "elf_*", "initrd_*",
                  "tlb_*")


def run(h):
    h.ktests("smp2", cpus=2)
    h.ktests("mem3072", tests=",".join(MEM3072_KTESTS), cpus=2, mem=3072, min_count=20)

    h.boot_check("kernel-banner", [r"smpix \d+\.\d+", r"memory map", r"\[[0-9a-f]+-[0-9a-f]+\)"])
    rtc_matches_host(h)
    h.boot_check("grub-iso", [r"GNU GRUB|Booting|smpix", r"smpix \d+\.\d+: a teaching", r"memory map"],
                 iso=True, timeout=120)

    h.panic_report("page-fault", "panic_fault",
                   [r"page fault", r"cr2 deadbeef", r"panic_fault_helper\+0x", r"ktest_fn_panic_fault\+0x"])
    h.panic_report("explicit", "panic_call", [r"Kernel panic on CPU \d+: deliberate panic",
                                              r"ktest_fn_panic_call\+0x"], registers=False)
    # kernel/mm/pmm_percpu.c: a frame freed twice while it waits on a CPU's list is still caught.
    h.panic_report("pmm-double-free", "pmm_double_free_of_a_listed_frame",
                   [r"Kernel panic on CPU \d+: pmm_free_pages: double free of frame [0-9a-f]{8}$",
                    r"ktest_fn_pmm_double_free_of_a_listed_frame\+0x"], registers=False)
    fault_while_panicking(h)

    # Reset: QEMU runs with -no-reboot, so a reset that works ends QEMU on its own, quickly.
    name = "boot[reset ends QEMU]"
    if h.wanted(name):
        q = h.Qemu("boot-reset", append="test=power_reset_now", timeout=60)
        q.wait_exit()
        ok = "power: reset" in q.output and not q.timed_out and not h.bad_lines(q.output)
        h.record(name, ok, "no reset (timeout)" if q.timed_out else "no 'power: reset' line or a bug report")
