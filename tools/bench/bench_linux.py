#!/usr/bin/env python3
"""make bench-linux: smpix beside Linux 6.1, one binary, the same QEMU, the same run.

/bin/sysbench (user/bench/sysbench.c) is a static i386 program with no C library: raw int $0x80
calls with Linux's numbers. Its very bytes, the stripped copy in smpix's initrd, are booted
  - on smpix as init=/bin/sysbench, and
  - on Debian 12's Linux 6.1 (the i386 package linux-image-686) as /init of a tiny initramfs,
in the same qemu-system-i386 command line (only -kernel, -initrd and -append differ), interleaved:
smpix, Linux, smpix, Linux, ... BOOTS of each at -smp CPUS. Then, the same way, the glibc pthread
program /bin/compat-threadbench (user/compat/threadbench.c): a parallel sum by 1, 2 and 4 threads and
a futex ping-pong between two threads on two CPUs (BENCH_LINUX_THREADS=0 leaves it out). Each boot prints one line per round
of each figure (see sysbench.c); a boot's figure is the median of its rounds, the table's the
median over the boots. Boot to /init is host-measured: from starting QEMU to the first line
sysbench prints, the same moment on both kernels.

The kernel comes from Debian's archive only, with Debian's tools: `apt-get download` of the
package that linux-image-686:i386 depends on, and dpkg-deb to take /boot/vmlinuz-* out of it,
into build/linux/. apt must know i386 packages (`make deps` adds the architecture); if the
package cannot be had, this says why and measures smpix alone.

Writes build/bench/linux.json (every boot, every round), build/bench/linux.md (the table),
build/bench/linux.svg and linux.png (the plot), and puts the table into build/bench/results.md
(make bench's) between two marker lines, when that file exists. --update-docs also copies the
table and the plot into docs/img/.

Then, the same way again, the disks (issue 32): the same /bin/sysbench in its disk mode
(user/bench/diskbench.c) on two IDE disk images, one on each channel, the same images on both kernels
(tools/bench/bench_disk.py makes them): a 64 MiB file on partition 1's ext2 written, fsync()ed, unmounted
and read back, and partition 2 of one disk, then of both at once (a process per disk and CPU), written
and read raw after BLKFLSBUF. On Linux the disks are /dev/sda and /dev/sdb through ata_piix, which
Debian builds as a module: the modules it needs (ata_piix, sd_mod, ext4 and what they depend on, read
from each module's .modinfo) come out of the same kernel package into the initramfs, and sysbench loads
them (finit_module) before it starts (BENCH_LINUX_DISK=0 leaves the disks out). Linux moves the data
by DMA and reads ahead; smpix by PIO, a 1 KiB block at a time: the table shows what that costs.

Environment (make passes them): BENCH_LINUX_BOOTS=3, BENCH_LINUX_CPUS=2, BENCH_LINUX_SCALE=100
(percent of sysbench's usual counts), BENCH_LINUX_TIMEOUT=900 (seconds, each boot), MEM=128,
ACCEL=tcg, BENCH_LINUX_DISK=1, BENCH_LINUX_DISK_FILE_MIB=64, BENCH_LINUX_DISK_MIB=4 (per disk, raw);
BENCH_LINUX_ONLY=PREFIX runs only sysbench's figures whose names start with it (pipe_rtt: the ping-pongs).
BENCH_LINUX_PROGS=LIST boots only the programs named (sysbench, threadbench, disk; comma-separated).
"""
import glob
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test"))
import harness as h  # noqa: E402
from bench import env_int, loadavg  # noqa: E402  (the same helpers as make bench)

OUT = os.path.join(h.BUILD, "bench")
LINUX_DIR = os.path.join(h.BUILD, "linux")
BINARY = os.path.join(h.BUILD, "initrd", "bin", "sysbench")    # what smpix's initrd holds
THREADBENCH = os.path.join(h.BUILD, "initrd", "bin", "compat-threadbench")
# Each program: its path in smpix's initrd (init=), the file on the host, its scale word.
PROGRAMS = {"sysbench": ("/bin/sysbench", BINARY, "sysbench_scale"),
            "threadbench": ("/bin/compat-threadbench", THREADBENCH, "threadbench_scale"),
            "disk": ("/bin/sysbench", BINARY, "sysbench_scale")}
# The disk boots' Linux modules: what these need, loaded after the optional crypto helpers that the
# CRC libraries look for (softdeps: without modprobe nobody would load them).
DISK_MODULES = ("ata_piix", "sd_mod", "ext4")
DISK_SOFT_MODULES = ("crct10dif_generic", "crc64_rocksoft_generic", "crc32c_generic")
METAPACKAGE = "linux-image-686:i386"
LINUX_APPEND = "console=ttyS0 quiet panic=-1"   # Debian's own default has quiet too

