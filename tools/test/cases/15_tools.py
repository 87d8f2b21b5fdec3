"""Developer tooling: make qemu / qemu-iso as users run them, gdb, compile_commands.json, deps.

Every process started here runs in its own session with a hard timeout and is killed
(its whole process group: make and the QEMU it started) whatever happens.
"""
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from testlib import ROOT, clean_env, log, kill_group, run_cmd, PtyRun, free_port, listening, qemu_halted_with_stub, gdb_mirror, gdb_batch, gdb_check  # noqa: F401


# ---------------------------------------------------------------------------


def check_gdb_batch(h):
    """gdb in batch mode with the repo's .gdbinit: break kmain, source lines, 2 vCPUs, bt, helper."""
    name = "tools[gdb .gdbinit: kmain, source, threads, bt, smpix-cpus]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    rc, out = gdb_batch(h, "gdb-batch", 2, ["break kmain", "continue", "info line", "list kmain",
                                            "info threads", "bt", "break acpi_init", "continue",
                                            "smpix-cpus -v", "kill"])
    want = {
        ".gdbinit ran to the end (connected)": r"^smpix: connected",
        "stopped at kmain in kernel/main.c": r"Breakpoint 1, kmain \([^)]*\)\s+at kernel/main\.c:\d+",
        "info line names kernel/main.c": r'Line \d+ of "kernel/main\.c"',
        "list shows kmain's source": r"^\d+\s+void kmain\(",
        "bt: kmain called from boot_high": r"#0\s+kmain \([^)]*\)[^#]*\n#1\s+0x[0-9a-f]+ in boot_high",
        "smpix-cpus -v (the old name of smpix cpus) prints cpu 0's self pointer": r"^cpu 0: self=0xc0[0-9a-f]+ id=0",
    }
    threads = re.findall(r"Thread 1\.\d+ \(CPU#(\d+)", out)
    extra = []
    if sorted(set(threads)) != ["0", "1"]:
        extra.append(f"info threads should show 2 vCPU threads (-smp 2), saw CPUs {threads}")
    gdb_check(h, name, "gdb-batch", rc, out, want, extra)


def check_gdb_bkl(h):
    """smpix-bkl (the old name of smpix bkl) names the BKL's owner and depth while a ktest holds it
    three deep; tools/test/cases/16_gdb.py checks the smpix commands at -smp 4."""
    name = "tools[gdb smpix-bkl: owner and depth]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    rc, out = gdb_batch(h, "gdb-bkl", 2, ["break bkl_get_state", "continue", "smpix-bkl", "kill"],
                        append="test=bkl_nests_three_deep", timeout=90)
    want = {
        "owner is the boot thread at depth 2": r"^BKL held by pid \d+ \(boot\) on CPU \d+, lock_depth 2",
        "the test's site is listed": r"kernel/tests/bkl_test\.c:\d+ ktest_fn_bkl_nests_three_deep: 1 acquired",
    }
    gdb_check(h, name, "gdb-bkl", rc, out, want)


def check_make_gdb(h):
    """`make gdb` as typed in a fresh shell, with no build/gdb-target.gdb yet."""
    name = "tools[make gdb: fresh shell, no gdb-target.gdb]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    port = free_port()
    d = gdb_mirror(target_port=None)
    q = qemu_halted_with_stub(h, "tools-make-gdb", 1, port)
    try:
        rc, out = run_cmd(["make", "gdb", f"GDBPORT={port}"], cwd=d,
                      stdin_text="break kmain\ncontinue\ninfo line\nkill\nquit\n", timeout=60)
        try:
            target = open(os.path.join(d, "build", "gdb-target.gdb")).read()
        except OSError:
            target = ""
    finally:
        q.kill()
        shutil.rmtree(d, ignore_errors=True)
    log(h, "make-gdb", out)
    problems = []
    if target.strip() != f"target remote localhost:{port}":
        problems.append(f"build/gdb-target.gdb not written for port {port}: {target!r}")
    if not re.search(r"Breakpoint 1, kmain \([^)]*\)\s+at kernel/main\.c:\d+", out):
        problems.append("gdb did not stop at kmain in kernel/main.c")
    if rc != 0:
        problems.append(f"make gdb exit status {rc}")
    h.record(name, not problems, "; ".join(problems))


