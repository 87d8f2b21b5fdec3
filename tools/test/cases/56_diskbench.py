"""make bench's disk benchmark as a smoke test (issue 32): `sysbench disk` (user/bench/diskbench.c), the
binary make bench and make bench-linux boot, run at the shell with tiny sizes on two IDE disks (hda on
channel 0, hdc on channel 1) at -smp 2, once per era of the block lock. It must print every figure,
positive, with its data read back as written, and /proc/lock_stat and bklstat must show the era's lock
doing the work: the BKL at blk_path_enter and io_request_lock under blk_lock=bkl, io_request_lock alone
under global, the per-queue locks (lock_stat's class &q->own_lock, drivers/block/blk_queue.c) alone under
queue; and /proc/ide that both disks moved their data by bus-master DMA, no request by PIO (the
transfer that lets two disks on two CPUs scale under QEMU, docs/block.md). The same boot has two RAM
disks (rd_nr=2, drivers/block/rd.c): /proc/partitions and the device's size say what rd_size= asked,
and sysbench disk on /dev/ram0 and /dev/ram1 reads back what it wrote, with lock_stat showing the
era's lock as on IDE. Never a timing assertion: the
timings are make bench's (tools/bench/bench_disk.py). Then the same bytes as init on Debian's i386 Linux 6.1
in QEMU, on the same two images, booted as make bench-linux boots them (ata_piix, sd_mod and ext4 loaded
from the kernel's own package; a SKIP that says why where the package cannot be had)."""
import os
import re
import shutil
import subprocess
import sys

from testlib import Session

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
MKDISK = os.path.join(ROOT, "tools", "build", "mkdisk.py")
SIZE = "128k"                   # per disk and run: a few seconds even under the BKL on a loaded host
FIGURE = re.compile(r"^sysbench: (\w+) round=(\d+) ops=(\d+) value=(\d+(?:\.\d+)?)$", re.M)
# /proc/lock_stat's class lines: name, con-bounces, contentions, 4 wait times, acq-bounces, acquisitions.
CLASS = re.compile(r"^\s*(\S.*?):\s+(\d+)\s+(\d+)(?:\s+[\d.]+){4}\s+(\d+)\s+(\d+)\s", re.M)
BKL_SITE = re.compile(r"^\s*(\d+)\s+(\d+)\s+\d+\s+\d+\s+drivers/block/blk_lock\.c:\d+ blk_path_enter$", re.M)
QUEUE_LOCK_CLASS = "&q->own_lock"      # spin_lock_init() names a class by the lock's expression
# /proc/ide (drivers/block/ide.c): drive channel mode dma_requests pio_requests sectors
IDE_LINE = re.compile(r"^(hd[a-d]) (ide[01]) (dma|pio) (\d+) (\d+) (\d+)$", re.M)
MANY = 50                       # acquisitions that show a lock did the work (a 256 KiB run takes hundreds)
RD_KIB = 1024                   # rd_size= of the two RAM disks
RAW_FIGURES = ["raw_write_mbs_d1", "raw_read_mbs_d1", "raw_write_mbs_d2", "raw_read_mbs_d2"]


class DiskSession(Session):
    """testlib's shell session, with the two disks attached."""

    def __init__(self, h, name, disks, append, timeout=120):
        self.h = h
        self.q = h.Qemu(name, cpus=2, timeout=timeout, append=append, disks=disks)
        self.ok = self.q.expect(r"^\$ ", timeout=60) is not None


def make_disks(h):
    """hda: 16 MiB, ext2 (empty) on hda1 when mke2fs is here, hda2 raw; hdc: 16 MiB, the same layout."""
    d = os.path.join(h.BUILD, "disk-tests")
    os.makedirs(os.path.join(d, "diskbench-root"), exist_ok=True)
    env = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
    ext2 = shutil.which("mke2fs", path=env["PATH"]) is not None
    paths = []
    for name in ("hda", "hdc"):
        path = os.path.join(d, f"diskbench-{name}.img")
        args = [sys.executable, MKDISK, path, "16"] + (["--root", os.path.join(d, "diskbench-root")] if ext2 else [])
        subprocess.run(args, check=True, env=env)
        paths.append(path)
    return paths, ext2


def lock_classes(text):
    """{class name: (contentions, acquisitions)} from /proc/lock_stat."""
    return {m.group(1): (int(m.group(3)), int(m.group(5))) for m in CLASS.finditer(text or "")}