# sysbench and threadbench print the same shape of line.
LINE = re.compile(r"^(?:sysbench|threadbench): (\w+) round=(\d+) ops=(\d+) value=(\d+(?:\.\d+)?)$", re.M)
START = re.compile(r"^(?:sysbench|threadbench): start kernel=(\S+) pid=(\d+) cpus=(\d+) scale=(\d+)$", re.M)
DONE = re.compile(r"^(?:sysbench|threadbench): done status=(\d+)$", re.M)
ERROR = re.compile(r"^(?:sysbench|threadbench): error .*$", re.M)
THREAD_COUNTS = (1, 2, 4)       # threadbench's parallel sum
MARK_BEGIN = "<!-- make bench-linux: begin -->"
MARK_END = "<!-- make bench-linux: end -->"


def figures(cpus):
    """(key, label, unit, better): sysbench's rows of the table, in order. better: 'low' or 'high'."""
    rows = [("boot_s", "boot to /init (QEMU start to sysbench's first line)", "s", "low")]
    rows += [(f"getpid_ns@{r}", f"getpid via int $0x80, round {r}", "ns", "low") for r in (1, 2, 3)]
    rows += [(f"fionread_cps_w{w}", f"FIONREAD on a pipe, {w} worker{'s' if w > 1 else ''}", "calls/s", "high")
             for w in range(1, cpus + 1)]
    rows += [(f"fionread_speedup_w{w}", f"FIONREAD speedup, {w} workers / 1", "x", "high")
             for w in range(2, cpus + 1)]
    rows += [(f"fionread_work_cps_w{w}", f"FIONREAD + user work, {w} worker{'s' if w > 1 else ''}", "calls/s", "high")
             for w in range(1, cpus + 1)]
    rows += [(f"fionread_work_speedup_w{w}", f"FIONREAD + user work, speedup {w} workers / 1", "x", "high")
             for w in range(2, cpus + 1)]
    rows += [("pipe_rtt_same_us", "pipe ping-pong, both on one CPU", "us/round trip", "low")]
    if cpus > 1:
        rows += [("pipe_rtt_cross_us", "pipe ping-pong, across two CPUs", "us/round trip", "low")]
    rows += [("fork_exit_wait_us", "fork + exit + wait", "us", "low"),
             ("fork_exec_exit_us", "fork + exec + exit", "us", "low")]
    return rows


def all_figures(cpus):
    """Every row of the table: sysbench's, then threadbench's, then the disks'."""
    return figures(cpus) + threadbench_figures(cpus) + disk_figures()


def disk_figures():
    """The disk boots' rows (user/bench/diskbench.c)."""
    rows = [("file_write_mbs", "file on ext2: write + fsync", "MB/s", "high"),
            ("file_read_mbs", "file on ext2: read after umount + mount", "MB/s", "high")]
    for op in ("write", "read"):
        rows += [(f"raw_{op}_mbs_d1", f"raw partition {op}, 1 disk", "MB/s", "high"),
                 (f"raw_{op}_mbs_d2", f"raw partition {op}, 2 disks on 2 CPUs, together", "MB/s", "high"),
                 (f"raw_{op}_speedup", f"raw {op} speedup, 2 disks / 1", "x", "high")]
    return rows


def threadbench_figures(cpus):
    """threadbench's rows (user/compat/threadbench.c, a glibc pthread program)."""
    rows = [("sum_t1_ms", "parallel sum (glibc pthreads), 1 thread", "ms", "low")]
    rows += [(f"sum_speedup_t{n}", f"parallel sum, speedup {n} threads / 1"
              + (f" (on {cpus} CPUs)" if n > cpus else ""), "x", "high") for n in THREAD_COUNTS[1:]]
    rows += [("futex_rtt_ns", "futex ping-pong, two threads" + (" on two CPUs" if cpus > 1 else ""),
              "ns/round trip", "low")]
    return rows


# ---- the Debian kernel ----------------------------------------------------------------

def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def kernel_package():
    """The versioned package (linux-image-6.1.0-N-686) that the metapackage depends on, or None."""
    try:
        p = run(["apt-cache", "depends", METAPACKAGE])
    except OSError:
        return None
    m = re.search(r"Depends: (linux-image-\S+-686)(?::i386)?$", p.stdout, re.M)
    return m.group(1) if m else None


def cached_kernels():
    return sorted(glob.glob(os.path.join(LINUX_DIR, "vmlinuz-*-686")))


def describe(vmlinuz):
    try:
        with open(vmlinuz + ".txt") as f:
            return f.read().strip()
    except OSError:
        return os.path.basename(vmlinuz)


