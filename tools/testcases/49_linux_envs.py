"""The guest tests that also run on this Linux host, on a host that is not a plain one.

The host runs (45_*.py, 46_*.py, 47_*.py) prove that what the tests expect is Linux's
behaviour, on this machine as it is. People also run `make test` in a fresh Debian chroot
or a container, where /proc/mounts lacks /, /dev is bare, there is no terminal, the test is
pid 1 of a pid namespace, or it is not root. So each program runs once more in such a
place, made here: a bare chroot (a plain directory, not a mount point) with /proc mounted,
an empty /dev, no tty, as pid 1 of a new pid namespace and, when we are root, as user
nobody. A test the place cannot show must say SKIP and why (user/tests/gtest.h's SKIP_IF);
none may FAIL.
"""
import os
import shutil
import subprocess
import tempfile

# (suite, the binary under build/, its arguments)
PROGRAMS = [("vfstest", "vfstest-linux", []), ("pipetest", "pipetest-linux", []),
            ("flocktest", "flocktest-linux", []), ("proctest", "proctest-linux", []),
            ("ioctltest", "ioctltest-linux", []), ("mmaptest", "mmaptest-linux", []),
            ("sleeptest", "sleeptest-linux", ["4", "100", "400"]), ("sigtest", "ubin/sigtest", []),
            ("systest", "ubin/systest", []), ("linuxabi", "ubin/linuxabi", [])]

# In the new mount and pid namespaces: /proc for the chroot, then the program as pid 1
# ($0 the root, $1 the chroot options, then the program and its arguments).
ENTER = 'root=$0 opts=$1; shift; mount -t proc proc "$root/proc" && exec chroot $opts "$root" "$@"'


def make_root(h):
    """bin/ with the programs, tmp/, an empty dev/, proc/; searchable by anyone."""
    root = tempfile.mkdtemp(prefix="smpix-chroot-")
    os.chmod(root, 0o755)
    for d, mode in (("bin", 0o755), ("tmp", 0o1777), ("dev", 0o755), ("proc", 0o555)):
        os.mkdir(os.path.join(root, d))
        os.chmod(os.path.join(root, d), mode)
    for _, path, _ in PROGRAMS:
        src = os.path.join(h.BUILD, path)
        if os.access(src, os.X_OK):
            shutil.copy(src, os.path.join(root, "bin", os.path.basename(path)))
    return root


def run(h):
    names = {suite: f"linux-env[bare chroot, pid 1, no tty] {suite}" for suite, _, _ in PROGRAMS}
    if not any(h.wanted(n) for n in names.values()):
        return
    # Root makes the namespaces itself; anyone else needs a user namespace, mapped to root.
    unshare = ["unshare", "-mpf"] if os.geteuid() == 0 else ["unshare", "-rmpf"]
    # As root, drop to nobody inside: the permission checks of a user's machine.
    userspec = "--userspec=65534:65534" if os.geteuid() == 0 else ""
    root = make_root(h)
    try:
        probe = subprocess.run(unshare + ["sh", "-c", 'mount -t proc proc "$0/proc"', root],
                               capture_output=True, text=True, timeout=30)
        for suite, path, args in PROGRAMS:
            name = names[suite]
            if not h.wanted(name):
                continue
            if probe.returncode != 0:
                h.skip(name, "this host cannot make mount and pid namespaces here "
                       f"({' '.join(unshare)}: {probe.stderr.strip()[:80]})")
                continue
            if not os.access(os.path.join(h.BUILD, path), os.X_OK):
                h.record(name, False, f"build/{path} is missing (make test builds it)")
                continue
            exe = "/bin/" + os.path.basename(path)
            try:
                p = subprocess.run(unshare + ["sh", "-c", ENTER, root, userspec, exe] + args,
                                   capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                h.record(name, False, "timeout")
                continue
            count, fails = h.suite_results(name, suite, p.stdout, each=False)
            problems = fails[:3]
            if count == 0 or f"{suite}: summary" not in p.stdout:
                problems.append(f"no test ran: {(p.stdout + p.stderr).strip()[-200:]!r}")
            if p.returncode != 0:
                problems.append(f"exit status {p.returncode}")
            h.record(name, not problems, " | ".join(problems))
    finally:
        shutil.rmtree(root, ignore_errors=True)
