"""Threads (issue 31): threadtest, raw clone() threads, booted as init at 2 and 4 CPUs and under
bkl=syscalls, and the same binary built for Linux (build/threadtest-linux) on the Linux reference
(tools/test/linuxref.py): that run proves its expectations are Linux's. Then the glibc pthread
programs of user/compat/ (gcc -m32 -static -pthread): each prints the same lines on smpix as on
the Linux reference, or fails."""
import re

import linuxref

SUMMARY = r"^threadtest: summary (\d+) passed, (\d+) failed"
INIT_EXIT = r"init \(pid \d+\) exited with status 0x([0-9a-f]+)"
MIN_TESTS = 20
# The fault test's thread dies unhandled: the kernel says so, naming the thread.
LOG_LINES = [r"^pid \d+ \(threadtest\): segfault at 0 ip [0-9a-f]{8}$"]


def guest(h, label, cpus, append=""):
    name = f"guest[threadtest-{label}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"threadtest-{label}", append=f"init=/bin/threadtest {append}".strip(), cpus=cpus,
               timeout=180)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    count, _ = h.suite_results(name, "threadtest", out, True)
    problems = []
    if not re.search(SUMMARY, out, re.M):
        problems.append("no summary line" + (" (timeout)" if q.timed_out else ""))
    if count < MIN_TESTS:
        problems.append(f"only {count} tests reported")
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    for p in LOG_LINES:
        if not re.search(p, out, re.M):
            problems.append(f"no line /{p}/")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    h.record(f"{name} run, log lines, power off", not problems, "; ".join(problems))


# The glibc pthread programs: every line each prints, in order, on smpix and on Linux alike.
COMPAT = {
    "pthreads": [
        r"^pthreads: 4 threads joined, their results sum to 20: ok$",
        r"^pthreads: 3 producers, 1 consumer, 6000 items through one slot, none lost: ok$",
        r"^pthreads: a barrier kept 4 threads in step for 5 rounds: ok$",
        r"^pthreads: __thread variables are each thread's own: ok$",
        r"^pthreads: a thread cancelled in sleep\(\) ran its cleanup: ok$",
        r"^pthreads: pthread_kill's signal ran in its thread: ok$",
        r"^pthreads: parallel sum of 0\.\.1048575 by 4 threads: 549755289600$",
        r"^pthreads: the parallel sum is right: ok$",
        r"^pthreads: all ok$"],
    "threadexit": [
        r"^threadexit: execve from a thread: exited 0, pid kept$",
        r"^threadexit: a thread faulted: its process was killed by signal 11 \(Segmentation fault\)$"],
}


def lines_in_order(out, patterns):
    """The first pattern not found after the previous one's match, or None."""
    pos = 0
    for p in patterns:
        m = re.compile(p, re.M).search(out, pos)
        if not m:
            return p
        pos = m.end()
    return None


def compat_guest(h, prog, patterns, cpus):
    name = f"compat[{prog}-smp{cpus}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"compat-{prog}-smp{cpus}", append=f"init=/bin/compat-{prog}", cpus=cpus, timeout=120)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    problems = []
    missing = lines_in_order(out, patterns)
    if missing:
        problems.append(f"no line /{missing}/" + (" (timeout)" if q.timed_out else ""))
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("did not exit with status 0")
    enosys = re.findall(r"^pid \d+ \(\S+\): syscall .* -ENOSYS$", out, re.M)
    if enosys:
        problems.append("unimplemented: " + enosys[0])
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    h.record(name, not problems, "; ".join(problems))


def compat_linux(h, prog, patterns):
    def judge(label, result):
        missing = lines_in_order(result.out, patterns)
        problems = [f"no line /{missing}/"] if missing else []
        if result.status != 0:
            problems.append(f"exit status {result.status}")
        return problems
    linuxref.check(h, f"linux: compat-{prog}", f"compat-{prog}", judge)


def run(h):
    linuxref.check(h, "linux: threadtest", "threadtest",
                   linuxref.suite_judge(h, "threadtest", MIN_TESTS, each=True))
    guest(h, "smp2", 2)
    guest(h, "smp4", 4)
    # Every call under the BKL: a thread sleeping in the kernel must let it go to the others.
    guest(h, "bkl-syscalls", 2, append="bkl=syscalls")
    for prog, patterns in COMPAT.items():
        compat_linux(h, prog, patterns)
        compat_guest(h, prog, patterns, 2)
    compat_guest(h, "pthreads", COMPAT["pthreads"], 4)
