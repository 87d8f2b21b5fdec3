#!/usr/bin/env python3
"""Make a disk image for smpix's IDE disks (make disk, the disk tests).

    mkdisk.py OUT SIZE_MIB [--root DIR] [--raw]

An MBR with two primary partitions: hda1 (type 0x83) from sector 2048 over
three quarters of the disk, hda2 (type 0x83, a scratch area the tests write
raw) after it to the end. With --root, hda1 holds an ext2 file system made
by e2fsprogs' mke2fs -d from DIR (revision 1, 1024-byte blocks). --raw: no
partition table at all (a second disk for the benchmark).
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys

SECTOR = 512
P1_START = 2048


def layout(size_mib):
    total = size_mib * 2048
    p1_len = (total * 3 // 4) - P1_START
    p2_start = P1_START + p1_len
    return [(P1_START, p1_len), (p2_start, total - p2_start)]


def mbr(parts):
    table = b""
    for start, length in parts:
        # status, CHS first (unused: 0xFE 0xFF 0xFF = "use LBA"), type, CHS last, LBA start, count
        table += struct.pack("<B3sB3sII", 0, b"\xfe\xff\xff", 0x83, b"\xfe\xff\xff", start, length)
    table += b"\0" * (64 - len(table))
    return b"\0" * 440 + struct.pack("<IH", 0x534D5058, 0) + table + b"\x55\xaa"


def mke2fs():
    for d in os.environ.get("PATH", "").split(":") + ["/usr/sbin", "/sbin"]:
        p = os.path.join(d, "mke2fs")
        if d and os.access(p, os.X_OK):
            return p
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("size_mib", type=int)
    ap.add_argument("--root")
    ap.add_argument("--raw", action="store_true")
    a = ap.parse_args()
    tmp = a.out + ".tmp"
    with open(tmp, "wb") as f:
        f.truncate(a.size_mib << 20)
        if not a.raw:
            f.write(mbr(layout(a.size_mib)))
    if a.root and not a.raw:
        tool = mke2fs()
        if not tool:
            sys.exit("mkdisk: mke2fs not found (e2fsprogs: tools/build/deps.sh)")
        start, length = layout(a.size_mib)[0]
        subprocess.run([tool, "-q", "-F", "-t", "ext2", "-r", "1", "-b", "1024", "-L", "smpix",
                        "-E", f"offset={start * SECTOR}", "-d", a.root, tmp, str(length * SECTOR // 1024)],
                       check=True)
    shutil.move(tmp, a.out)


if __name__ == "__main__":
    main()
