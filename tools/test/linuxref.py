"""The Linux reference: where make test proves that what smpix's tests expect is Linux's behaviour.

Every guest test program that claims Linux's answers (vfstest, sigtest, linuxabi, ...) is also built
or copied as a static i386 Linux program, and the very same binary runs on Linux:

  - on Debian 12's own i386 kernel (linux-image-686) booted in QEMU: always, where the package can
    be had. One boot runs every program of PLAN, in order, under tools/test/linuxref/init.c, which frames
    each run's output on the console ("linuxref: begin ID" ... "linuxref: end ID status=...").
    This needs nothing of the host kernel, and it is real i386 Linux, not a 64-bit compat layer.
  - on this host as well, where the host runs i386 programs (many x86_64 machines do; kernels built
    without IA32 emulation and many sandboxes refuse them with "Exec format error").

A check is recorded once per reference ("... [linux-686 in QEMU]", "... [this host]"); with neither,
it is one SKIP that says why. Environment: SMPIX_HOST_I386=0 makes the harness act as on a host that
refuses i386 programs (tools/test/cases/12_any_host.py runs it so); SMPIX_LINUX_VM=0 leaves the
QEMU boot out.
"""
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# bench_linux (tools/bench/) fetches Debian's kernel and writes cpio archives for both of us.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))

VM = "linux-686 in QEMU"
HOST = "this host"
NOBODY = 65534


class Run:
    """One program run of the reference. mode: plain, tty, pidns or chroot (see init.c)."""

    def __init__(self, run_id, mode, exe, args=(), env=None, timeout=120):
        self.id, self.mode, self.exe = run_id, mode, exe
        self.args, self.env, self.timeout = list(args), dict(env or {}), timeout

    @property
    def name(self):
        return os.path.basename(self.exe)


SYSBENCH_SCALE = 1      # percent of sysbench's usual counts: a smoke test, never a timing
GTESTS = [("vfstest", "vfstest-linux", []), ("pipetest", "pipetest-linux", []),
          ("flocktest", "flocktest-linux", []), ("proctest", "proctest-linux", []),
          ("ioctltest", "ioctltest-linux", []), ("mmaptest", "mmaptest-linux", []),
          ("sleeptest", "sleeptest-linux", ["4", "100", "400"]), ("sigtest", "ubin/sigtest", []),
          ("systest", "ubin/systest", []), ("linuxabi", "ubin/linuxabi", [])]

# Every run, in the order the QEMU boot makes them; exe is relative to build/.
PLAN = [
    Run("vfstest", "plain", "vfstest-linux"),
    Run("pipetest", "plain", "pipetest-linux"),
    Run("flocktest", "plain", "flocktest-linux"),
    Run("proctest", "plain", "proctest-linux"),
    Run("mmaptest", "plain", "mmaptest-linux"),
    Run("ioctltest-tty", "tty", "ioctltest-linux"),
    Run("sleeptest", "plain", "sleeptest-linux", ["12", "200", "1500"]),
    Run("compattest", "plain", "compattest-linux"),
    Run("threadtest", "plain", "threadtest-linux"),
    Run("tlbtest", "plain", "tlbtest-linux"),
    Run("attrtest", "plain", "attrtest-linux", ["--tmpfs", "/tmp/attrtest-tmpfs"]),
    Run("jobtest", "tty", "jobtest-linux"),
    Run("compat-pthreads", "plain", "ubin/compat-pthreads"),
    Run("compat-threadexit", "plain", "ubin/compat-threadexit"),
    Run("linuxabi", "plain", "ubin/linuxabi"),
    Run("sigtest", "plain", "ubin/sigtest"),
    Run("sigtest-pidns", "pidns", "ubin/sigtest"),
    Run("systest", "plain", "ubin/systest"),
    Run("futextest", "plain", "ubin/futextest"),
    Run("timetest", "plain", "ubin/timetest"),
    Run("compat-memory", "plain", "ubin/compat-memory"),
    Run("compat-files", "plain", "ubin/compat-files"),
    Run("sysbench", "plain", "initrd/bin/sysbench", env={"sysbench_scale": str(SYSBENCH_SCALE)}),
    Run("threadbench", "plain", "initrd/bin/compat-threadbench", env={"threadbench_scale": str(SYSBENCH_SCALE)}),
] + [Run(f"chroot-{suite}", "chroot", exe, args) for suite, exe, args in GTESTS]

