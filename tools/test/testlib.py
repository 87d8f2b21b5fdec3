"""What the test cases in tools/test/cases/ share: running host commands with hard timeouts, gdb
beside a halted QEMU, guest test programs booted as init (and the same program on this Linux
host), and a shell session typed into as a person would. Test cases import this module, never
each other; tools/test/harness.py (passed to each case as h) holds the QEMU runner and the bookkeeping."""
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time


# ---- host commands and gdb (tools/test/cases/15_tools.py, 16_gdb.py) ----------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def clean_env(**extra):
    """The environment of a fresh shell: no make variables inherited from `make test`."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "GDBPORT",
                        "DEPS_DRY_RUN", "APPEND", "CPUS", "MEM", "ACCEL", "QEMU", "PYTHON", "V")}
    env.update(extra)
    return env


def log(h, name, text):
    os.makedirs(h.LOGS, exist_ok=True)
    with open(os.path.join(h.LOGS, "tools-" + name + ".log"), "w") as f:
        f.write(text)


def kill_group(proc):
    """Kill the session we started (by its process-group id), then reap the leader."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()


def run_cmd(cmd, cwd=ROOT, env=None, stdin_text=None, timeout=60):
    """Run a command to completion (or kill it at the timeout): (returncode or None, output)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env or clean_env(), start_new_session=True,
                            stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = proc.communicate(stdin_text, timeout=timeout)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        kill_group(proc)
        out, _ = proc.communicate()
        return None, (out or "") + "\n[killed: timeout]"
    finally:
        kill_group(proc)


class PtyRun:
    """A command on a pseudo-terminal, as a user runs it in a terminal: read, type, always kill."""

    def __init__(self, cmd, timeout, cwd=ROOT, env=None):
        self.deadline = time.monotonic() + timeout
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=env or clean_env(TERM="dumb"),
                                     stdin=slave, stdout=slave, stderr=slave,
                                     start_new_session=True)
        os.close(slave)
        self.output = ""
        self.eof = False

    def _read(self, wait):
        r, _, _ = select.select([self.master], [], [], wait)
        if not r:
            return
        try:
            data = os.read(self.master, 65536)
        except OSError:             # EIO: every process on the terminal has gone
            data = b""
        if not data:
            self.eof = True
            return
        self.output += data.decode("utf-8", "replace").replace("\r", "")

    def expect(self, pattern):
        rx = re.compile(pattern, re.M)
        while not rx.search(self.output):
            left = self.deadline - time.monotonic()
            if left <= 0 or self.eof:
                return None
            self._read(min(left, 0.5))
        return rx.search(self.output)

    def send(self, data):
        os.write(self.master, data)

    def wait(self, timeout):
        """Exit status, or None if it did not exit within timeout (or the hard deadline)."""
        end = min(self.deadline, time.monotonic() + timeout)
        while self.proc.poll() is None and time.monotonic() < end:
            if self.eof:
                time.sleep(0.1)
            else:
                self._read(0.2)
        while not self.eof and self._read_pending():
            pass
        return self.proc.poll()

    def _read_pending(self):
        before = len(self.output)
        self._read(0)
        return len(self.output) != before

    def kill(self):
        kill_group(self.proc)
        os.close(self.master)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def listening(port):
    """Is something listening on TCP port? (read /proc/net/tcp*, without connecting to it)"""
    for f in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(f).read().splitlines()[1:]
        except OSError:
            continue
        for l in lines:
            fields = l.split()
            if fields[1].endswith(":%04X" % port) and fields[3] == "0A":
                return True
    return False


def qemu_halted_with_stub(h, name, cpus, port, append=""):
    q = h.Qemu(name, cpus=cpus, append=append, extra=["-S", "-gdb", f"tcp:127.0.0.1:{port}"], timeout=90)
    end = time.monotonic() + 20
    while not listening(port) and time.monotonic() < end and q.proc.poll() is None:
        time.sleep(0.1)
    return q


def gdb_mirror(target_port=None):
    """A directory that looks like the top of the tree for gdb and `make gdb` (symlinks),
    with build/ holding only kernel.elf: the user's build/gdb-target.gdb is left alone."""
    d = tempfile.mkdtemp(prefix="smpix-gdb-")
    for f in (".gdbinit", "Makefile", "tools"):
        os.symlink(os.path.join(ROOT, f), os.path.join(d, f))
    os.mkdir(os.path.join(d, "build"))
    os.symlink(os.path.join(ROOT, "build", "kernel.elf"), os.path.join(d, "build", "kernel.elf"))
    if target_port is not None:
        with open(os.path.join(d, "build", "gdb-target.gdb"), "w") as f:
            f.write(f"target remote localhost:{target_port}\n")
    return d


def gdb_batch(h, logname, cpus, cmds, append="", timeout=60):
    """Run gdb in batch mode with the repo's .gdbinit against a halted QEMU; (rc, output)."""
    port = free_port()
    d = gdb_mirror(target_port=port)
    q = qemu_halted_with_stub(h, "tools-" + logname, cpus, port, append=append)
    try:
        argv = ["gdb", "-q", "-nx", "-batch", "-x", ".gdbinit"]
        for c in cmds:
            argv += ["-ex", c]
        rc, out = run_cmd(argv, cwd=d, timeout=timeout)
    finally:
        q.kill()
        shutil.rmtree(d, ignore_errors=True)
    log(h, logname, out)
    return rc, out