def fetch_kernel():
    """(path of vmlinuz, what it is) or (None, why not)."""
    os.makedirs(LINUX_DIR, exist_ok=True)
    pkg = kernel_package()
    if pkg is None and os.geteuid() == 0 and os.path.exists("tools/build/deps.sh"):
        print(f"bench-linux: apt knows no {METAPACKAGE}: running tools/build/deps.sh (make deps) to add i386")
        subprocess.run(["tools/build/deps.sh"])
        pkg = kernel_package()
    cached = cached_kernels()
    if pkg is None:
        if cached:
            print(f"bench-linux: apt knows no {METAPACKAGE}; using the kernel fetched before")
            return cached[-1], describe(cached[-1])
        return None, (f"apt knows no {METAPACKAGE} (as root, `make deps` adds the i386 architecture "
                      "and updates apt's lists; it needs Debian's archive)")
    vmlinuz = os.path.join(LINUX_DIR, "vmlinuz-" + pkg[len("linux-image-"):])
    if os.path.exists(vmlinuz):
        return vmlinuz, describe(vmlinuz)
    print(f"bench-linux: apt-get download {pkg}:i386 into {os.path.relpath(LINUX_DIR)}/")
    for old in glob.glob(os.path.join(LINUX_DIR, "*.deb")):
        os.remove(old)
    p = run(["apt-get", "download", "-q", pkg + ":i386"], cwd=LINUX_DIR)
    debs = glob.glob(os.path.join(LINUX_DIR, pkg + "_*.deb"))
    if p.returncode != 0 or not debs:
        why = (p.stderr.strip().splitlines() or ["no .deb"])[-1]
        if cached:
            print(f"bench-linux: apt-get download failed ({why}); using the kernel fetched before")
            return cached[-1], describe(cached[-1])
        return None, f"apt-get download {pkg}:i386 failed: {why}"
    deb = debs[0]
    # Only /boot/vmlinuz-*: `dpkg-deb -x` would also unpack some 300 MB of modules nobody loads.
    tree = os.path.join(LINUX_DIR, "unpacked")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    unpack = subprocess.run(f"dpkg-deb --fsys-tarfile '{deb}' | tar -C '{tree}' -x --wildcards './boot/vmlinuz-*'",
                            shell=True, capture_output=True, text=True)
    found = glob.glob(os.path.join(tree, "boot", "vmlinuz-*"))
    if unpack.returncode != 0 or not found:
        return None, f"no /boot/vmlinuz-* in {os.path.basename(deb)}: {unpack.stderr.strip()}"
    os.replace(found[0], vmlinuz)
    version = run(["dpkg-deb", "-f", deb, "Version"]).stdout.strip()
    with open(vmlinuz + ".txt", "w") as f:
        f.write(f"Debian 12 {pkg} {version} (i386)\n")
    shutil.rmtree(tree, ignore_errors=True)
    os.remove(deb)
    return vmlinuz, describe(vmlinuz)


def cpio_entry(name, mode, data=b"", rdev=(0, 0), ino=0):
    """One member of a cpio "newc" archive (what the kernel's initramfs unpacker reads)."""
    fields = (ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name) + 1, 0)
    head = b"070701" + "".join(f"{v:08X}" for v in fields).encode() + name.encode() + b"\0"
    head += b"\0" * (-len(head) % 4)
    return head + data + b"\0" * (-len(data) % 4)


def linux_initramfs(binary, path=None, extra=()):
    """build/linux/initramfs.cpio (or path): /init (the binary) and /dev/console, which Linux opens
    as init's stdin, stdout and stderr, and the members in extra. Written here so that the device
    nodes need no root."""
    with open(binary, "rb") as f:
        data = f.read()
    members = [("dev", 0o040755, b"", (0, 0)), ("dev/console", 0o020600, b"", (5, 1)),
               ("init", 0o100755, data, (0, 0)), *extra, ("TRAILER!!!", 0, b"", (0, 0))]
    path = path or os.path.join(LINUX_DIR, "initramfs.cpio")
    with open(path, "wb") as f:
        for i, (name, mode, body, rdev) in enumerate(members):
            f.write(cpio_entry(name, mode, body, rdev, ino=i + 1 if mode else 0))
    return path


# ---- the disk boots' modules and initramfs ------------------------------------------------

def module_deps(path):
    """The modules a .ko needs first: its .modinfo's depends= list, with '-' and '_' one."""
    with open(path, "rb") as f:
        m = re.search(rb"\0depends=([^\0]*)\0", f.read())
    return [d.decode().replace("-", "_") for d in m.group(1).split(b",") if d] if m else []