def figures_problems(out, want):
    problems = []
    got = {}
    for name, _, ops, value in FIGURE.findall(out or ""):
        got[name] = float(value)
        if float(value) <= 0 or int(ops) <= 0:
            problems.append(f"{name}: ops {ops} value {value}")
    missing = sorted(set(want) - set(got))
    if missing:
        problems.append(f"no {missing}")
    if not re.search(r"^sysbench: done status=0$", out or "", re.M):
        problems.append("no 'done status=0'")
    problems += re.findall(r"^sysbench: error .*$", out or "", re.M)
    return problems


def lock_problems(era, classes, bkl_site):
    """What lock_stat and bklstat should show for this era, and don't."""
    acq = {"io_request_lock": classes.get("io_request_lock", (0, 0))[1],
           "queue_lock": classes.get(QUEUE_LOCK_CLASS, (0, 0))[1]}
    bkl = bkl_site[0] if bkl_site else 0
    want = {"bkl": {"io_request_lock": True, "queue_lock": False, "bkl": True},
            "global": {"io_request_lock": True, "queue_lock": False, "bkl": False},
            "queue": {"io_request_lock": False, "queue_lock": True, "bkl": False}}[era]
    have = dict(acq, bkl=bkl)
    problems = []
    for lock, taken in want.items():
        if taken and have[lock] < MANY:
            problems.append(f"{lock} taken {have[lock]} times, wanted at least {MANY}")
        if not taken and have[lock] != 0:
            problems.append(f"{lock} taken {have[lock]} times, wanted never")
    return problems


def dma_problems(text):
    """What /proc/ide says against: hda and hdc in mode dma, each with DMA requests and no PIO one."""
    lines = {m.group(1): m.groups() for m in IDE_LINE.finditer(text or "")}
    problems = []
    for disk in ("hda", "hdc"):
        got = lines.get(disk)
        if not got:
            problems.append(f"no {disk} line in {text!r}")
        elif got[2] != "dma" or int(got[3]) == 0 or int(got[4]) != 0:
            problems.append(f"{disk}: mode {got[2]}, {got[3]} DMA and {got[4]} PIO requests")
    return problems


def era_locks_problems(s, era):
    """Run lock_stat and bklstat after a run of era: what they should show and don't."""
    stat = s.run("cat /proc/lock_stat", timeout=30)
    bkls = s.run("bklstat", timeout=30)
    site = BKL_SITE.search(bkls or "")
    problems = lock_problems(era, lock_classes(stat), (int(site.group(1)), int(site.group(2))) if site else None)
    if not lock_classes(stat):
        problems.insert(0, "no lock classes in /proc/lock_stat")
    return problems, stat


def sysbench_and_locks(h, prefix, s, era, cmd, want):
    """Run cmd (a sysbench disk run) with fresh lock counts: every figure in want, and the era's lock."""
    s.run("bklstat -r")
    s.run("echo 0 > /proc/lock_stat")
    out = s.run(cmd, timeout=90)
    h.record(f"{prefix} sysbench disk prints every figure, data read back as written",
             out is not None and not figures_problems(out, want),
             "; ".join(figures_problems(out, want)[:4]) if out is not None else "no prompt came back")
    problems, stat = era_locks_problems(s, era)
    h.record(f"{prefix} lock_stat and bklstat show the era's block lock", not problems,
             "; ".join(problems) + f" (lock_stat: {dict((k, v) for k, v in lock_classes(stat).items() if 'lock' in k)})")


def ram_disks(h, name, s, era):
    """The two RAM disks of the same boot: their size (queue only), then the era's lock at work on them."""
    if era == "queue":
        parts = s.run("cat /proc/partitions") or ""
        size = s.run("wc -c /dev/ram1") or ""
        ok = all(re.search(rf"^\s*1\s+{i}\s+{RD_KIB}\s+ram{i}$", parts, re.M) for i in (0, 1))
        h.record(f"{name} RAM disks: /proc/partitions and wc -c say rd_size={RD_KIB}",
                 ok and re.search(rf"^\s*{RD_KIB * 1024}\s+/dev/ram1$", size, re.M) is not None,
                 f"{parts!r} {size!r}")
    sysbench_and_locks(h, f"{name} RAM disks:", s, era, f"sysbench disk -S {SIZE} -r 1 /dev/ram0 /dev/ram1",
                       RAW_FIGURES)


