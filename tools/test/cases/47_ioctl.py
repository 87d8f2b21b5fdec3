"""The drivers and the ioctl path: ioctltest booted as init at 1 and 4 CPUs, and on the Linux reference."""
import re

import linuxref

import testlib as suites  # noqa: E402


def on_linux_with_a_tty(h):
    """The Linux build runs on a terminal (the reference's serial line, or a pty on a host), so that
    its termios checks run against Linux's own tty code."""
    suite = linuxref.suite_judge(h, "ioctltest", 4)

    def judge(label, result):
        problems = suite(label, result)
        if "ioctltest: termios checked on a tty" not in result.out:
            problems.append("the termios checks did not run")
        return problems
    linuxref.check(h, "linux: ioctltest on a tty (gcc -m32 -static)", "ioctltest-tty", judge)


def ttytest(h, cpus):
    """A person at the console: type at each prompt of /bin/ttytest, as the keys would come."""
    name = f"ttytest[smp{cpus}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"ttytest-smp{cpus}", append="init=/bin/ttytest", cpus=cpus, timeout=120)
    keys = [("a line", "hel\x7flo wor\x17world\r"), ("\\^D", "\x04"), ("3 raw bytes", "a\x7fb"),
            ("\\^C", "\x03")]
    for prompt, typed in keys:
        if not q.expect(rf"ttytest: type {prompt}"):
            break
        q.send(typed)
    q.expect(suites.INIT_EXIT)
    q.wait_exit()
    out = q.output
    for test, status, rest in suites.suite_lines("ttytest").findall(out):
        h.record(f"{name} {test}", status == "ok", rest.strip())
    problems = []
    if not re.search(r"^ttytest: summary 4 passed, 0 failed$", out, re.M):
        problems.append("no clean summary" + (" (timeout)" if q.timed_out else ""))
    if "hel\b \blo wor\b \b\b \b\b \bworld" not in out:
        problems.append("the echo of the edited line is not what a Linux tty shows")
    if "^C" not in out:
        problems.append("^C was not echoed")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    h.record(f"{name} typed session, power off", not problems, "; ".join(problems))


def run(h):
    ttytest(h, 2)
    on_linux_with_a_tty(h)
    out = suites.guest_suite(h, "ioctltest", "smp4", cpus=4, min_tests=14)
    suites.guest_suite(h, "ioctltest", "smp1", cpus=1, min_tests=14)
    if out is not None:
        # /dev/cpu/N/cpuid ran on CPU N: each reports the APIC id the boot log gave that CPU.
        name = "ioctltest[smp4] cpuid on each CPU reports its APIC id"
        booted = dict(re.findall(r"^smp: CPU (\d+): APIC id (\d+)", out, re.M))
        shown = dict(re.findall(r"^ioctltest: cpu (\d+) cpuid apicid (\d+)$", out, re.M))
        h.record(name, len(booted) == 4 and booted == shown, f"boot log {booted}, cpuid {shown}")
        name = "ioctltest[smp4] the guest ran its termios checks on the console"
        h.record(name, "ioctltest: termios checked on a tty" in out, "no line from the termios test")