def module_order(tree, wanted, soft):
    """The .ko files under tree for the modules wanted and all they depend on, each after its
    dependencies; the soft ones (optional helpers) first, where present."""
    paths = {os.path.basename(p)[:-3].replace("-", "_"): p
             for p in glob.glob(os.path.join(tree, "**", "*.ko"), recursive=True)}
    order = []

    def visit(name, seen=()):
        if name not in paths:
            raise KeyError(f"module {name} is not in the package")
        for dep in module_deps(paths[name]):
            if dep not in seen:
                visit(dep, seen + (name,))
        if paths[name] not in order:
            order.append(paths[name])
    for m in [m for m in soft if m in paths] + list(wanted):
        visit(m)
    return order


def fetch_disk_modules(vmlinuz):
    """build/linux/modules-VERSION/: the disk boots' modules in load order (order.txt), taken out of
    the kernel's own package (fetched again if they are not here yet). (list of paths, None) or
    (None, why not)."""
    version = os.path.basename(vmlinuz)[len("vmlinuz-"):]
    mdir = os.path.join(LINUX_DIR, f"modules-{version}")
    order_txt = os.path.join(mdir, "order.txt")
    if os.path.exists(order_txt):
        with open(order_txt) as f:
            return [os.path.join(mdir, n) for n in f.read().split()], None
    pkg = "linux-image-" + version
    print(f"bench-linux: apt-get download {pkg}:i386 for its disk modules")
    p = run(["apt-get", "download", "-q", pkg + ":i386"], cwd=LINUX_DIR)
    debs = glob.glob(os.path.join(LINUX_DIR, pkg + "_*.deb"))
    if p.returncode != 0 or not debs:
        return None, f"apt-get download {pkg}:i386 failed: " + (p.stderr.strip().splitlines() or ["no .deb"])[-1]
    tree = os.path.join(LINUX_DIR, "unpacked-modules")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    dirs = " ".join(f"'./lib/modules/*/kernel/{d}/*'" for d in ("drivers/ata", "drivers/scsi", "block", "lib",
                                                                 "fs", "crypto"))
    unpack = subprocess.run(f"dpkg-deb --fsys-tarfile '{debs[0]}' | tar -C '{tree}' -x --wildcards {dirs}",
                            shell=True, capture_output=True, text=True)
    try:
        order = module_order(tree, DISK_MODULES, DISK_SOFT_MODULES)
    except KeyError as e:
        return None, f"{e} ({unpack.stderr.strip()[:200]})"
    os.makedirs(mdir, exist_ok=True)
    names = []
    for path in order:
        names.append(os.path.basename(path))
        shutil.copy(path, os.path.join(mdir, names[-1]))
    with open(order_txt, "w") as f:
        f.write("\n".join(names) + "\n")
    shutil.rmtree(tree, ignore_errors=True)
    for deb in debs:
        os.remove(deb)
    return [os.path.join(mdir, n) for n in names], None


def disk_initramfs(modules):
    """build/linux/initramfs-disk.cpio: sysbench as /init, the modules as /m/NAME.ko, /mnt, and the
    nodes of the two disks and their partitions (sd: major 8, 16 minors a disk)."""
    extra = [("m", 0o040755, b"", (0, 0)), ("mnt", 0o040755, b"", (0, 0))]
    for disk, base in (("sda", 0), ("sdb", 16)):
        extra += [(f"dev/{disk}{p or ''}", 0o060600, b"", (8, base + p)) for p in range(3)]
    for path in modules:
        with open(path, "rb") as f:
            extra.append((f"m/{os.path.basename(path)}", 0o100644, f.read(), (0, 0)))
    return linux_initramfs(BINARY, os.path.join(LINUX_DIR, "initramfs-disk.cpio"), extra)


def disk_words(file_mib, raw_mib, modules):
    """sysbench_disk='s words on each kernel: the same run, the disks by each kernel's names."""
    def words(d1, d2):
        return ["-M", f"/dev/{d1}1", "-D", "/mnt", "-s", str(file_mib), "-S", str(raw_mib), "-r", "1",
                f"/dev/{d1}2", f"/dev/{d2}2"]
    linux = [w for m in modules for w in ("-k", "/m/" + os.path.basename(m))] + ["-w", "20000"]
    return {"smpix": words("hda", "hdc"), "linux": linux + words("sda", "sdb")}


# ---- the boots ------------------------------------------------------------------------

