"""The calls real programs make (issue 22): compattest booted as init at 2 CPUs, and the same
test built for Linux (build/compattest-linux) run on the Linux reference (tools/test/linuxref.py). Its
mount and umount checks move to a mount namespace of their own first (unshare(CLONE_NEWNS), every
mount private: what `unshare -m` does), so they never touch a host's mounts; where that is not
allowed (not root) they say so and the harness shows a SKIP."""
import re

import linuxref

INIT_EXIT = r"init \(pid \d+\) exited with status 0x([0-9a-f]+)"
LINE = re.compile(r"^compattest: (\S+) (ok|FAIL)(.*)$", re.M)
SUMMARY = re.compile(r"^compattest: summary (\d+) passed, (\d+) failed$", re.M)
MIN_TESTS = 8


def guest(h, label, cpus, append=""):
    name = f"compattest[{label}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"compattest-{label}", append=f"init=/bin/compattest {append}".strip(), cpus=cpus,
               timeout=180)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    results = LINE.findall(out)
    for test, status, rest in results:
        h.record(f"{name} {test}", status == "ok", rest.strip())
    problems = []
    m = SUMMARY.search(out)
    if not m or m.group(2) != "0":
        problems.append("no clean summary line" + (" (timeout)" if q.timed_out else ""))
    if len(results) < MIN_TESTS:
        problems.append(f"only {len(results)} tests reported")
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    enosys = re.findall(r"^pid \d+ \(compattest\): syscall .* -ENOSYS$", out, re.M)
    if enosys:
        problems.append("unimplemented: " + enosys[0])
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    h.record(f"{name} run, power off", not problems, "; ".join(problems))


def on_linux(h):
    """The same checks, built with gcc -m32 -static, must pass on Linux (tools/test/linuxref.py)."""
    def judge(label, result):
        for line in re.findall(r"^compattest: .* skipped: .*$", result.out, re.M):
            h.skip(f"{label}: {line.split(':')[1].strip()}", line.split("skipped: ", 1)[1])
        results = LINE.findall(result.out)
        fails = [f"{t}{r}" for t, s, r in results if s == "FAIL"]
        if fails:
            return fails[:3]
        if result.status != 0 or len(results) < 3:
            return [f"{len(results)} tests, exit {result.status}"]
        return []
    linuxref.check(h, "linux: compattest (gcc -m32 -static)", "compattest", judge)


def run(h):
    on_linux(h)
    guest(h, "smp2", cpus=2)
