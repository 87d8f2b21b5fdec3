"""User mode: /bin/utest runs as init (the first process) and reports one line per test; faults are logged."""
import re

UTEST_LINE = re.compile(r"^utest: (\S+) (ok|FAIL)(.*)$", re.M)
UTEST_SUMMARY = re.compile(r"^utest: summary (\d+) passed, (\d+) failed", re.M)
INIT_EXIT = r"init \(pid \d+\) exited with status 0x([0-9a-f]+)"

# What the kernel must print when utest's children die (one line each, Linux's wording).
FAULT_LINES = [
    r"^pid \d+ \(utest\): segfault at 0 ip [0-9a-f]{8}$",          # NULL write
    r"^pid \d+ \(utest\): segfault at c0100000 ip [0-9a-f]{8}$",   # kernel memory
    r"^pid \d+ \(utest\): general protection fault ip [0-9a-f]{8}$",  # cli, hlt
    r"^pid \d+ \(utest\): invalid opcode ip [0-9a-f]{8}$",         # ud2
    r"^pid \d+ \(utest\): divide error ip [0-9a-f]{8}$",           # divide by zero
]


def utest(h, label, cpus, append="", timeout=240):
    name = f"user[{label}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"user-{label}", append=f"init=/bin/utest {append}".strip(), cpus=cpus,
               timeout=timeout)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    results = UTEST_LINE.findall(out)
    for test, status, rest in results:
        h.record(f"{name} {test}", status == "ok", rest.strip())
    problems = []
    if not UTEST_SUMMARY.search(out):
        problems.append("no summary line" + (" (timeout)" if q.timed_out else ""))
    if len(results) < 20:
        problems.append(f"only {len(results)} tests reported")
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    for p in FAULT_LINES:
        if not re.search(p, out, re.M):
            problems.append(f"no line /{p}/")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    h.record(f"{name} run, fault lines, power off", not problems, "; ".join(problems))


def run(h):
    utest(h, "smp1", cpus=1)
    utest(h, "smp4", cpus=4)
    utest(h, "bkl-syscalls", cpus=2, append="bkl=syscalls")
    # The dispatcher's BKL policy, seen from its lock statistics: SYS_BKL only, then every call.
    h.ktests("syscall-bkl-flag", tests="syscall_bkl_flag_takes_the_bkl", cpus=1)
    h.ktests("syscall-bkl-all", tests="syscall_bkl_flag_takes_the_bkl", cpus=1, append="bkl=syscalls")
    h.boot_check("default-init", [r"init: pid \d+ running in user mode"], timeout=60)
    h.boot_check("init-missing", [r"init: cannot start /bin/nope: error -2"],
                 append="init=/bin/nope", timeout=60)