def boot(kind, n, cpus, mem, accel, scale, timeout, vmlinuz=None, initramfs=None, prog="sysbench", disk=None):
    """One boot of prog (sysbench, threadbench, or sysbench's disk mode) as init: its figures, the boot
    time, and what went wrong. disk: {"images": [hda, hdc], "smpix": words, "linux": words} for the
    disk mode, the words sysbench_disk= gets on each kernel."""
    path, _, word = PROGRAMS[prog]
    if kind == "smpix":
        append, kernel, initrd = f"init={path} {word}={scale}", None, None
    else:
        append, kernel, initrd = f"{LINUX_APPEND} {word}={scale}", vmlinuz, initramfs
    if prog == "sysbench" and os.environ.get("BENCH_LINUX_ONLY"):
        append += " sysbench_only=" + os.environ["BENCH_LINUX_ONLY"]    # only the figures named so
    disks = ()
    if disk:
        append += " sysbench_disk=" + ",".join(disk[kind])
        disks = [disk["images"][0], None, disk["images"][1]]    # channel 0 master, channel 1 master
    t0 = time.monotonic()
    tag = "" if prog == "sysbench" else f"-{prog}"
    q = h.Qemu(f"bench-linux-{kind}{tag}-{n}", append=append, cpus=cpus, mem=mem, accel=accel,
               timeout=timeout, kernel=kernel, initrd=initrd, disks=disks)
    try:
        boot_s = time.monotonic() - t0 if q.expect(START.pattern) else None
        q.expect(DONE.pattern)
        q.wait_exit()           # sysbench powers the machine off; else the hard timeout ends it
    finally:
        q.kill()
    out = q.output
    result = {"kernel": kind, "prog": prog, "boot": n, "boot_s": boot_s, "wall_s": round(time.monotonic() - t0, 1),
              "qemu_exit": q.exit_code, "timed_out": q.timed_out, "rounds": {}, "problems": []}
    start, done = START.search(out), DONE.search(out)
    if start:
        result["release"], result["pid"], result["cpus"] = start.group(1), int(start.group(2)), int(start.group(3))
    for name, r, ops, value in LINE.findall(out):
        result["rounds"].setdefault(name, []).append(float(value))
    if not start:
        result["problems"].append("no start line" + (" (timeout)" if q.timed_out else ""))
    elif int(start.group(3)) != cpus or int(start.group(2)) != 1:
        result["problems"].append(f"ran as pid {start.group(2)} on {start.group(3)} CPUs")
    if not done:
        result["problems"].append("no done line" + (" (timeout)" if q.timed_out else ""))
    elif done.group(1) != "0":
        result["problems"].append(f"{prog} status {done.group(1)}")
    result["problems"] += ERROR.findall(out)
    result["problems"] += h.bad_lines(out)[:3]
    return result


def per_boot(result, cpus):
    """{figure key: value} of one boot: the median of its rounds; getpid round by round too."""
    vals = {k: statistics.median(v) for k, v in result["rounds"].items() if v}
    for i, v in enumerate(result["rounds"].get("getpid_ns", [])):
        vals[f"getpid_ns@{i + 1}"] = v
    for kind in ("fionread", "fionread_work"):
        for w in range(2, cpus + 1):
            if vals.get(f"{kind}_cps_w{w}") and vals.get(f"{kind}_cps_w1"):
                vals[f"{kind}_speedup_w{w}"] = vals[f"{kind}_cps_w{w}"] / vals[f"{kind}_cps_w1"]
    for op in ("write", "read"):
        if vals.get(f"raw_{op}_mbs_d2") and vals.get(f"raw_{op}_mbs_d1"):
            vals[f"raw_{op}_speedup"] = vals[f"raw_{op}_mbs_d2"] / vals[f"raw_{op}_mbs_d1"]
    for t in THREAD_COUNTS[1:]:
        if vals.get(f"sum_t{t}_ms") and vals.get("sum_t1_ms"):
            vals[f"sum_speedup_t{t}"] = vals["sum_t1_ms"] / vals[f"sum_t{t}_ms"]
    # Boot to /init is sysbench's figure: threadbench's first line comes after glibc's start-up.
    if result["boot_s"] is not None and result.get("prog", "sysbench") == "sysbench":
        vals["boot_s"] = result["boot_s"]
    return vals


def summarize(results, kind, cpus):
    """{figure key: (median, min, max)} over the boots of one kernel."""
    boots = [per_boot(r, cpus) for r in results if r["kernel"] == kind]
    out = {}
    for key, _, _, _ in all_figures(cpus):
        vals = [b[key] for b in boots if key in b]
        if vals:
            out[key] = (statistics.median(vals), min(vals), max(vals))
    return out


# ---- the report ---------------------------------------------------------------------

def fmt(v, unit):
    if unit == "x":
        return f"{v:.2f}"
    if unit == "s":
        return f"{v:.2f}"
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}"


def cell(stat, unit):
    if not stat:
        return "-"
    med, lo, hi = stat
    return f"{fmt(med, unit)} ({fmt(lo, unit)}-{fmt(hi, unit)})"


