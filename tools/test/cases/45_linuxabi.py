"""Linux's answers: /bin/linuxabi in the guest, and the very same binary on the Linux reference."""
import re

import linuxref

PROG = "linuxabi"


def run(h):
    # Every expectation of linuxabi is Linux's: prove it by running the i386 binary there.
    linuxref.check(h, f"linux: {PROG}", PROG, linuxref.suite_judge(h, PROG, 12))
    h.user_program("smp1", PROG, cpus=1, min_tests=12)
    h.user_program("smp4", PROG, cpus=4, min_tests=12)
    vdso_on(h)
    vdso_off(h)


def vdso_on(h):
    """By default the kernel maps the vsyscall page and glibc makes its calls there, by sysenter."""
    name = "vdso[on] the kernel maps linux-gate.so.1; a glibc program's calls enter by sysenter"
    if not h.wanted(name):
        return
    q = h.Qemu("vdso-on", cpus=2, timeout=60)
    try:
        if q.expect(r"^\$ ", timeout=60):
            q.send("grep sysenter /proc/syscalls; compat-hello > /dev/null; grep sysenter /proc/syscalls; poweroff\n")
            q.wait_exit()
    finally:
        q.kill()
    counts = [int(n) for n in re.findall(r"^# entered by sysenter \(the vsyscall page\), not int \$0x80: (\d+)$",
                                         q.output, re.M)]
    problems = [] if re.search(r"^vdso: linux-gate\.so\.1 at ffffe000, __kernel_vsyscall at ffffe400 \(sysenter\)$",
                               q.output, re.M) else ["no vdso line at boot"]
    if len(counts) != 2 or counts[1] < counts[0] + 5:
        problems.append(f"sysenter counts before and after compat-hello: {counts}")
    problems += h.bad_lines(q.output)[:2]
    h.record(name, not problems, "; ".join(problems))


def vdso_off(h):
    """vdso=0: no vsyscall page, nothing in the auxiliary vector, so every program makes its calls by
    int $0x80 (kernel/x86/sysenter.c): usertests all pass, and /proc/syscalls counts no sysenter."""
    name = "vdso[off] usertests pass by int $0x80 alone; no AT_SYSINFO; /proc/syscalls counts no sysenter"
    if not h.wanted(name):
        return
    q = h.Qemu("vdso-off", append="vdso=0", cpus=2, timeout=180)
    problems = []
    try:
        if not q.expect(r"^\$ ", timeout=60):
            problems.append("no shell prompt")
        else:
            q.send("usertests; grep sysenter /proc/syscalls; poweroff\n")
            q.wait_exit()
    finally:
        q.kill()
    out = q.output
    if not re.search(r"^vdso: none \(vdso=0\)", out, re.M):
        problems.append("the kernel did not say vdso: none (vdso=0)")
    m = re.search(r"^usertests: (\d+) passed, (\d+) failed$", out, re.M)
    if not m or m.group(2) != "0":
        problems.append(m.group(0) if m else "no usertests summary")
    if not re.search(r"^# entered by sysenter \(the vsyscall page\), not int \$0x80: 0$", out, re.M):
        problems.append("/proc/syscalls counted sysenter entries: " +
                        (re.search(r"^# entered by sysenter.*$", out, re.M) or [""])[0])
    problems += h.bad_lines(out)[:2]
    h.record(name, not problems, "; ".join(problems))