BY_ID = {r.id: r for r in PLAN}


def planned():
    """PLAN, or the runs SMPIX_LINUXREF_ONLY names (ids, comma-separated): for one's own debugging."""
    only = [w for w in os.environ.get("SMPIX_LINUXREF_ONLY", "").split(",") if w]
    return [r for r in PLAN if not only or r.id in only]


class Result:
    """What one run gave: its output (stdout; on a tty, what the terminal showed) and its exit
    status as subprocess gives it (negative: killed by that signal; None: timed out)."""

    def __init__(self, out, status):
        self.out, self.status = out, status


# ---- which references this machine has ------------------------------------------------------

_host_i386 = None


def host_runs_i386(h):
    """(True, "") if this host runs i386 programs, else (False, why). Asked once, of a real one."""
    global _host_i386
    if _host_i386 is None:
        if os.environ.get("SMPIX_HOST_I386", "") == "0":
            _host_i386 = (False, "SMPIX_HOST_I386=0 says to act as on a host that refuses i386 programs")
        else:
            probe = os.path.join(h.BUILD, "ubin", "true")
            try:
                p = subprocess.run([probe], capture_output=True, timeout=30)
                _host_i386 = (p.returncode == 0, f"{probe} exited with {p.returncode}")
            except OSError as e:
                _host_i386 = (False, f"this host cannot run i386 programs ({e.strerror})")
            except subprocess.TimeoutExpired:
                _host_i386 = (False, "an i386 program did not finish on this host")
    return _host_i386


_vm = None
_vm_lock = threading.Lock()


def vm_results(h):
    """{run id: Result} from one boot of Debian's i386 kernel, or the reason there is none."""
    global _vm
    with _vm_lock:
        if _vm is None:
            _vm = boot_reference(h)
        return _vm


def boot_in_background(h):
    """Start the boot now, beside the first checks, if any wanted check will need it."""
    wanted = any(h.wanted(w) for w in ("linux: ", "linux-env[", "vfs[glibc program with files: compat-files on Linux]"))
    if wanted:
        threading.Thread(target=vm_results, args=(h,), daemon=True).start()


def boot_reference(h):
    if os.environ.get("SMPIX_LINUX_VM", "") == "0":
        return "SMPIX_LINUX_VM=0 leaves the Linux kernel in QEMU out"
    import bench_linux
    vmlinuz, what = bench_linux.fetch_kernel()
    if vmlinuz is None:
        return f"no Debian i386 kernel: {what}"
    initramfs, missing = write_initramfs(h)
    timeout = 120 + sum(r.timeout for r in planned()) // 4
    t0 = time.monotonic()
    q = h.Qemu("linuxref", kernel=vmlinuz, initrd=initramfs, cpus=2, mem=256, timeout=timeout,
               append="console=ttyS0 quiet loglevel=1 panic=-1 rdinit=/init")
    q.expect(r"^linuxref: done$")
    q.wait_exit()
    print(f"(the Linux reference, {what}: one boot, {time.monotonic() - t0:.0f} s)", flush=True)
    results = parse_console(q.output)
    for r in planned():
        if r.id not in results:
            why = ("its binary is missing" if r.id in missing else
                   "the boot timed out first" if q.timed_out else "no output; see build/test-logs/linuxref.log")
            results[r.id] = why
    return results


def parse_console(out):
    results = {}
    for m in re.finditer(r"^linuxref: begin (\S+)\n([\s\S]*?)^linuxref: end \1 status=(\S+)$", out, re.M):
        kind, _, value = m.group(3).partition(":")
        status = int(value) if kind == "exit" else -int(value) if kind == "signal" else None
        results[m.group(1)] = Result(m.group(2), status)
    return results