def reading(s, l, unit, better):
    """In words: how smpix compares, whichever way is better for this figure."""
    if not s or not l or not s[0] or not l[0]:
        return "-", None
    ratio = s[0] / l[0]
    if unit == "x":
        return f"{ratio:.2f}", f"smpix's speedup is {ratio:.2f}x Linux's"
    faster = ratio if better == "high" else 1 / ratio
    word = f"smpix {faster:.1f}x faster" if faster >= 1 else f"smpix {1 / faster:.1f}x slower"
    return f"{ratio:.2f}", word


def write_md(path, facts, cfg, summ_s, summ_l, results):
    cpus = cfg["cpus"]
    lines = [MARK_BEGIN, "## smpix beside Linux 6.1: one binary, booted as init on both (make bench-linux)", "",
             f"- binary: `/bin/sysbench` (user/bench/sysbench.c), {cfg['binary_bytes']} bytes, sha256 "
             f"`{cfg['binary_sha256'][:16]}...`: smpix's `init=/bin/sysbench`, Linux's `/init`",
             *([f"- binary: `/bin/compat-threadbench` (user/compat/threadbench.c, glibc, `gcc -m32 -static "
                f"-pthread`), {cfg['threadbench_bytes']} bytes, sha256 `{cfg['threadbench_sha256'][:16]}...`: "
                "smpix's `init=/bin/compat-threadbench`, Linux's `/init` (boots of its own)"]
              if cfg.get("threadbench_sha256") else []),
             f"- Linux: {cfg['linux']}" + (f", command line `{LINUX_APPEND}`" if cfg["linux_ok"] else ""),
             *([f"- disks (boots of their own): sysbench's disk mode (user/bench/diskbench.c), two "
                f"{bench_disk_image_mib()} MiB images, hda/sda on IDE channel 0 and hdc/sdb on channel 1: a "
                f"{cfg['disk']['file_mib']} MiB file on partition 1's ext2 (read after umount + mount), "
                f"{cfg['disk']['raw_mib']} MiB raw per disk on partition 2 (after BLKFLSBUF), one round per boot; "
                + (f"Linux first loads {len(cfg['disk']['linux_modules'])} modules of its own package "
                   "(ata_piix, sd_mod, ext4 and what they need)" if cfg['disk']['linux_modules']
                   else "Linux's disk modules could not be had: smpix alone")]
               if cfg.get("disk") else []),
             f"- {facts['qemu']}, accelerator {facts['accel']}, -smp {cpus}, -m {cfg['mem']}; "
             f"{cfg['boots']} boots of each kernel, interleaved; sysbench_scale={cfg['scale']}",
             f"- host: {facts['host']}; load average {cfg['load_before']} before, {cfg['load_after']} after",
             f"- date: {facts['date']}",
             "- each cell: the median over the boots of each boot's median of its rounds (3; FIONREAD 5; getpid: "
             "round by round), with the lowest and highest boot in brackets", "",
             "| figure | unit | smpix | Linux 6.1 | smpix/Linux | reading |", "|---|---|---|---|---|---|"]
    for key, label, unit, better in all_figures(cpus):
        s, l = summ_s.get(key), summ_l.get(key)
        ratio, word = reading(s, l, unit, better)
        lines.append(f"| {label} | {unit} | {cell(s, unit)} | {cell(l, unit)} | {ratio} | {word or '-'} |")
    if not cfg["linux_ok"]:
        lines += ["", f"Linux 6.1 was not measured: {cfg['linux']}."]
    bad = [r for r in results if r["problems"]]
    lines += ["", "Every boot: " + ", ".join(
        f"{r['kernel']}{' ' + r['prog'] if r.get('prog', 'sysbench') != 'sysbench' else ''} {r['boot']} "
        f"({'%.2f s to /init' % r['boot_s'] if r['boot_s'] is not None else 'no start'}, "
        f"{r['wall_s']:.0f} s in all)" for r in results) + "."]
    for r in bad:
        lines.append(f"- {r['kernel']} {r.get('prog', 'sysbench')} boot {r['boot']}: " + "; ".join(r["problems"][:4]))
    lines += ["", "![smpix beside Linux 6.1](linux.svg)", MARK_END]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return "\n".join(lines) + "\n"


def bench_disk_image_mib():
    import bench_disk
    return bench_disk.IMAGE_MIB


def splice_into_results(section):
    """make bench's results.md gets this table too, in place of an older one."""
    path = os.path.join(OUT, "results.md")
    if not os.path.exists(path):
        return False
    with open(path) as f:
        text = f.read()
    text = re.sub(re.escape(MARK_BEGIN) + r"[\s\S]*?" + re.escape(MARK_END) + r"\n?", "", text)
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n\n" + section)
    return True