def check_qemu_gdb_pair(h):
    """The documented pair, in the tree: `make qemu-gdb` on a terminal, then a plain `make gdb`
    that finds the port in build/gdb-target.gdb (whose previous content is put back)."""
    name = "tools[make qemu-gdb + make gdb: the two-terminal flow]"
    if not h.wanted(name):
        return
    if not shutil.which("gdb"):
        return h.skip(name, "gdb is not installed")
    target = os.path.join(ROOT, "build", "gdb-target.gdb")
    saved = open(target).read() if os.path.exists(target) else None
    port = free_port()
    p = PtyRun(["make", "qemu-gdb", f"GDBPORT={port}"], timeout=120)
    problems = []
    out = ""
    try:
        if not p.expect(r"QEMU is halted, waiting for gdb on port %d" % port):
            problems.append("make qemu-gdb did not announce the port")
        else:
            end = time.monotonic() + 20
            while not listening(port) and time.monotonic() < end and p.proc.poll() is None:
                time.sleep(0.1)
            rc, out = run_cmd(["make", "gdb"], timeout=60,
                              stdin_text="break kmain\ncontinue\ninfo threads\nkill\nquit\n")
            if not re.search(r"Breakpoint 1, kmain \([^)]*\)\s+at kernel/main\.c:\d+", out):
                problems.append("gdb did not stop at kmain in kernel/main.c")
            if len(re.findall(r"Thread 1\.\d+ \(CPU#", out)) != 2:
                problems.append("info threads did not list 2 vCPUs (CPUS=2)")
            if rc != 0:
                problems.append(f"make gdb exit status {rc}")
            if p.wait(15) is None:
                problems.append("QEMU did not exit after gdb's kill")
    finally:
        p.kill()
        if saved is None:
            if os.path.exists(target):
                os.unlink(target)
        else:
            with open(target, "w") as f:
                f.write(saved)
    log(h, "qemu-gdb-pair", p.output + "\n---- make gdb\n" + out)
    h.record(name, not problems, "; ".join(problems))


def check_make_qemu(h):
    name = "tools[make qemu APPEND=test=all CPUS=1 on a terminal]"
    if not h.wanted(name):
        return
    p = PtyRun(["make", "qemu", "APPEND=test=all", "CPUS=1"], timeout=180)
    try:
        p.expect(r"^ktest: summary")
        rc = p.wait(30)
    finally:
        p.kill()
    log(h, "make-qemu", p.output)
    out = p.output
    problems = []
    if not re.search(r"smpix \d+\.\d+: a teaching", out):
        problems.append("no banner")
    m = re.search(r"^ktest: summary (\d+) passed, (\d+) failed", out, re.M)
    if not m:
        problems.append("no ktest summary")
    elif m.group(2) != "0" or m.group(1) == "0":
        problems.append(m.group(0))
    if rc != 0:
        problems.append(f"make qemu exit status {rc} (test= powers off, QEMU should exit 0)")
    # SeaBIOS turns line wrap off (ESC [?7l); the kernel turns it on before its banner, and
    # make qemu again once QEMU has gone, so the user's shell is left wrapping.
    off, on = out.rfind("\x1b[?7l"), out.find("\x1b[?7h")
    if on < 0 or (off > on) or on > out.find("smpix "):
        problems.append("the kernel's console did not turn line wrap back on (ESC [?7h) before its banner")
    if not out.rstrip("\r\n").endswith("\x1b[?7h"):
        problems.append("make qemu did not turn line wrap back on (ESC [?7h) after QEMU ended")
    h.record(name, not problems, "; ".join(problems))


def check_make_qemu_iso(h):
    name = "tools[make qemu-iso on a terminal: GRUB, banner, Ctrl-A X quits]"
    if not h.wanted(name):
        return
    if not shutil.which("grub-mkrescue"):
        return h.skip(name, "grub-mkrescue is not installed")
    p = PtyRun(["make", "qemu-iso"], timeout=180)
    problems = []
    try:
        if not p.expect(r"GNU GRUB"):
            problems.append("no GRUB menu on the serial console")
        elif not p.expect(r"smpix \d+\.\d+: a teaching"):
            problems.append("no kernel banner after the GRUB menu")
        else:
            p.expect(r"the system is idle")
            p.send(b"\x01x")                     # Ctrl-A X, as the banner and README say
            if p.wait(15) is None:
                problems.append("Ctrl-A X did not quit QEMU")
    finally:
        p.kill()
    log(h, "make-qemu-iso", p.output)
    h.record(name, not problems, "; ".join(problems))


def check_compile_commands(h):
    name = "tools[make compile_commands.json]"
    if not h.wanted(name):
        return
    kernel = os.path.join(ROOT, "build", "kernel.elf")
    before = os.stat(kernel).st_mtime_ns if os.path.exists(kernel) else None
    rc, out = run_cmd(["make", "compile_commands.json"], timeout=300)
    log(h, "compile-commands", out)
    problems = []
    if rc != 0:
        problems.append(f"make exit status {rc}")
    try:
        import json
        db = json.load(open(os.path.join(ROOT, "compile_commands.json")))
    except (OSError, ValueError) as e:
        db = []
        problems.append(f"no readable compile_commands.json: {e}")
    first = {}
    for e in db:
        first.setdefault(os.path.relpath(os.path.join(e["directory"], e["file"]), ROOT), e)
    import glob
    sources = sorted(f for pat in ("kernel/*.c", "kernel/x86/*.c", "kernel/mm/*.c", "kernel/lib/*.c", "kernel/tests/*.c", "drivers/*.c", "fs/*.c")
                     for f in glob.glob(pat, root_dir=ROOT))
    missing = [f for f in sources if f not in first]
    if missing:
        problems.append("missing: " + " ".join(missing))
    # Host tests compile some kernel files again (-DHOST_TEST); clangd uses the first entry.
    hosty = [f for f in sources if f in first and
             "-ffreestanding" not in (first[f].get("arguments") or first[f].get("command", "").split())]
    if hosty:
        problems.append("first entry without the kernel flags (-ffreestanding): " + " ".join(hosty))
    after = os.stat(kernel).st_mtime_ns if os.path.exists(kernel) else None
    if before is not None and before != after:
        problems.append("build/kernel.elf was rebuilt or removed: it must leave build/ alone")
    h.record(name, not problems, "; ".join(problems))


