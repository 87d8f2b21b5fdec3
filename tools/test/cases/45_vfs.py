"""The VFS: vfstest at 1 and 4 CPUs (and on the Linux reference), a boot from a hand-made initrd, a bad one."""
import os
import re
import shutil
import subprocess
import time

import linuxref

VFSTEST_LINE = re.compile(r"^vfstest: (\S+) (ok|FAIL)(.*)$", re.M)
INIT_EXIT = r"init \(pid \d+\) exited with status 0x([0-9a-f]+)"


def vfstest(h, label, cpus, timeout=240):
    """Boot with init=/bin/vfstest; one result per group, plus the run as a whole."""
    name = f"vfs[{label}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"vfs-{label}", append="init=/bin/vfstest", cpus=cpus, timeout=timeout)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    results = VFSTEST_LINE.findall(out)
    seen = {}
    for group, status, rest in results:
        # The suite runs twice (the second run is the one the leak check measures): keep the worse.
        if seen.get(group) != "FAIL":
            seen[group] = status
        if status == "FAIL":
            h.record(f"{name} {group}", False, rest.strip())
    for group, status in seen.items():
        if status == "ok":
            h.record(f"{name} {group}", True)
    problems = []
    if len(seen) < 25:
        problems.append(f"only {len(seen)} groups reported" + (" (timeout)" if q.timed_out else ""))
    if "no-leaks" not in seen:
        problems.append("no leak check")
    if not re.search(r"^vfstest: done, status 0$", out, re.M):
        problems.append("no 'done, status 0' line")
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    h.record(f"{name} run, leak check, power off", not problems, "; ".join(problems))


def vfstest_on_linux(h):
    """The same program built for Linux (gcc -m32 -static) must pass there: its expectations are Linux's."""
    linuxref.check(h, "linux: vfstest (gcc -m32 -static)", "vfstest",
                   linuxref.suite_judge(h, "vfstest", 25, must_see=[r"^vfstest: done, status 0$"]))


def make_initrd(h, root):
    """A user's own initrd, made the way the README says: find . | cpio -o -H newc."""
    if os.path.exists(root):
        shutil.rmtree(root)
    for d in ("bin", "etc", "lnk", "nodes", "private", "sbin"):
        os.makedirs(os.path.join(root, d))
    shutil.copy(os.path.join(h.BUILD, "initrd", "bin", "vfstest"), os.path.join(root, "bin", "vfstest"))
    with open(os.path.join(root, "etc", "hello"), "w") as f:
        f.write("hello from a hand-made initrd\n")
    os.chmod(os.path.join(root, "etc", "hello"), 0o640)
    os.link(os.path.join(root, "etc", "hello"), os.path.join(root, "private", "hello-too"))  # a hard link
    os.symlink("../etc/hello", os.path.join(root, "lnk", "tohello"))
    os.chmod(os.path.join(root, "private"), 0o700)
    with open(os.path.join(root, "sbin", "check"), "w") as f:
        f.write("#!/bin/vfstest --initrd-check\n")
    os.chmod(os.path.join(root, "sbin", "check"), 0o755)
    node = os.path.join(root, "nodes", "console")
    os.mknod(node, 0o020620, os.makedev(5, 1))
    os.chmod(node, 0o620)
    out = os.path.join(os.path.dirname(root), os.path.basename(root) + ".cpio")
    with open(out, "wb") as f:
        subprocess.run("find . | cpio --quiet -o -H newc", shell=True, cwd=root, stdout=f, check=True)
    return out