def write_initramfs(h):
    """build/linuxref/initramfs.cpio: /init, the plan, the programs in /chroot/bin, the bare root's
    directories. Written with bench_linux's cpio writer, so the device node needs no root."""
    import bench_linux
    init = os.path.join(h.BUILD, "linuxref", "init")
    members = [("dev", 0o040755, b"", (0, 0)), ("dev/console", 0o020600, b"", (5, 1)),
               ("linuxref", 0o040755, b"", (0, 0)), ("chroot", 0o040755, b"", (0, 0)),
               ("chroot/bin", 0o040755, b"", (0, 0)), ("chroot/tmp", 0o041777, b"", (0, 0)),
               ("chroot/dev", 0o040755, b"", (0, 0)), ("chroot/proc", 0o040555, b"", (0, 0))]
    with open(init, "rb") as f:
        members.append(("init", 0o100755, f.read(), (0, 0)))
    plan, copied, missing = [], set(), set()
    for r in planned():
        src = os.path.join(h.BUILD, r.exe)
        if not os.access(src, os.X_OK):
            missing.add(r.id)
            continue
        if r.name not in copied:
            with open(src, "rb") as f:
                members.append((f"chroot/bin/{r.name}", 0o100755, f.read(), (0, 0)))
            copied.add(r.name)
        where = f"/bin/{r.name}" if r.mode == "chroot" else f"/chroot/bin/{r.name}"
        words = [r.id, r.mode, str(r.timeout)] + [f"{k}={v}" for k, v in r.env.items()] + [where] + r.args
        plan.append(" ".join(words))
    members.append(("linuxref/plan", 0o100644, ("\n".join(plan) + "\n").encode(), (0, 0)))
    path = os.path.join(h.BUILD, "linuxref", "initramfs.cpio")
    with open(path, "wb") as f:
        for i, (name, mode, body, rdev) in enumerate(members):
            f.write(bench_linux.cpio_entry(name, mode, body, rdev, ino=i + 1))
        f.write(bench_linux.cpio_entry("TRAILER!!!", 0, b"", (0, 0)))
    return path, missing


# ---- the same runs on this host -------------------------------------------------------------