def plot(cfg, summ_s, summ_l, facts):
    """Left: FIONREAD calls/s against workers. Right: how many times faster smpix is, per figure."""
    if not shutil.which("gnuplot"):
        print("bench-linux: gnuplot is missing (make deps installs it): no plot drawn")
        return None
    cpus = cfg["cpus"]
    if "fionread_cps_w1" not in summ_s:
        print("bench-linux: no sysbench boots (BENCH_LINUX_PROGS): no plot drawn")
        return None
    scaling = os.path.join(OUT, "linux-scaling.dat")
    with open(scaling, "w") as f:
        f.write("# workers smpix linux (FIONREAD calls/s)\n")
        for w in range(1, cpus + 1):
            k = f"fionread_cps_w{w}"
            f.write(f"{w} {summ_s[k][0] if k in summ_s else 'NaN'} {summ_l[k][0] if k in summ_l else 'NaN'}\n")
    speed = os.path.join(OUT, "linux-speed.dat")
    short = {"boot_s": "boot", "getpid_ns@3": "getpid", "fionread_cps_w1": "FIONREAD x1",
             f"fionread_cps_w{cpus}": f"FIONREAD x{cpus}", "pipe_rtt_same_us": "pipe 1 CPU",
             "pipe_rtt_cross_us": "pipe 2 CPUs", "fork_exit_wait_us": "fork+exit",
             "fork_exec_exit_us": "fork+exec", "futex_rtt_ns": "futex 2 CPUs",
             "sum_speedup_t2": "sum speedup x2"}
    n = 0
    with open(speed, "w") as f:
        f.write("# index label smpix-speed-relative-to-linux\n")
        for key, _, unit, better in all_figures(cpus):
            if key in short and key in summ_s and key in summ_l and summ_s[key][0] and summ_l[key][0]:
                r = summ_s[key][0] / summ_l[key][0]
                f.write(f'{n} "{short[key]}" {r if better == "high" else 1 / r}\n')
                n += 1
    svg = os.path.join(OUT, "linux.svg")
    right = (f"""
set title "how many times faster smpix is (log scale; < 1: Linux is faster)"
set logscale y
set yrange [0.1:100]
set style fill solid 0.6
set xtics rotate by -30
set xrange [-0.6:{n - 0.4}]
unset key
# Each bar from 1 to the ratio: up where smpix is faster, down where Linux is.
plot '{speed}' using 1:3:($1-0.3):($1+0.3):($3<1?$3:1):($3<1?1:$3):xtic(2) with boxxyerror lc rgb "#4070a0", \
     1 with lines lc rgb "black" dt 2 notitle
""" if n else "")
    body = f"""
reset
set multiplot layout 1,{2 if n else 1} title "smpix beside Linux 6.1: the same binary as init, {facts['accel'].upper()}, -smp {cpus}, {os.cpu_count()} host cores"
set title "FIONREAD on a pipe: calls/s, all workers"
set xlabel "workers (one per CPU, a pipe each)"
set ylabel "calls per second"
set xtics 1
set xrange [0.8:{cpus + 0.2}]
set yrange [0:*]
set grid
set key top left
plot '{scaling}' using 1:2 with linespoints lw 2 pt 7 title "smpix", '{scaling}' using 1:3 with linespoints lw 2 pt 5 title "Linux 6.1"
unset xlabel
unset ylabel
{right}
unset multiplot
"""
    script = (f"set terminal svg size 1000,480 dynamic noenhanced font 'sans,12'\nset output '{svg}'\n{body}\n"
              f"set terminal pngcairo size 1000,480 noenhanced font 'sans,10'\n"
              f"set output '{os.path.join(OUT, 'linux.png')}'\n{body}\n")
    p = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if p.returncode != 0:
        print("bench-linux: gnuplot failed:\n" + p.stderr)
        return None
    return svg


def host_facts(accel):
    """What the numbers were measured on: make bench's facts (tools/bench/bench.py), the host on one line."""
    import bench
    f = bench.host_facts(accel)
    return dict(f, host=f"{f['host']} ({f['system']}, {f['cores']} cores)")


