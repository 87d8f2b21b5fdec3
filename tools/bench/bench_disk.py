#!/usr/bin/env python3
"""make bench's disk part (issue 32): the block lock's eras, two disks on two CPUs.

Two kinds of disk pair, each booted with -smp 2 and init=/bin/sysbench in its disk mode
(user/bench/diskbench.c):

  - ide: two images, hda on IDE channel 0 and hdc on channel 1 (each made by tools/build/mkdisk.py: an
    MBR, ext2 on partition 1, a raw scratch partition 2), written and read on /dev/hda2 and /dev/hdc2;
  - ram: two RAM disks, /dev/ram0 and /dev/ram1 (rd_nr=2, drivers/block/rd.c), whose request function
    copies the data with the CPU under the queue's lock: the block lock's eras with no emulated device
    in the way (QEMU serves both IDE channels in one thread under its own global lock).

  - the scaling: for each kind, and each of era=2.0 (every system call and the request path under the
    BKL), era=2.2 (io_request_lock, with read() and write() still under the BKL), era=2.4
    (io_request_lock alone) and era=2.6.11 (a lock per queue), BOOTS boots, the eras interleaved
    (2.0, 2.2, 2.4, 2.6, 2.0, ...). In each boot, ROUNDS rounds of:
    one process writing MIB MiB to the first disk, then reading it back, alone; then two, one per CPU,
    the second on the second disk. The disk count takes turns within rounds (1, 2, then 2, 1) so
    that a slow spell of the host does not always fall on the same count. A round's speedup is the two
    processes' MB/s (together) over the one's, measured a few seconds apart in one boot; a boot's is the
    median of its rounds; an era's the median over its boots.
  - the file: one boot (era 2.6, smpix's default), a FILE_MIB MiB file on hda1's ext2 written
    and fsync()ed, then unmounted, mounted again and read back (no block of it cached).

Every read is of blocks in no cache (sysbench asks BLKFLSBUF, or unmounts, first); every write is timed
to the end of its fsync(). MB/s is 10^6 bytes a second.

The targets, judged on the era medians, for writes and for reads: on both kinds, under the 2.6
era's queue locks two disks on two CPUs do at least what one does (speedup >= QUEUE_TARGET), and the
2.6 era's speedup is ERA_TARGET times the 2.0 era's and the 2.2 era's or more (they do not scale:
2.2 still ran read() and write() under the BKL); on the RAM disks, 2.6's speedup is RAM_SCALE_TARGET
or more. 2.4 (io_request_lock alone) is measured beside them and reported, not judged: on two CPUs
the time it is held (a few port writes per 64 KiB request with DMA; a 64 KiB copy on a RAM disk) is a
small part of a request's, and it scales almost as the queue locks do (docs/performance.md, "Disks").
Before plugging (2-sector requests, PIO) and on a busy host it collapsed; that is history the docs
keep.

Writes build/bench/disk.json (every boot, every round) and disk.md, and puts the table into
build/bench/results.md (make bench's) between two marker lines when that file exists. Exit status 1 if
a boot went wrong or the target was missed.

Environment (make passes them): BENCH_DISK_BOOTS=3 (of each era on each kind), BENCH_DISK_ROUNDS=3, BENCH_DISK_MIB=2 (per disk
and run), BENCH_DISK_FILE_MIB=64 (0: no file boot), BENCH_DISK_FILE_ROUNDS=1, BENCH_DISK_TIMEOUT=600
(seconds, each boot), MEM=128, ACCEL=tcg; BENCH_DISK_APPEND: boot words added to every boot (blk_plug=0:
the request path without plugging, docs/block.md).
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test"))
import harness as h  # noqa: E402
from bench import env_int, loadavg  # noqa: E402  (the same helpers as make bench)

HERE = os.path.dirname(os.path.abspath(__file__))
MKDISK = os.path.join(os.path.dirname(HERE), "build", "mkdisk.py")
OUT = os.path.join(h.BUILD, "bench")
IMAGES = os.path.join(OUT, "disk")
ERAS = ("2.0", "2.2", "2.4", "2.6")
ERA_NAMES = {"2.0": "2.0: every system call under the BKL (+ io_request_lock)",
             "2.2": "2.2: io_request_lock; read() and write() under the BKL",
             "2.4": "2.4: io_request_lock", "2.6": "2.6: a lock per queue"}
ERA_WORDS = {"2.0": "era=2.0", "2.2": "era=2.2", "2.4": "era=2.4", "2.6": "era=2.6.11"}
QUEUE_LOCKED_BY = {"2.0": "the BKL", "2.2": "io_request_lock", "2.4": "io_request_lock", "2.6": "their own locks"}
KINDS = ("ide", "ram")
KIND_NAMES = {"ide": "IDE: hda and hdc, one on each channel, DMA",
              "ram": "RAM disks: ram0 and ram1, copied by the CPU under the queue's lock"}
RAM_APPEND = "rd_nr=2 rd_size=8192"
IMAGE_MIB = 128                 # hda1 about 95 MiB of ext2 (room for the 64 MiB file), hda2 32 MiB raw
CPUS = 2
QUEUE_TARGET = 1.0      # 2.6: two disks keep (at least) one disk's throughput
ERA_TARGET = 1.2        # 2.6's speedup over 2.0's and 2.2's: those eras do not scale, 2.6 does
RAM_SCALE_TARGET = 1.3  # 2.6 on the RAM disks, where no emulated device limits: two disks scale
LINE = re.compile(r"^sysbench: (\w+) round=(\d+) ops=(\d+) value=(\d+(?:\.\d+)?)$", re.M)
DONE = re.compile(r"^sysbench: done status=(\d+)$", re.M)
ERROR = re.compile(r"^sysbench: error .*$", re.M)
EXTRA_APPEND = os.environ.get("BENCH_DISK_APPEND", "")      # more boot words for every boot, e.g. blk_plug=0
MARK_BEGIN = "<!-- make bench disk: begin -->"
MARK_END = "<!-- make bench disk: end -->"


def make_images():
    """Fresh hda and hdc (sparse files: cheap), each with an empty ext2 on partition 1."""
    os.makedirs(IMAGES, exist_ok=True)
    empty = os.path.join(IMAGES, "empty-root")
    os.makedirs(empty, exist_ok=True)
    paths = []
    for name in ("hda", "hdc"):
        path = os.path.join(IMAGES, f"{name}.img")
        if os.path.exists(path):
            os.remove(path)
        subprocess.run([sys.executable, MKDISK, path, str(IMAGE_MIB), "--root", empty], check=True,
                       env=dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin"))
        paths.append(path)
    return paths


def boot(label, kind, era, disk_args, images, accel, mem, timeout):
    """One boot of init=/bin/sysbench in disk mode: {figure: [value by round]} and what went wrong."""
    words = ERA_WORDS[era] + (" " + RAM_APPEND if kind == "ram" else "")
    append = f"init=/bin/sysbench {words} sysbench_disk={','.join(disk_args)} {EXTRA_APPEND}".rstrip()
    t0 = time.monotonic()
    q = h.Qemu(f"bench-disk-{label}", append=append, cpus=CPUS, mem=mem, accel=accel, timeout=timeout,
               disks=[] if kind == "ram" else [images[0], None, images[1]])
    try:
        q.expect(DONE.pattern)
        q.wait_exit()
    finally:
        q.kill()
    out = q.output
    rounds, problems = {}, []
    for name, r, _, value in LINE.findall(out):
        rounds.setdefault(name, {})[int(r)] = float(value)
    done = DONE.search(out)
    if not done:
        problems.append("no done line" + (" (timeout)" if q.timed_out else ""))
    elif done.group(1) != "0":
        problems.append(f"sysbench status {done.group(1)}")
    if not re.search(r"^block: request queues locked by " + QUEUE_LOCKED_BY[era], out, re.M):
        problems.append(f"the kernel did not say {ERA_WORDS[era]}")
    problems += ERROR.findall(out) + h.bad_lines(out)[:3]
    return {"label": label, "kind": kind, "era": era, "append": append, "wall_s": round(time.monotonic() - t0, 1),
            "rounds": rounds, "problems": problems}


def boot_speedups(result):
    """{write|read: (MB/s 1 disk, MB/s 2 disks, speedup)} of one boot: medians over its rounds, the
    speedup round by round (both counts of a round run seconds apart)."""
    out = {}
    for op in ("write", "read"):
        one, two = result["rounds"].get(f"raw_{op}_mbs_d1", {}), result["rounds"].get(f"raw_{op}_mbs_d2", {})
        both = sorted(set(one) & set(two))
        if both:
            out[op] = (statistics.median(one[r] for r in both), statistics.median(two[r] for r in both),
                       statistics.median(two[r] / one[r] for r in both if one[r] > 0))
    return out


def summarize(results):
    """{kind: {era: {op: (median 1-disk MB/s, median 2-disk MB/s, median speedup, min, max speedup)}}}."""
    table = {}
    for kind in KINDS:
        for era in ERAS:
            per = [boot_speedups(r) for r in results if r.get("kind") == kind and r["era"] == era]
            for op in ("write", "read"):
                got = [b[op] for b in per if op in b]
                if got:
                    speedups = [g[2] for g in got]
                    table.setdefault(kind, {}).setdefault(era, {})[op] = (
                        statistics.median(g[0] for g in got), statistics.median(g[1] for g in got),
                        statistics.median(speedups), min(speedups), max(speedups))
    return table


def judge_one(kind, op, t):
    """(met, [sentences]) for one kind of disk and one operation; t: {era: figures}."""
    if not all(t.get(e) for e in ERAS):
        return False, [f"{kind} {op}: not every era was measured"]
    q = t["2.6"]
    checks = [(f"2.6 {q[2]:.2f}x", q[2] >= QUEUE_TARGET, f">= {QUEUE_TARGET}x")]
    checks += [(f"2.6/{e} {q[2] / t[e][2]:.2f}", q[2] >= ERA_TARGET * t[e][2], f">= {ERA_TARGET}") for e in ("2.0", "2.2")]
    if kind == "ram":
        checks.append((f"2.6 scales ({q[2]:.2f}x)", q[2] >= RAM_SCALE_TARGET, f">= {RAM_SCALE_TARGET}x"))
    words = [f"{kind} {op}: {what}: " + ("met" if ok else f"MISSED (want {want})") for what, ok, want in checks]
    words.append(f"{kind} {op}: 2.0 {t['2.0'][2]:.2f}x, 2.2 {t['2.2'][2]:.2f}x, 2.4 {t['2.4'][2]:.2f}x, "
                 f"2.6/2.4 {q[2] / t['2.4'][2]:.2f} (2.4 reported, not judged)")
    return all(ok for _, ok, _ in checks), words


def judge(table):
    """(met, [sentences]): each kind's and operation's targets (judge_one)."""
    met, words = True, []
    for kind in KINDS:
        for op in ("write", "read"):
            ok, w = judge_one(kind, op, {e: table.get(kind, {}).get(e, {}).get(op) for e in ERAS})
            met &= ok
            words += w
    return met, words


def write_md(facts, cfg, table, file_figs, results, verdict):
    met, words = verdict
    lines = [MARK_BEGIN, "## Disks: the block lock's three eras, two disks on two CPUs (make bench)", "",
             f"- {facts['qemu']}, accelerator {facts['accel']}, -smp {CPUS}, -m {cfg['mem']}; two IDE disks, "
             "hda on channel 0 (IRQ 14, CPU 0), hdc on channel 1 (IRQ 15, CPU 1); two RAM disks "
             f"({RAM_APPEND})",
             f"- host: {facts['host']} ({facts['system']}, {facts['cores']} cores); load average "
             f"{cfg['load_before']} before, {cfg['load_after']} after",
             f"- {cfg['boots']} boots per era and kind, interleaved; {cfg['rounds']} rounds per boot of {cfg['mib']} "
             "MiB per disk and run, /dev/hda2 (and /dev/hdc2), /dev/ram0 (and /dev/ram1); reads after BLKFLSBUF "
             "(no block cached), writes timed to the end of fsync(); MB/s = 10^6 bytes/s",
             "- speedup: the two processes' MB/s together over the one's, round by round in one boot; the "
             "median of a boot's rounds, then over the boots (lowest and highest boot in brackets)",
             f"- date: {facts['date']}", "",
             "| disks | era (boot word) | write, 1 disk | write, 2 disks | write speedup | read, 1 disk "
             "| read, 2 disks | read speedup |", "|---|---|---|---|---|---|---|---|"]
    for kind in KINDS:
        for era in ERAS:
            row = [kind, f"{ERA_NAMES[era]} (`{ERA_WORDS[era]}`)"]
            for op in ("write", "read"):
                t = table.get(kind, {}).get(era, {}).get(op)
                row += ([f"{t[0]:.1f} MB/s", f"{t[1]:.1f} MB/s", f"{t[2]:.2f}x ({t[3]:.2f}-{t[4]:.2f})"]
                        if t else ["-", "-", "-"])
            lines.append("| " + " | ".join(row) + " |")
    if file_figs:
        lines += ["", f"A {cfg['file_mib']} MiB file on ext2 (hda1, blk_lock=queue, 64 KiB write()s then fsync(); "
                  "read after umount and mount): " + ", ".join(f"{k} {v:.1f} MB/s" for k, v in file_figs.items()) + "."]
    lines += ["", f"Target ({'met' if met else 'MISSED'}): " + "; ".join(words) + "."]
    bad = [r for r in results if r["problems"]]
    for r in bad:
        lines.append(f"- boot {r['label']}: " + "; ".join(r["problems"][:4]))
    lines += [MARK_END]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(OUT, "disk.md"), "w") as f:
        f.write(text)
    return text


def splice_into_results(section):
    path = os.path.join(OUT, "results.md")
    if not os.path.exists(path):
        return False
    with open(path) as f:
        text = f.read()
    text = re.sub(re.escape(MARK_BEGIN) + r"[\s\S]*?" + re.escape(MARK_END) + r"\n?", "", text)
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n\n" + section)
    return True


def main():
    import bench
    h.LOCKDEP_BOOTS = False     # measured boots: the lock-order checker would cost them time
    accel = os.environ.get("ACCEL", "") or "tcg"
    cfg = {"boots": env_int("BENCH_DISK_BOOTS", 3), "rounds": env_int("BENCH_DISK_ROUNDS", 3),
           "mib": env_int("BENCH_DISK_MIB", 2), "file_mib": env_int("BENCH_DISK_FILE_MIB", 64),
           "file_rounds": env_int("BENCH_DISK_FILE_ROUNDS", 1), "mem": env_int("MEM", 128),
           "timeout": env_int("BENCH_DISK_TIMEOUT", 600), "load_before": loadavg()}
    if not os.path.exists(h.KERNEL):
        sys.exit(f"bench-disk: {h.KERNEL} is missing: run make first")
    facts = bench.host_facts(accel)
    images = make_images()
    devices = {"ide": ["/dev/hda2", "/dev/hdc2"], "ram": ["/dev/ram0", "/dev/ram1"]}
    print(f"bench-disk: {facts['qemu']}, accel {accel}, -smp {CPUS}; {cfg['boots']} boots of each of "
          f"{'/'.join(ERA_WORDS.values())} on {' and '.join(KINDS)} disks, {cfg['rounds']} rounds of "
          f"{cfg['mib']} MiB per disk", flush=True)
    results = []
    for kind in KINDS:
        raw = ["-S", str(cfg["mib"]), "-r", str(cfg["rounds"])] + devices[kind]
        for n in range(1, cfg["boots"] + 1):
            for era in ERAS:
                r = boot(f"{kind}-{era}-{n}", kind, era, raw, images, accel, cfg["mem"], cfg["timeout"])
                results.append(r)
                s = boot_speedups(r)
                print(f"  {kind} {era:6} boot {n}: " + ", ".join(f"{op} {v[0]:.1f} -> {v[1]:.1f} MB/s ({v[2]:.2f}x)"
                                                                 for op, v in s.items())
                      + f"; {r['wall_s']:.0f} s" + (": " + "; ".join(r["problems"][:3]) if r["problems"] else ""),
                      flush=True)
    file_figs = {}
    if cfg["file_mib"]:
        r = boot("file", "file", "2.6", ["-M", "/dev/hda1", "-D", "/mnt", "-s", str(cfg["file_mib"]),
                                   "-r", str(cfg["file_rounds"])], images, accel, cfg["mem"], cfg["timeout"])
        results.append(r)
        for key in ("file_write_mbs", "file_read_mbs"):
            if r["rounds"].get(key):
                file_figs[key] = statistics.median(r["rounds"][key].values())
        print(f"  file  : " + ", ".join(f"{k} {v:.1f}" for k, v in file_figs.items()) + f"; {r['wall_s']:.0f} s"
              + (": " + "; ".join(r["problems"][:3]) if r["problems"] else ""), flush=True)
    cfg["load_after"] = loadavg()
    table = summarize(results)
    verdict = judge(table)
    with open(os.path.join(OUT, "disk.json"), "w") as f:
        json.dump({"facts": facts, "config": cfg, "boots": results, "table": table, "file": file_figs,
                   "target_met": verdict[0]}, f, indent=1)
    section = write_md(facts, cfg, table, file_figs, results, verdict)
    print(section)
    spliced = splice_into_results(section)
    print("bench-disk: wrote build/bench/disk.json, disk.md" + ("; and the table into results.md" if spliced else ""))
    return 0 if verdict[0] and not any(r["problems"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