def host_result(h, run):
    """Result of run on this host, or why it cannot be run here."""
    exe = os.path.join(h.BUILD, run.exe)
    env = dict(os.environ, **run.env)
    if run.mode == "tty":
        return host_on_pty(exe, run)
    if run.mode == "chroot":
        return host_in_bare_root(h, run)
    wrapper = []
    if run.mode == "pidns":
        probe = subprocess.run(["unshare", "-rpf", "true"], capture_output=True)
        if probe.returncode != 0:
            return "this host cannot make a pid namespace (unshare -rpf)"
        wrapper = ["unshare", "-rpf"]
    try:
        p = subprocess.run(wrapper + [exe] + run.args, capture_output=True, text=True, env=env,
                           timeout=run.timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Result("", None)
    return Result(p.stdout, p.returncode)


def host_on_pty(exe, run):
    """On a pseudo-terminal of its own, so that termios checks meet Linux's tty code."""
    try:
        pid, fd = pty.fork()
    except OSError as e:
        # A chroot or container without /dev/ptmx and /dev/pts mounted has no pseudo-terminals.
        return f"no pseudo-terminal on this host ({e})"
    if pid == 0:
        try:
            os.execv(exe, [exe] + run.args)
        finally:
            os._exit(127)       # never back into the harness, whatever execv did
    out = b""
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return Result(out.decode("utf-8", "replace").replace("\r", ""), os.waitstatus_to_exitcode(status))


# In the new mount and pid namespaces: /proc for the chroot, then the program as pid 1
# ($0 the root, $1 the chroot options, then the program and its arguments).
ENTER = 'root=$0 opts=$1; shift; mount -t proc proc "$root/proc" && exec chroot $opts "$root" "$@"'


def host_in_bare_root(h, run):
    """A bare chroot (a plain directory, not a mount point) with /proc mounted, an empty /dev,
    no tty, as pid 1 of new pid and mount namespaces and, when we are root, as user nobody."""
    # Root makes the namespaces itself; anyone else needs a user namespace, mapped to root.
    unshare = ["unshare", "-mpf"] if os.geteuid() == 0 else ["unshare", "-rmpf"]
    userspec = f"--userspec={NOBODY}:{NOBODY}" if os.geteuid() == 0 else ""
    root = tempfile.mkdtemp(prefix="smpix-chroot-")
    try:
        os.chmod(root, 0o755)
        for d, mode in (("bin", 0o755), ("tmp", 0o1777), ("dev", 0o755), ("proc", 0o555)):
            os.mkdir(os.path.join(root, d))
            os.chmod(os.path.join(root, d), mode)
        shutil.copy(os.path.join(h.BUILD, run.exe), os.path.join(root, "bin", run.name))
        probe = subprocess.run(unshare + ["sh", "-c", 'mount -t proc proc "$0/proc"', root],
                               capture_output=True, text=True, timeout=30)
        if probe.returncode != 0:
            return ("this host cannot make mount and pid namespaces here "
                    f"({' '.join(unshare)}: {probe.stderr.strip()[:80]})")
        try:
            p = subprocess.run(unshare + ["sh", "-c", ENTER, root, userspec, "/bin/" + run.name] + run.args,
                               capture_output=True, text=True, timeout=run.timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return Result("", None)
        return Result(p.stdout + p.stderr, p.returncode)
    finally:
        shutil.rmtree(root, ignore_errors=True)


# ---- the checks ------------------------------------------------------------------------------

def check(h, name, run_id, judge):
    """Record judge's verdict on run_id at every Linux reference this machine has, as
    "NAME [where]"; judge(label, result) returns a list of problems (empty: pass). One SKIP
    with both reasons when there is no reference at all."""
    if not h.wanted(name):
        return
    run = BY_ID[run_id]
    if not os.access(os.path.join(h.BUILD, run.exe), os.X_OK):
        return h.record(name, False, f"build/{run.exe} is missing (make test builds it)")
    reasons = []
    results = vm_results(h)
    got = results.get(run_id) if isinstance(results, dict) else results
    if isinstance(got, Result):
        verdict(h, f"{name} [{VM}]", got, run, judge)
    else:
        reasons.append(f"{VM}: {got}")
    runs_i386, why = host_runs_i386(h)
    got = host_result(h, run) if runs_i386 else why
    if isinstance(got, Result):
        verdict(h, f"{name} [{HOST}]", got, run, judge)
    else:
        reasons.append(f"{HOST}: {got}")
    if len(reasons) == 2:
        h.skip(name, "; ".join(reasons))


def verdict(h, label, result, run, judge):
    if result.status is None:
        return h.record(label, False, f"timeout ({run.timeout} s)")
    problems = judge(label, result)
    h.record(label, not problems, " | ".join(problems))


def suite_judge(h, suite, min_tests, each=False, must_see=(), exit_zero=True):
    """The judge of a gtest program (user/tests/gtest.h): a clean summary, at least min_tests
    tests, no FAIL; each SKIP said with its reason; with each, one result per test too."""
    def judge(label, result):
        count, fails = h.suite_results(label, suite, result.out, each)
        problems = fails[:3]
        if not re.search(rf"^{suite}: summary \d+ passed, 0 failed", result.out, re.M):
            problems.append("no clean summary line: " + repr(result.out[-200:]))
        if count < min_tests:
            problems.append(f"only {count} tests reported, expected {min_tests}")
        problems += [f"no line /{m}/" for m in must_see if not re.search(m, result.out, re.M)]
        if exit_zero and result.status != 0:
            problems.append(f"exit status {result.status}")
        return problems
    return judge