SHIM = """#!/bin/sh
# dpkg-query stand-in for the tests: every package is installed but those in $SHIM_MISSING.
for a; do p=$a; done
case " $SHIM_MISSING " in *" $p "*) echo "dpkg-query: no packages found matching $p" >&2; exit 1;; esac
printf 'install ok installed'
"""
TRAP = """#!/bin/sh
# must never run in a dry run
echo "$0 $*" >> "$SHIM_CALLED"
exit 1
"""


def shim_dir():
    d = tempfile.mkdtemp(prefix="smpix-deps-")
    os.chmod(d, 0o755)
    for name, text in (("dpkg-query", SHIM), ("apt-get", TRAP), ("sudo", TRAP)):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        os.chmod(os.path.join(d, name), 0o755)
    calls = os.path.join(d, "called")
    open(calls, "w").close()
    os.chmod(calls, 0o666)
    return d, calls


def check_deps(h):
    name = "tools[deps.sh DEPS_DRY_RUN: detection, command, installs nothing]"
    if not h.wanted(name):
        return
    d, calls = shim_dir()
    try:
        env = clean_env(PATH=d + ":" + os.environ["PATH"], SHIM_CALLED=calls, DEPS_DRY_RUN="1")
        rc1, out1 = run_cmd(["tools/build/deps.sh"], env=dict(env, SHIM_MISSING=""), timeout=30)
        rc2, out2 = run_cmd(["tools/build/deps.sh"], env=dict(env, SHIM_MISSING="mtools gdb"), timeout=30)
        called = open(calls).read()
    finally:
        shutil.rmtree(d, ignore_errors=True)
    log(h, "deps", out1 + "\n----\n" + out2)
    problems = []
    if rc1 != 0 or "deps: all packages present" not in out1:
        problems.append(f"all present: rc {rc1}, {out1.strip()!r}")
    if rc2 != 0 or "deps: missing: mtools gdb" not in out2 \
            or "apt-get install -y -q --no-install-recommends mtools gdb" not in out2:
        problems.append(f"mtools, gdb missing: rc {rc2}, {out2.strip()!r}")
    if called:
        problems.append("a dry run called: " + called.strip())
    h.record(name, not problems, "; ".join(problems))


def check_need(h):
    """make qemu / make test stop on a missing tool after running deps.sh (dry run: as root)."""
    name = "tools[need.sh: make qemu and make test stop on a missing tool]"
    if not h.wanted(name):
        return
    problems = []
    for target, var, tool, never in (
            ("qemu", "QEMU", "smpix-no-such-qemu", "smpix-no-such-qemu -machine"),
            ("test", "PYTHON", "smpix-no-such-python", "smpix-no-such-python tools/test/harness.py")):
        rc, out = run_cmd(["make", target, f"{var}={tool}"], env=clean_env(DEPS_DRY_RUN="1"), timeout=300)
        log(h, "need-" + target, out)
        if rc in (0, None):
            problems.append(f"make {target}: exit status {rc}")
        if os.geteuid() == 0 and not re.search(r"need: running tools/build/deps.sh[\s\S]*still not found", out):
            problems.append(f"make {target}: as root, deps.sh was not run, or need.sh went on")
        if never in out:
            problems.append(f"make {target} went on without {tool}")
    h.record(name, not problems, "; ".join(problems))

    name = "tools[need.sh as a normal user: prints the command]"
    if not h.wanted(name):
        return
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        return h.skip(name, "needs root and setpriv to switch to user nobody")
    d, calls = shim_dir()
    try:
        env = clean_env(PATH=d + ":" + os.environ["PATH"], SHIM_CALLED=calls, SHIM_MISSING="gdb")
        rc, out = run_cmd(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                       "tools/build/need.sh", "sh", "smpix-no-such-tool"], env=env, timeout=30)
        called = open(calls).read()
    finally:
        shutil.rmtree(d, ignore_errors=True)
    log(h, "need-user", out)
    problems = []
    if rc != 1:
        problems.append(f"exit status {rc}")
    for p in ("need: smpix-no-such-tool not found", "sudo make deps",
              "apt-get install -y -q --no-install-recommends gdb"):
        if p not in out:
            problems.append(f"no {p!r}")
    if called:
        problems.append("it ran: " + called.strip())
    h.record(name, not problems, "; ".join(problems) + f" [{out.strip()!r}]" if problems else "")


def run(h):
    check_gdb_batch(h)
    check_gdb_bkl(h)
    check_make_gdb(h)
    check_qemu_gdb_pair(h)
    check_make_qemu(h)
    check_make_qemu_iso(h)
    check_compile_commands(h)
    check_deps(h)
    check_need(h)