def hand_made_initrd(h):
    name = "vfs[hand-made initrd: file, dir, symlink, hard link, device node, modes; #! init]"
    bad = "vfs[truncated initrd: a clear message, the good entries kept]"
    if not h.wanted(name) and not h.wanted(bad):
        return
    if os.geteuid() != 0:
        h.skip(name, "mknod for the device node needs root")
        return
    archive = make_initrd(h, os.path.join(h.BUILD, "test-initrd"))
    if h.wanted(name):
        q = h.Qemu("vfs-handmade-initrd", append="init=/sbin/check", cpus=2, timeout=60, initrd=archive)
        q.expect(INIT_EXIT)
        q.wait_exit()
        out = q.output
        problems = []
        for p in (r"^initrd: \d+ entries unpacked into /$", r"^vfstest: initrd-check ok$",
                  r"^vfstest: written through a hand-made device node$"):
            if not re.search(p, out, re.M):
                problems.append(f"no /{p}/")
        problems += [l for l in out.splitlines() if "initrd-check FAIL" in l]
        m = re.search(INIT_EXIT, out, re.M)
        if not m or int(m.group(1), 16) != 0:
            problems.append("init did not exit with status 0")
        if h.bad_lines(out):
            problems.append("kernel reported: " + h.bad_lines(out)[0])
        h.record(name, not problems, "; ".join(problems))
    if h.wanted(bad):
        data = open(archive, "rb").read()
        cut = os.path.join(h.BUILD, "test-initrd-truncated.cpio")
        with open(cut, "wb") as f:
            f.write(data[: len(data) * 2 // 3])
        q = h.Qemu("vfs-truncated-initrd", append="init=/bin/vfstest", cpus=1, timeout=60, initrd=cut)
        q.expect(r"^init: |^smpix: boot done")
        q.kill()
        out = q.output
        problems = []
        m = re.search(r"^initrd: bad archive \(module 0\): (.*); keeping the (\d+) entries before it$", out, re.M)
        if not m:
            problems.append("no 'initrd: bad archive' line")
        elif int(m.group(2)) < 3:
            problems.append(f"only {m.group(2)} entries kept")
        if h.bad_lines(out):
            problems.append("kernel reported: " + h.bad_lines(out)[0])
        h.record(bad, not problems, "; ".join(problems))




def console_read(h):
    """/dev/console as init's fd 0: EAGAIN when non-blocking and empty; a blocking read sleeps for a line."""
    name = "vfs[/dev/console: init's stdin, reader sleeps for typed input]"
    if not h.wanted(name):
        return
    q = h.Qemu("vfs-console-read", append="init=/bin/readconsole", cpus=2, timeout=60)
    ok = q.expect(r"^vfstest: console waiting for a line$") is not None
    if ok:
        time.sleep(1)                   # let the reader go to sleep first
        q.send("typed on the serial line\r")
        ok = q.expect(r"^vfstest: console read 'typed on the serial line' \(25 bytes\)$", timeout=20) is not None
    q.expect(INIT_EXIT, timeout=10)
    q.kill()
    m = re.search(INIT_EXIT, q.output, re.M)
    problems = [] if ok else ["the typed line did not come back from read()"]
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    if h.bad_lines(q.output):
        problems.append("kernel reported: " + h.bad_lines(q.output)[0])
    h.record(name, not problems, "; ".join(problems))


COMPAT_FILES = [r"^files: stdio wrote and read back: line 2 of 3$", r"^files: stat says 36 bytes, mode 644$",
                r"^files: the directory lists 4 names; soft -> renamed\.txt$",
                r"^files: a dup shares the position: byte 5 is '1'; all ok$"]


def compat_files(h):
    """A glibc program (gcc -m32 -static) using files: the same lines on smpix as on the Linux reference."""
    def judge(label, out, exit_ok):
        missing = [p for p in COMPAT_FILES if not re.search(p, out, re.M)]
        problems = [f"no line /{p}/" for p in missing[:1]] + ([] if exit_ok else ["did not exit with status 0"])
        return problems + [l for l in out.splitlines() if "files: FAIL" in l][:1]

    linuxref.check(h, "vfs[glibc program with files: compat-files on Linux]", "compat-files",
                   lambda label, r: judge(label, r.out, r.status == 0))
    name = "vfs[glibc program with files: compat-files on smpix]"
    if not h.wanted(name):
        return
    q = h.Qemu("vfs-compat-files", append="init=/bin/compat-files", cpus=2, timeout=90)
    q.expect(INIT_EXIT)
    q.wait_exit()
    m = re.search(INIT_EXIT, q.output, re.M)
    exit_ok = bool(m) and int(m.group(1), 16) == 0 and not h.bad_lines(q.output)
    problems = judge(name, q.output, exit_ok)
    h.record(name, not problems, "; ".join(problems))


def run(h):
    vfstest_on_linux(h)
    vfstest(h, "smp4", cpus=4)
    vfstest(h, "smp1", cpus=1)
    hand_made_initrd(h)
    console_read(h)
    compat_files(h)
