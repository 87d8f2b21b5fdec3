"""The suites with their files on ext2 (issue 32, docs/block.md): one boot at 2 CPUs with a fresh image
as hda; at the shell, /dev/hda1 (which init mounted on /mnt) is mounted on /tmp instead, where the shell's
scripts (user/root/tests/sh/), pipetest (its FIFOs) and usertests (/tmp/usertests) keep their files, and
each runs with /tmp as its working directory. The results must be those on ramfs: every script's output
the same as dash's (tools/test/cases/52_shell_scripts.py), every pipetest and usertests test passing, as
many as their sources declare. Then two readers on the two CPUs with lock_stat on: the block layer's
queue lock and the buffer cache's lock counted in /proc/lock_stat; umount, power off, and e2fsck -fn
clean on the host. About 30 s."""
import importlib
import os
import re
import tempfile
import time

from testlib import Session

ext2 = importlib.import_module("57_ext2")
shell_scripts = importlib.import_module("52_shell_scripts")
LOCK_STAT_LINE = importlib.import_module("49_trace").LOCK_STAT_LINE

NAME = "ext2-suites[smp2]"
USERTESTS_LINE = re.compile(r"^usertests: (\S+) (ok|FAIL)(.*)$", re.M)
USERTESTS_SUMMARY = re.compile(r"^usertests: (\d+) passed, (\d+) failed$", re.M)
# The classes the disk's paths take, by a part of their names: fs/buffer.c's (its bucket locks,
# &bcache_buckets[i].lock; in lab 9's handout one bcache_lock) and drivers/block/blk_queue.c's own lock
# of each queue (era 2.6, smpix's default, a class named after the expression).
DISK_LOCKS = ("bcache", "&q->own_lock")


class DiskSession(Session):
    """testlib.Session with disk images attached."""

    def __init__(self, h, name, disks, cpus=2, timeout=300, append=""):
        self.h = h
        self.q = h.Qemu(name, cpus=cpus, timeout=timeout, append=append, disks=disks)
        self.ok = self.q.expect(r"^\$ ", timeout=60) is not None


def declared(h, source, pattern):
    """The test names a suite's source declares, in order."""
    with open(os.path.join(h.ROOT, source)) as f:
        return re.findall(pattern, f.read())


def mount_tmp(h, s):
    out = s.run("umount /mnt && mount -t ext2 /dev/hda1 /tmp && cd /tmp && mount | grep ' /tmp ' && pwd")
    ok = out is not None and re.search(r"^/dev/hda1 /tmp ext2 rw", out, re.M) and out.endswith("/tmp\n")
    h.record(f"{NAME} /dev/hda1 mounted on /tmp, the working directory", bool(ok), f"got {out!r}")
    return bool(ok)


def shell_scripts_on_ext2(h, s):
    """Each script against dash, as 52_shell_scripts.py runs them but from /tmp on ext2."""
    folder = os.path.join(h.ROOT, shell_scripts.SCRIPTS)
    names = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".sh"))
    with tempfile.TemporaryDirectory() as cwd:
        for n in names:
            want = shell_scripts.host_output(os.path.join(folder, n + ".sh"), cwd)
            got = s.run(f"SH=sh sh /tests/sh/{n}.sh 2>/dev/null; echo \"[status=$?]\"", timeout=60)
            h.record(f"{NAME} sh-vs-dash[{n}]", got == want,
                     "no prompt came back" if got is None else shell_scripts.difference(want, got))


def pipetest_on_ext2(h, s):
    tests = declared(h, "user/tests/pipetest.c", r'gt_run\("(\w+)"')
    out = s.run("pipetest", timeout=120)
    if out is None:
        h.record(f"{NAME} pipetest", False, "no prompt after pipetest (timeout?)")
        return
    results = {t: (status, rest.strip()) for t, status, rest in re.findall(r"^pipetest: (\S+) (ok|FAIL)(.*)$",
                                                                            out, re.M)}
    for t in tests:
        status, rest = results.get(t, ("missing", ""))
        h.record(f"{NAME} pipetest {t}", status == "ok", rest or status)
    clean = re.search(rf"^pipetest: summary {len(tests)} passed, 0 failed$", out, re.M)
    h.record(f"{NAME} pipetest summary: all {len(tests)} passed", bool(clean),
             " | ".join(re.findall(r"^pipetest: summary.*$", out, re.M)) or "no summary")


