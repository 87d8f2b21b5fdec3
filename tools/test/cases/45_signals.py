"""Signals and what real Linux programs need: sigtest and systest in the guest AND on the Linux
reference (the same binaries, tools/test/linuxref.py: that run proves the expectations), then the glibc
programs of user/compat."""
import re

import linuxref

SUMMARY = r"^{0}: summary (\d+) passed, (\d+) failed"
INIT_EXIT = r"init \(pid \d+\) exited with status 0x([0-9a-f]+)"

# Lines the kernel must log while sigtest runs: faults nobody handles, frames that cannot be used.
SIGTEST_LOG = [
    r"^pid \d+ \(sigtest\): segfault at 0 ip [0-9a-f]{8}$",
    r"^pid \d+ \(sigtest\): segfault at c0000000 ip c0000000$",
    r"^pid \d+ \(sigtest\): bad signal frame at [0-9a-f]{8} in sigreturn; killing it$",
    r"^pid \d+ \(sigtest\): cannot push the frame for signal 10 at sp [0-9a-f]{8}; killing it$",
]
SYSTEST_LOG = [
    r"^pid \d+ \(systest\): syscall 9999 \(\?\) is not implemented: -ENOSYS$",
    r"^pid \d+ \(systest\): clone flags [0-9a-f]+ ask for what smpix does not have: -EINVAL$",
]


def on_linux(h, suite, min_tests, namespaced=False):
    """The guest test binary, run on the Linux reference: it must pass there too. namespaced: in a
    new pid namespace, as in a container, where the session leader is out of sight and getsid()
    answers 0 (CI machines may be such containers)."""
    run_id = suite + ("-pidns" if namespaced else "")
    linuxref.check(h, f"linux: {run_id}", run_id, linuxref.suite_judge(h, suite, min_tests, each=True))


def guest_run(h, suite, label, cpus, min_tests, log_lines, append="", timeout=180):
    name = f"guest[{suite}-{label}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"{suite}-{label}", append=f"init=/bin/{suite} {append}".strip(), cpus=cpus,
               timeout=timeout)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    count, _ = h.suite_results(name, suite, out)
    problems = []
    if not re.search(SUMMARY.format(suite), out, re.M):
        problems.append("no summary line" + (" (timeout)" if q.timed_out else ""))
    if count < min_tests:
        problems.append(f"only {count} tests reported")
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    for p in log_lines:
        if not re.search(p, out, re.M):
            problems.append(f"no line /{p}/")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    h.record(f"{name} run, log lines, power off", not problems, "; ".join(problems))
    return out


def enosys_logged_once(h, out):
    """An unimplemented call is logged once, by number and Linux's name."""
    name = "guest[systest] -ENOSYS logged once by name"
    if out is None or not h.wanted(name):
        return
    n = len(re.findall(r"^pid \d+ \(systest\): syscall 51 \(acct\) is not implemented: -ENOSYS$", out, re.M))
    quiet = not re.search(r"syscall \d+ \((statx|clone3|rseq|clock_gettime64)\)", out)
    h.record(name, n == 1 and quiet,
             f"acct logged {n} times (want 1)" + ("" if quiet else "; a fallback call was logged"))


# The glibc programs: what each must print (in order), run as init.
COMPAT = {
    "hello": [r"^hello from glibc: /bin/compat-hello, 1 argument\(s\), 690 bytes of words$",
              r"^3\.142 1\.23e\+04 pad   \|beef$"],
    "signals": [r"^signals: handler and mask ok$", r"^signals: alarm and sigsuspend ok$",
                r"^signals: SIGCHLD ok$", r"^signals: all ok$"],
    "forkwait": [r"^forkwait: five children exited, codes sum to 15$",
                 r"^forkwait: child killed by signal 15$",
                 r"^forkwait: vfork child exited 3, its write seen: yes$",
                 r"^forkwait: posix_spawn /bin/true exited 0$"],
    "uname": [r"^uname: sysname=smpix release=4\.4\.0-smpix machine=i686$",
              r"^uname: uid=0 euid=0 gid=0 pid>0=1$"],
    "memory": [r"^memory: 3 of 3 big blocks were mmap'd, filled, checked, grown and freed$",
               r"^memory: mprotect read-only, SIGSEGV caught, writable again$", r"^memory: all ok$"],
    "time": [r"^time: slept 200 ms or a little more$", r"^time: time\(\) and gettimeofday\(\) agree: yes$",
             r"^time: times\(\) ok$"],
}


def compat(h, prog, patterns, cpus=2):
    name = f"compat[{prog}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"compat-{prog}", append=f"init=/bin/compat-{prog}", cpus=cpus, timeout=90)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    problems = []
    pos = 0
    for p in patterns:
        m = re.compile(p, re.M).search(out, pos)
        if not m:
            problems.append(f"no line /{p}/")
            break
        pos = m.end()
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("did not exit with status 0")
    if re.search(r"segfault|general protection|invalid opcode", out):
        problems.append("a fault was logged")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    h.record(name, not problems, "; ".join(problems))


def run(h):
    on_linux(h, "sigtest", 17)
    on_linux(h, "sigtest", 17, namespaced=True)
    on_linux(h, "systest", 13)
    guest_run(h, "sigtest", "smp1", 1, 17, SIGTEST_LOG)
    guest_run(h, "sigtest", "smp4", 4, 17, SIGTEST_LOG)
    # Every call under the BKL (Linux 2.0's way): sleeping in pause or sigsuspend must let it go.
    guest_run(h, "sigtest", "bkl-syscalls", 2, 17, SIGTEST_LOG, append="bkl=syscalls")
    out = guest_run(h, "systest", "smp2", 2, 13, SYSTEST_LOG)
    enosys_logged_once(h, out)
    for prog, patterns in COMPAT.items():
        compat(h, prog, patterns)