def ram_disk_words(h):
    """Bad rd_nr= and rd_size= words: said so on the console, clamped or refused, never a panic."""
    cases = [("rd_nr=9 rd_size=64", r"^rd: rd_nr=9: at most 4 RAM disks$", ["ram0", "ram1", "ram2", "ram3"]),
             ("rd_nr=1 rd_size=0", r"^rd: rd_size=0 KiB: want 4 to 262144; 8192$", ["ram0"]),
             ("rd_nr=1 rd_size=6", r"^rd: 1 RAM disks of 4 KiB \(/dev/ram0\.\.\)$", ["ram0"]),
             ("rd_nr=2 rd_size=200000", r"^rd: no memory for ram0's 200000 KiB$", [])]
    for words, said, disks in cases:
        name = f"rd[{words}] said so, the disks are {' '.join(disks) or 'none'}, a clean power off"
        if not h.wanted(name):
            continue
        s = DiskSession(h, "rd-" + words.replace(" ", "-"), [], append=words, timeout=60)
        parts = s.run("cat /proc/partitions") or ""
        got = re.findall(r"^\s*1\s+\d+\s+\d+\s+(ram\d)$", parts, re.M)
        problems = ([] if re.search(said, s.q.output, re.M) else [f"no line /{said}/"])
        problems += [] if got == disks else [f"/proc/partitions has {got}"]
        problems += s.power_off()
        h.record(name, not problems, "; ".join(problems))


def one_era(h, era, disks, ext2):
    name = f"diskbench[smp2-{era}]"
    if not h.wanted(name):
        return
    s = DiskSession(h, f"diskbench-{era}", disks, append=f"blk_lock={era} lock_stat=1 rd_nr=2 rd_size={RD_KIB}")
    cmd = f"sysbench disk -S {SIZE} -r 1 /dev/hda2 /dev/hdc2"
    want = list(RAW_FIGURES)
    if ext2 and era == "queue":
        cmd = f"sysbench disk -M /dev/hda1 -D /mnt -s {SIZE} -S {SIZE} -r 1 /dev/hda2 /dev/hdc2"
        want += ["file_write_mbs", "file_read_mbs"]
        s.run("umount /mnt")    # init mounted hda1 there: sysbench mounts it itself (and again, to read)
    sysbench_and_locks(h, name, s, era, cmd, want)
    ide = s.run("cat /proc/ide", timeout=30)
    problems = dma_problems(ide)
    h.record(f"{name} /proc/ide: hda and hdc by DMA, no request by PIO", not problems, "; ".join(problems))
    ram_disks(h, name, s, era)
    problems = s.power_off()
    h.record(f"{name} powers off cleanly", not problems, "; ".join(problems))


def on_linux(h, disks, ext2):
    """The same bytes as init on Debian's Linux 6.1 in QEMU, on the same images, as make bench-linux
    boots them (its modules, its initramfs): every figure, positive, the data read back as written."""
    name = "linux: sysbench disk, every figure, on two IDE disks [linux-686 in QEMU]"
    if not h.wanted(name):
        return
    sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
    import bench_linux as bl
    vmlinuz, what = bl.fetch_kernel()
    modules, why = bl.fetch_disk_modules(vmlinuz) if vmlinuz else (None, what)
    if not modules:
        h.skip(name, why)
        return
    words = bl.disk_words(SIZE, SIZE, modules)
    if not ext2:
        words["linux"] = [w for w in words["linux"] if not w.startswith(("-M", "-D", "-s", "/dev/sda1"))]
    r = bl.boot("linux", 1, 2, 128, "tcg", 1, 120, vmlinuz, bl.disk_initramfs(modules), "disk",
                dict(words, images=disks))
    want = {"raw_write_mbs_d1", "raw_read_mbs_d1", "raw_write_mbs_d2", "raw_read_mbs_d2"}
    want |= {"file_write_mbs", "file_read_mbs"} if ext2 else set()
    problems = list(r["problems"])
    problems += [f"no {f}" for f in sorted(want - set(r["rounds"]))]
    problems += [f"{f} = {v}" for f, vals in r["rounds"].items() for v in vals if v <= 0]
    h.record(name, not problems, "; ".join(problems[:4]))


def run(h):
    eras = ("queue", "global", "bkl")
    linux = "linux: sysbench disk"
    ram_disk_words(h)
    if not any(h.wanted(f"diskbench[smp2-{era}]") for era in eras) and not h.wanted(linux):
        return
    disks, ext2 = make_disks(h)
    for era in eras:
        one_era(h, era, [disks[0], None, disks[1]], ext2)
    on_linux(h, disks, ext2)
