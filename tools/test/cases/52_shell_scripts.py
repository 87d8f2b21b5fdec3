"""The shell against dash: every script in user/root/tests/sh/ (in the initrd as /tests/sh/) runs
under the host's dash and under smpix's /bin/sh in one boot; stdout and the exit status must be the
same. Stderr is not compared (the messages are worded differently): a script that checks messages
or traces sends them to stdout itself. Then `time` on a pipeline in smpix, whose format dash lacks."""
import difflib
import os
import re
import shutil
import subprocess
import tempfile
from testlib import Session

SCRIPTS = "user/root/tests/sh"
# POSIX's time -p lines; smpix adds the spin to the sys line when there was some (docs/time.md).
TIME_LINES = re.compile(r"^real \d+\.\d\d\nuser \d+\.\d\d\nsys \d+\.\d\d(?: \(spin \d+\.\d\d, BKL \d+\.\d\d\))?\n", re.M)


def host_output(path, cwd):
    """What dash prints for the script, and its status, as the guest's line will show them."""
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/", "SH": "dash"}
    p = subprocess.run(["dash", path], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       timeout=60)
    return p.stdout.decode() + f"[status={p.returncode}]\n"


def difference(want, got):
    lines = list(difflib.unified_diff(want.splitlines(), got.splitlines(), "dash", "smpix sh", lineterm="", n=0))
    return " | ".join(lines[2:8])


def run(h):
    names = sorted(f[:-3] for f in os.listdir(os.path.join(h.ROOT, SCRIPTS)) if f.endswith(".sh"))
    wanted = [n for n in names if h.wanted(f"sh-vs-dash[{n}]")]
    time_wanted = h.wanted("sh[time")
    if not wanted and not time_wanted:
        return
    if not shutil.which("dash"):
        for n in wanted:
            h.skip(f"sh-vs-dash[{n}]", "dash is not installed on the host (tools/build/deps.sh installs it)")
        wanted = []
    s = Session(h, "shell-scripts", cpus=2, timeout=240)
    if not s.ok:
        h.record("sh-vs-dash[boot to a shell]", False, "no prompt")
        s.q.kill()
        return
    with tempfile.TemporaryDirectory() as cwd:
        for n in wanted:
            want = host_output(os.path.join(h.ROOT, SCRIPTS, n + ".sh"), cwd)
            got = s.run(f"SH=sh sh /tests/sh/{n}.sh 2>/dev/null; echo \"[status=$?]\"", timeout=60)
            h.record(f"sh-vs-dash[{n}]", got == want,
                     "no prompt came back" if got is None else difference(want, got))
    if time_wanted:
        out = s.run("time ioctlbench -d own -n 20 -w 10 -r 1 | grep -c '^ioctlbench: run'", timeout=60)
        h.record("sh[time: real, user and sys of a pipeline, as time -p prints them]",
                 out is not None and out.startswith("1\n") and TIME_LINES.search(out) is not None,
                 f"got {out!r}")
    problems = s.power_off()
    h.record("sh-vs-dash[poweroff]", not problems, "; ".join(problems))