def usertests_on_ext2(h, s):
    """Every test named, so one pass: usertests' free-page check (runs until one ends with the pages it
    began with) counts the buffer cache's growth here, up to its 8 MiB, and needs 5 runs. The leak check
    on ext2 is ext2test's vfstest_on_ext2_no_leaks (57_ext2.py), which compares across a umount."""
    tests = declared(h, "user/tests/usertests.c", r'\{ "(\w+)", t_\w+ \}')
    out = s.run("usertests " + " ".join(tests), timeout=120)
    if out is None:
        h.record(f"{NAME} usertests", False, "no prompt after usertests (timeout?)")
        return
    results = {t: (status, rest.strip()) for t, status, rest in USERTESTS_LINE.findall(out)}
    for t in tests:
        status, rest = results.get(t, ("missing", ""))
        h.record(f"{NAME} usertests {t}", status == "ok", rest or status)
    m = USERTESTS_SUMMARY.search(out)
    h.record(f"{NAME} usertests summary: all {len(tests)} passed",
             m is not None and m.groups() == (str(len(tests)), "0"), m.group(0) if m else "no summary")


def lock_stat_after_readers(h, s):
    """Two files written, the disk umounted and mounted again (its blocks leave the buffer cache), then two
    readers at once, one per CPU, each reading its file four times: first from the disk (the queue's lock),
    then from the cache, every block a lookup under its bucket's lock. Both must be counted in
    /proc/lock_stat, in Linux's columns (the contentions are only reported: thousands on lab 9's
    handout's one bcache_lock, a few on the buckets; the queue's lock from 0 to a few dozen)."""
    s.run("for i in 1 2 3 4 5 6 7 8; do cat /bin/vfstest; done > /tmp/r1; cp /tmp/r1 /tmp/r2; cd /; "
          "umount /tmp; mount -t ext2 /dev/hda1 /tmp; cd /tmp", timeout=60)
    out = s.run("echo 1 > /proc/sys/kernel/lock_stat; echo 0 > /proc/lock_stat; "
                "for i in 1 2 3 4; do cat r1; done > /dev/null & for i in 1 2 3 4; do cat r2; done > /dev/null; wait; "
                "echo 0 > /proc/sys/kernel/lock_stat; rm r1 r2; cat /proc/lock_stat", timeout=60) or ""
    classes = {m.group(1): [float(x) for x in m.groups()[1:]] for m in LOCK_STAT_LINE.finditer(out)}
    problems = []
    for lock in DISK_LOCKS:
        c = next((v for name, v in classes.items() if lock in name), None)
        if not c:
            problems.append(f"no {lock} line")
            continue
        con_bounces, contentions, acquisitions = c[0], c[1], c[7]
        print(f"  {lock}: {acquisitions:.0f} acquisitions, {contentions:.0f} contentions")
        if acquisitions == 0:
            problems.append(f"{lock}: 0 acquisitions")
        if not con_bounces <= contentions <= acquisitions:
            problems.append(f"{lock}: con-bounces {con_bounces}, contentions {contentions}, "
                            f"acquisitions {acquisitions} do not add up")
    h.record(f"{NAME} lock_stat: the buffer cache's and the queue's locks counted after two readers",
             not problems, "; ".join(problems))


def run(h):
    if not h.wanted(NAME):
        return
    if not ext2.tool("e2fsck"):
        h.skip(NAME, "no e2fsprogs (mke2fs, e2fsck): tools/build/deps.sh")
        return
    img = ext2.make_image(h, "suites", marker="SUITES", mib=32)
    s = DiskSession(h, "ext2-suites", disks=[img])
    if not s.ok or not mount_tmp(h, s):
        h.record(f"{NAME} boot to a shell, mount", False, "no prompt" if not s.ok else "mount failed")
        s.q.kill()
        return
    for phase in (shell_scripts_on_ext2, pipetest_on_ext2, usertests_on_ext2, lock_stat_after_readers):
        start = time.monotonic()
        phase(h, s)
        print(f"  ({phase.__name__}: {time.monotonic() - start:.0f} s)")
    out = s.run("cd /; umount /tmp; echo \"umount: $?\"; ls /tmp | wc -l")
    h.record(f"{NAME} umount /tmp, the ramfs /tmp empty below",
             out is not None and out.split() == ["umount:", "0", "0"],
             f"got {out!r}")
    problems = s.power_off()
    h.record(f"{NAME} power off", not problems, "; ".join(problems))
    ext2.fsck_clean(h, f"{NAME} e2fsck -fn clean after the suites (host)", img)
