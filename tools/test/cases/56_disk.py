"""Disks (docs/block.md): the IDE driver, the block layer's lock in its three eras and the buffer cache.
ktests of the elevator and the buffer cache on a RAM disk; /bin/blktest (user/tests/blktest.c) on two
IDE disks at -smp 2 and 4, once per era of the block lock (2.0: the BKL; blk_lock=global: 2.2 and
2.4's io_request_lock; 2.6: a lock per queue; and the 2.6.39 build when it exists), each with the
lock-order checker on, the disks moving their data by bus-master DMA; once more with ide_dma=0, by PIO;
and data that survives a power-off: the image is checked byte for byte on the host, then booted again
and read back."""
import os
import shutil
import subprocess

from testlib import INIT_EXIT, record_suite_boot

MKDISK = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                      "tools", "build", "mkdisk.py")
KIB = 1024
HDA2_START = 12288 * KIB                # tools/build/mkdisk.py's layout of a 16 MiB disk
MARKER = b"SMPIX-BLKTEST-PERSIST"
# kernel/tests/blk_elevator_test.c and bcache_test.c (every ktest boot runs them too, with test=all)
KTESTS = ",".join(["blk_elevator_merges_adjacent_buffers", "blk_elevator_sorts_from_the_head_one_way",
                   "blk_elevator_caps_a_request_at_max_sectors", "blk_queue_runs_out_of_requests",
                   "bcache_second_bread_is_a_hit", "bcache_counts_references",
                   "bcache_hash_keys_on_device_block_and_size", "bcache_reuses_the_least_recently_released",
                   "bcache_dirty_buffer_reaches_the_disk_on_sync", "bcache_refuses_bad_blocks_and_sizes",
                   "ide_dma_prd_*",         # kernel/tests/ide_dma_test.c: 4 (the boot line has 512 bytes)
                   "blk_plug_*"])           # kernel/tests/blk_plug_test.c: 5
# drivers/block/ide.c's boot line for each disk: its transfer mode.
DMA_LINES = [r"^ide: PCI .*, bus master at 0x[0-9a-f]+$", r"^ide: hda: .* on ide0, DMA$", r"^ide: hdc: .* on ide1, DMA$"]
PIO_LINES = [r"^ide: hda: .* on ide0, PIO$", r"^ide: hdc: .* on ide1, PIO$"]


def pattern(length, at, seed):
    """user/tests/blktest.c's fill()."""
    return bytes((((at + i) * 7 + seed + (at + i) // 4099) & 0xff) for i in range(length))


def make_disks(h, label):
    """A fresh pair of images for one boot: hda (16 MiB, MBR, hda1 + hda2), hdc (8 MiB, raw)."""
    d = os.path.join(h.BUILD, "disk-tests")
    os.makedirs(d, exist_ok=True)
    hda, hdc = os.path.join(d, f"{label}-hda.img"), os.path.join(d, f"{label}-hdc.img")
    subprocess.run(["python3", MKDISK, hda, "16"], check=True)
    subprocess.run(["python3", MKDISK, hdc, "8", "--raw"], check=True)
    return hda, hdc


def blktest(h, label, cpus, append="", kernel=None, disks=None, min_tests=7, patterns=()):
    """Boot init=/bin/blktest with the disks; one result per test, one for the run."""
    name = f"blktest[{label}]"
    if not h.wanted(name):
        return None
    disks = disks or make_disks(h, label)
    q = h.Qemu(f"blktest-{label}", append=f"init=/bin/blktest {append}".strip(), cpus=cpus, timeout=240,
               kernel=kernel, initrd=os.path.join(os.path.dirname(kernel), "initrd.cpio") if kernel else None,
               disks=[disks[0], None, disks[1]])
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = record_suite_boot(h, name, "blktest", q, min_tests, patterns)
    return out, disks


def check_image(h, label, hda):
    """What the first boot left, read on the host: the marker, A (synced), B (written by the power-off)."""
    name = f"blktest[{label}] the image holds the data after power off (host)"
    with open(hda, "rb") as f:
        img = f.read()
    p2 = img[HDA2_START:]
    problems = []
    if p2[:len(MARKER)] != MARKER:
        problems.append("no marker at the start of hda2")
    if p2[4 * KIB:12 * KIB] != pattern(8 * KIB, 4 * KIB, 5):
        problems.append("block A (written, sync()ed) differs")
    if p2[1024 * KIB:1032 * KIB] != pattern(8 * KIB, 1024 * KIB, 6):
        problems.append("block B (written, left dirty, power off) differs")
    if p2[2048 * KIB + 100:2048 * KIB + 100 + 3000] != pattern(3000, 2048 * KIB + 100, 2):
        problems.append("the across-partitions write differs")
    h.record(name, not problems, "; ".join(problems))


def run(h):
    h.ktests("disk-smp2", tests=KTESTS, cpus=2, min_count=19)
    # Era 2.6 (smpix's default, a lock per queue), then the same image booted again.
    got = blktest(h, "smp2-queue", cpus=2, patterns=[r"^block: request queues locked by their own locks",
                                                     r"^block: writing \d+ dirty buffers before power off"]
                  + DMA_LINES)
    if got:
        check_image(h, "smp2-queue", got[1][0])
        blktest(h, "smp2-queue-reboot", cpus=2, disks=got[1], min_tests=1, patterns=[r"^blktest: second boot"])
    blktest(h, "smp4-era-2.0", cpus=4, append="era=2.0",
            patterns=[r"^block: request queues locked by the BKL and io_request_lock"])
    blktest(h, "smp2-global", cpus=2, append="blk_lock=global",
            patterns=[r"^block: request queues locked by io_request_lock"])
    # PIO, the fallback (ide_dma=0): the same tests, the data on the image after the power off too.
    got = blktest(h, "smp2-pio", cpus=2, append="ide_dma=0", patterns=PIO_LINES)
    if got:
        check_image(h, "smp2-pio", got[1][0])
    era = os.path.join(h.BUILD, "era-2.6.39", "kernel.elf")
    if os.path.exists(era):
        blktest(h, "smp4-era-2.6.39", cpus=4, kernel=era,
                patterns=[r"^block: request queues locked by their own locks"])
    elif h.wanted("blktest[smp4-era-2.6.39]"):
        h.skip("blktest[smp4-era-2.6.39]", "no build/era-2.6.39 (make ERA=2.6.39 builds it)")
