"""The calls real programs make (issue 22): compattest booted as init at 2 CPUs, and the same
test built for this Linux host (build/compattest-linux) run here. Its mount and umount checks move
to a mount namespace of their own first (unshare(CLONE_NEWNS), every mount private: what
`unshare -m` does), so they never touch this host's mounts; where that is not allowed (not root)
they say so and the harness shows a SKIP."""
import os
import re
import subprocess

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
    """The same checks, built with the host's gcc -m32 -static, must pass on this Linux."""
    name = "host: compattest on Linux (gcc -m32 -static)"
    if not h.wanted(name):
        return
    exe = os.path.join(h.BUILD, "compattest-linux")
    if not os.access(exe, os.X_OK):
        h.record(name, False, "build/compattest-linux is missing (make test builds it)")
        return
    cmd = [exe]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except OSError as e:
        h.skip(name, f"this host cannot run i386 programs ({e})")
        return
    except subprocess.TimeoutExpired:
        h.record(name, False, "timeout")
        return
    for line in re.findall(r"^compattest: .* skipped: .*$", p.stdout, re.M):
        h.skip(f"{name}: {line.split(':')[1].strip()}", line.split("skipped: ", 1)[1])
    results = LINE.findall(p.stdout)
    fails = [f"{t}{r}" for t, s, r in results if s == "FAIL"]
    ok = p.returncode == 0 and not fails and len(results) >= 3
    h.record(name, ok, " | ".join(fails[:3]) or f"{len(results)} tests, exit {p.returncode}")


def run(h):
    on_linux(h)
    guest(h, "smp2", cpus=2)
