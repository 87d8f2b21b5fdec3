"""Pipes, flock and procfs: pipetest (1 and 4 CPUs), flocktest (2 and 4) and proctest (2 and 4 CPUs) booted
as init, and each on this Linux host."""
import os
import re
from testlib import INIT_EXIT, suite_lines, guest_suite, on_linux  # noqa: F401


def proctest(h, label, cpus, ioctl=None):
    """proctest as init, plus what only the boot log knows: the CPUs, their APIC ids, the ioctl= word."""
    append = f"ioctl={ioctl}" if ioctl else ""
    out = guest_suite(h, "proctest", label, cpus=cpus, min_tests=21, append=append)
    if out is None:
        return
    name = f"proctest[{label}] cpuinfo and ioctl_mode agree with the boot"
    problems = []
    m = re.search(r"^proctest: cpus (\d+)$", out, re.M)
    if not m or int(m.group(1)) != cpus:
        problems.append(f"cpuinfo shows {m.group(1) if m else 'no'} CPUs, booted with {cpus}")
    booted = dict(re.findall(r"^smp: CPU (\d+): APIC id (\d+)", out, re.M))
    shown = dict(re.findall(r"^proctest: cpu (\d+) apicid (\d+)$", out, re.M))
    if not booted or booted != shown:
        problems.append(f"APIC ids: boot log {booted}, /proc/cpuinfo {shown}")
    want = ioctl if ioctl in ("auto", "serialized", "unlocked") else "auto"
    if not re.search(rf"^proctest: ioctl_mode {want}$", out, re.M):
        problems.append(f"/proc/sys/kernel/ioctl_mode did not start as {want}")
    if ioctl and want != ioctl and not re.search(rf"^ioctl: unknown ioctl={ioctl}", out, re.M):
        problems.append("no message for the bad ioctl= word")
    h.record(name, not problems, "; ".join(problems))


def run(h):
    on_linux(h, "pipetest", 21)
    guest_suite(h, "pipetest", "smp4", cpus=4, min_tests=22)
    guest_suite(h, "pipetest", "smp1", cpus=1, min_tests=22)
    # flock(2) has its own mutex (fs/flock.c, lab 10): at 4 CPUs, and with every syscall under the BKL too.
    on_linux(h, "flocktest", 7)
    guest_suite(h, "flocktest", "smp4", cpus=4, min_tests=8)
    guest_suite(h, "flocktest", "smp2-bkl-syscalls", cpus=2, min_tests=8, append="bkl=syscalls")
    on_linux(h, "proctest", 12)
    proctest(h, "smp4-serialized", cpus=4, ioctl="serialized")
    proctest(h, "smp2-bad-ioctl-word", cpus=2, ioctl="bogus")