def gdb_check(h, name, logname, rc, out, want, extra_problems=()):
    problems = [what for what, p in want.items() if not re.search(p, out, re.M)] + list(extra_problems)
    if rc is None:
        problems.append("gdb timed out")
    h.record(name, not problems, "; ".join(problems) + f" (log: build/test-logs/tools-{logname}.log)")


# ---- guest test programs booted as init, and on this host ----------------------------------------

INIT_EXIT = r"init \(pid \d+\) exited with status 0x([0-9a-f]+)"


def suite_lines(suite):
    return re.compile(rf"^{suite}: (\S+) (ok|FAIL)(.*)$", re.M)


def record_suite_boot(h, name, suite, q, min_tests, patterns=()):
    """A boot that ran SUITE to its end: a result per test, then one for the run (a clean summary,
    at least min_tests reported, every pattern seen, no kernel report, QEMU's status 0)."""
    out = q.output
    results = suite_lines(suite).findall(out)
    for test, status, rest in results:
        h.record(f"{name} {test}", status == "ok", rest.strip())
    problems = []
    if not re.search(rf"^{suite}: summary \d+ passed, 0 failed", out, re.M):
        problems.append("no clean summary line" + (" (timeout)" if q.timed_out else ""))
    if len(results) < min_tests:
        problems.append(f"only {len(results)} tests reported")
    problems += [f"no line /{p}/" for p in patterns if not re.search(p, out, re.M)]
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    h.record(f"{name} run, power off", not problems, "; ".join(problems))
    return out


def guest_suite(h, suite, label, cpus, min_tests, append="", timeout=240):
    """Boot with init=/bin/SUITE; one result per test, then one for the run as a whole."""
    name = f"{suite}[{label}]"
    if not h.wanted(name):
        return None
    q = h.Qemu(f"{suite}-{label}", append=f"init=/bin/{suite} {append}".strip(), cpus=cpus,
               timeout=timeout)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    results = suite_lines(suite).findall(out)
    for test, status, rest in results:
        h.record(f"{name} {test}", status == "ok", rest.strip())
    problems = []
    if not re.search(rf"^{suite}: summary \d+ passed, 0 failed$", out, re.M):
        problems.append("no clean summary line" + (" (timeout)" if q.timed_out else ""))
    if len(results) < min_tests:
        problems.append(f"only {len(results)} tests reported")
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    h.record(f"{name} run, power off", not problems, "; ".join(problems))
    return out


def on_linux(h, suite, min_tests):
    """The same program built with gcc -m32 -static must pass on Linux (tools/test/linuxref.py): its
    expectations are Linux's. What a place cannot show (a chroot's /proc, a bare /dev) is a SKIP, with why."""
    import linuxref
    linuxref.check(h, f"linux: {suite} (gcc -m32 -static)", suite, linuxref.suite_judge(h, suite, min_tests))


# ---- a shell session at the console ---------------------------------------------------------------

PROMPT = re.compile(r"^\$ $", re.M)


class Session:
    """A shell on the serial console: type a line, collect what comes back up to the next prompt."""

    def __init__(self, h, name, cpus=2, timeout=120, append="", kernel=None, initrd=None, boot_timeout=60):
        self.h = h
        self.q = h.Qemu(name, cpus=cpus, timeout=timeout, append=append, kernel=kernel, initrd=initrd)
        self.ok = self.q.expect(r"^\$ ", timeout=boot_timeout) is not None

    def wait_for(self, rx, start, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = rx.search(self.q.output, start)
            if m:
                return m
            if self.q._read_some(min(0.3, max(0.01, end - time.monotonic()))) is None:
                return rx.search(self.q.output, start)
        return None

    def run(self, line, timeout=20):
        """Type line and Enter; the output between the echoed line and the next prompt, or None."""
        if not self.ok:
            return None
        start = len(self.q.output)
        self.q.send(line + "\r")
        echo = self.wait_for(re.compile(re.escape(line) + r"\n"), start, timeout)
        if not echo:
            return None
        m = self.wait_for(PROMPT, echo.end(), timeout)
        if not m:
            return None
        return self.q.output[echo.end():m.start()]

    def power_off(self):
        """Type poweroff and wait for QEMU to end: what went wrong (its exit status, a kernel report), or []."""
        self.q.send("poweroff\r")
        self.q.wait_exit()
        problems = []
        if self.q.exit_code != 0:
            problems.append(f"QEMU exit status {self.q.exit_code}")
        if self.h.bad_lines(self.q.output):
            problems.append("kernel reported: " + self.h.bad_lines(self.q.output)[0])
        return problems


def check(h, name, out, pattern, exact=False):
    if out is None:
        h.record(name, False, "no prompt came back")
        return
    ok = out == pattern if exact else re.search(pattern, out, re.M) is not None
    h.record(name, ok, f"got {out!r}")
