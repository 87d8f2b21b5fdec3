"""make test on any host: one that refuses i386 programs, or cannot fetch Debian's kernel.

The harness's host checks and Linux comparisons run again, in a child harness told to act as on
a host that cannot run i386 programs (SMPIX_HOST_I386=0) and has no Linux reference in QEMU
(SMPIX_LINUX_VM=0). Wanted: every such check a SKIP that says why, no FAIL, no traceback, the
summary line last, exit status 0. (This machine's own run shows the other half: where the host
refuses i386 programs, the comparisons are made on Debian's i386 kernel in QEMU.)
"""
import os
import re
import subprocess
import sys


def run(h):
    name = "harness[a host without i386 programs nor a Linux kernel: host and Linux checks SKIP, summary, exit 0]"
    if not h.wanted(name):
        return
    env = dict(os.environ, SMPIX_HOST_I386="0", SMPIX_LINUX_VM="0")
    harness = os.path.join(h.ROOT, "tools", "test", "harness.py")
    try:
        p = subprocess.run([sys.executable, harness, "host:", "linux:", "linux-env["], env=env,
                           capture_output=True, text=True, timeout=300, cwd=h.ROOT)
    except subprocess.TimeoutExpired:
        return h.record(name, False, "timeout")
    out = p.stdout + p.stderr
    lines = out.strip().splitlines()
    problems = []
    if "Traceback" in out:
        problems.append("a traceback: " + out[out.index("Traceback"):][:300])
    if not lines or not re.fullmatch(r"\d+ passed, 0 failed", lines[-1]):
        problems.append(f"last line {lines[-1] if lines else ''!r}")
    if p.returncode != 0:
        problems.append(f"exit status {p.returncode}")
    skips = re.findall(r"^SKIP (linux\S*[: ].*?): (.*)$", p.stdout, re.M)
    if len(skips) < 20:
        problems.append(f"only {len(skips)} Linux comparisons said SKIP")
    problems += [f"{n}: no reason" for n, why in skips if "SMPIX_HOST_I386=0" not in why][:2]
    if not re.search(r"^SKIP host: test_cpio-i386: SMPIX_HOST_I386=0", p.stdout, re.M):
        problems.append("the i386 host unit test was not skipped with its reason")
    if not re.search(r"^PASS host: test_cpio$", p.stdout, re.M):
        problems.append("the host unit tests did not run")
    h.record(name, not problems, "; ".join(problems))