def main():
    h.LOCKDEP_BOOTS = False     # measured boots: the lock-order checker would cost them time
    accel = os.environ.get("ACCEL", "") or "tcg"
    cpus = env_int("BENCH_LINUX_CPUS", 2)
    boots = env_int("BENCH_LINUX_BOOTS", 3)
    scale = env_int("BENCH_LINUX_SCALE", 100)
    timeout = env_int("BENCH_LINUX_TIMEOUT", 900)
    mem = env_int("MEM", 128)
    if not os.path.exists(BINARY):
        sys.exit(f"bench-linux: {BINARY} is missing: run make first")
    os.makedirs(OUT, exist_ok=True)
    facts = host_facts(accel)
    with open(BINARY, "rb") as f:
        data = f.read()
    cfg = {"cpus": cpus, "boots": boots, "scale": scale, "mem": mem, "binary_bytes": len(data),
           "binary_sha256": hashlib.sha256(data).hexdigest(), "load_before": loadavg()}
    vmlinuz, what = fetch_kernel()
    cfg["linux_ok"], cfg["linux"] = vmlinuz is not None, what
    threads = env_int("BENCH_LINUX_THREADS", 1) and os.path.exists(THREADBENCH)
    progs = ["sysbench"] + (["threadbench"] if threads else [])
    if threads:
        with open(THREADBENCH, "rb") as f:
            tb = f.read()
        cfg["threadbench_bytes"], cfg["threadbench_sha256"] = len(tb), hashlib.sha256(tb).hexdigest()
    disk = None
    if env_int("BENCH_LINUX_DISK", 1):
        import bench_disk
        modules, why = fetch_disk_modules(vmlinuz) if vmlinuz else ([], None)
        if why:
            print(f"bench-linux: no disk boots on Linux: {why}")
        file_mib, raw_mib = env_int("BENCH_LINUX_DISK_FILE_MIB", 64), env_int("BENCH_LINUX_DISK_MIB", 4)
        try:
            images = bench_disk.make_images()
        except (OSError, subprocess.CalledProcessError) as e:
            images = None
            print(f"bench-linux: no disk boots: the images cannot be made ({e}; mke2fs is e2fsprogs)")
        if images:
            disk = dict(disk_words(file_mib, raw_mib, modules or []), images=images, linux_ok=bool(modules))
            cfg["disk"] = {"file_mib": file_mib, "raw_mib": raw_mib,
                           "linux_modules": [os.path.basename(m) for m in modules or []]}
            progs.append("disk")
    initramfs = {}
    if vmlinuz:
        initramfs["sysbench"] = linux_initramfs(BINARY)
        if threads:
            initramfs["threadbench"] = linux_initramfs(THREADBENCH, os.path.join(LINUX_DIR, "initramfs-threadbench.cpio"))
        if disk and disk["linux_ok"]:
            initramfs["disk"] = disk_initramfs(modules)
        print(f"bench-linux: {what}: {os.path.relpath(vmlinuz)}, initramfs " +
              ", ".join(os.path.relpath(p) for p in initramfs.values()))
    else:
        print(f"bench-linux: Linux 6.1 cannot be had here: {what}. Going on with smpix alone.")
    kinds = ["smpix", "linux"] if vmlinuz else ["smpix"]
    if os.environ.get("BENCH_LINUX_PROGS"):     # e.g. threadbench: more boots of one program in the same time
        progs = [p for p in progs if p in os.environ["BENCH_LINUX_PROGS"].split(",")]
    runs = [(prog, kind) for prog in progs for kind in kinds if prog != "disk" or kind == "smpix" or initramfs.get("disk")]
    total = boots * len(runs)
    print(f"bench-linux: {facts['qemu']}, accel {accel}, -smp {cpus}, {boots} boots of "
          f"{' and '.join(kinds)} interleaved, sysbench_scale={scale}")
    results = []
    for i in range(boots):
        for prog, kind in runs:
            r = boot(kind, i + 1, cpus, mem, accel, scale, timeout, vmlinuz, initramfs.get(prog), prog,
                     disk if prog == "disk" else None)
            results.append(r)
            to_init = f"{r['boot_s']:.2f} s to /init" if r["boot_s"] is not None else "never reached /init"
            print(f"  boot {len(results)}/{total}: {kind:5} {prog:11} {r.get('release', '?')}: {to_init}, "
                  f"{r['wall_s']:.0f} s in all" + (": " + "; ".join(r["problems"][:3]) if r["problems"] else ""),
                  flush=True)
    cfg["load_after"] = loadavg()
    summ_s, summ_l = summarize(results, "smpix", cpus), summarize(results, "linux", cpus)
    with open(os.path.join(OUT, "linux.json"), "w") as f:
        json.dump({"facts": facts, "config": cfg, "boots": results,
                   "median": {"smpix": summ_s, "linux": summ_l}}, f, indent=1)
    section = write_md(os.path.join(OUT, "linux.md"), facts, cfg, summ_s, summ_l, results)
    svg = plot(cfg, summ_s, summ_l, facts)
    print(section)
    spliced = splice_into_results(section)
    print("bench-linux: wrote build/bench/linux.json, linux.md" + (", linux.svg, linux.png" if svg else "") +
          ("; and the table into results.md" if spliced else ""))
    if "--update-docs" in sys.argv and svg:
        shutil.copy(svg, os.path.join("docs", "img", "linux.svg"))
        shutil.copy(os.path.join(OUT, "linux.md"), os.path.join("docs", "img", "bench-linux.md"))
        print("bench-linux: copied the plot and the table into docs/img/")
    return 1 if any(r["problems"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
